#!/usr/bin/env python3
"""Interop check: the official MCP Python SDK's stdio client against `httptool serve`.

usage: python3 tests/mcp_sdk/client.py [PATH-TO-HTTPTOOL]   (default target/debug/httptool)

Starts a loopback HTTP API of its own, writes a plugin file for it (a weather endpoint with
an output schema, a list endpoint, and filler tools so tools/list takes several pages), runs
`httptool serve PLUGIN --page-size 10` under the SDK's `Client` twice, at revision 2026-07-28
(`mode="auto"`: the SDK probes `server/discover` and stays stateless) and at 2025-11-25
(`mode="legacy"`: the initialize handshake), and checks each time: the revision and the
server's identity, every page of tools/list, a call that reaches the API with its
structuredContent (which the SDK validates against the outputSchema), a wrapped array result,
an OpenAPI document's tool (`--openapi`) whose answers break the document's response schema,
isError for a bad argument, progress notifications, and ping (2025-11-25 only: 2026-07-28 has
none); then the same plugin as a
catalog (`serve --catalog`: three tools, search, call_operation, the schema on an argument
error), at both revisions. Needs mcp 2.3.0 or later (the first to speak 2026-07-28). Prints
one line a check and
`mcp-sdk: N passed, M failed` last; exits 1 when any failed.
"""
import asyncio, json, os, sys, tempfile, threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

FILLERS = 23  # with the two real tools: 25 tools, pages of 10, 10 and 5


class Api(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        url = urlsplit(self.path)
        if url.path == "/v1/weather":
            city = parse_qs(url.query).get("q", ["?"])[0]
            status, body = 200, {"city": city, "temp_c": 21.5}
        elif url.path == "/v1/list":
            status, body = 200, [1, 2, 3]
        elif url.path == "/v1/pets/7":
            # Not what the document says: a required field null, another missing, one extra.
            status, body = 200, {"name": None, "extra": 1}
        else:
            status, body = 404, {"error": "not found"}
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


def plugin(base_url):
    endpoints = [
        {"name": "get_weather", "title": "Weather", "path": "/v1/weather",
         "description": "Current weather for a city",
         "output_schema": {"type": "object", "required": ["city", "temp_c"],
                           "properties": {"city": {"type": "string"}, "temp_c": {"type": "number"}}},
         "params": [{"name": "city", "wire_name": "q", "in": "query", "required": True}]},
        {"name": "list_numbers", "path": "/v1/list",
         "output_schema": {"type": "array", "items": {"type": "integer"}}},
    ]
    endpoints += [{"name": "filler_%02d" % i, "path": "/v1/filler/%d" % i} for i in range(FILLERS)]
    return {"name": "sdk_check", "description": "The SDK interop check", "base_url": base_url,
            "endpoints": endpoints}


def document(base_url):
    """An OpenAPI document whose response schema is stricter than the API's answers."""
    pet = {"type": "object", "required": ["name", "tag"], "additionalProperties": False,
           "properties": {"name": {"type": "string"}, "tag": {"type": "string", "enum": ["a"]}}}
    return {"openapi": "3.0.3", "info": {"title": "Pets", "version": "1"},
            "servers": [{"url": base_url + "/v1"}],
            "paths": {"/pets/{id}": {"get": {
                "operationId": "getPet", "summary": "Find a pet",
                "parameters": [{"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}],
                "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": pet}}}}}}}}


def attr(obj, snake, camel):
    """The SDK renamed fields from camelCase (v1) to snake_case (v2)."""
    return getattr(obj, snake) if hasattr(obj, snake) else getattr(obj, camel)


# What each `mode` of the SDK's Client negotiates with httptool.
MODES = {"auto": "2026-07-28", "legacy": "2025-11-25"}


async def run(binary, plugin_path, document_path, mode):
    from mcp import Client, StdioServerParameters

    results = []
    revision = MODES[mode]

    def check(name, ok, detail=""):
        results.append(bool(ok))
        print("%s [%s] %s%s" % ("ok  " if ok else "FAIL", revision, name,
                                (": " + detail) if detail and not ok else ""), flush=True)

    params = StdioServerParameters(command=binary, args=["serve", plugin_path, "--openapi", document_path, "--page-size", "10"])
    async with Client(params, mode=mode, read_timeout_seconds=30) as session:
        info = session.server_info
        version = session.protocol_version
        check("connected at the revision", info is not None and info.name == "httptool" and version == revision,
              "%s %s" % (info, version))
        check("instructions from the plugin description",
              "sdk_check: The SDK interop check" in (session.instructions or ""), repr(session.instructions))

        names, pages, cursor = [], 0, None
        while True:
            page = await session.list_tools(cursor=cursor)
            pages += 1
            names += [t.name for t in page.tools]
            cursor = attr(page, "next_cursor", "nextCursor")
            if not cursor or pages > 10:
                break
        expected = ["get_weather", "list_numbers"] + ["filler_%02d" % i for i in range(FILLERS)] + ["getPet"]
        check("tools/list, every page", names == expected and pages == 3, "%d pages: %s" % (pages, names))

        progress = []

        async def on_progress(done, total, message):
            progress.append(done)

        r = await session.call_tool("get_weather", {"city": "São Paulo"}, progress_callback=on_progress)
        structured = attr(r, "structured_content", "structuredContent")
        text = r.content[0].text if r.content else ""
        check("tools/call reaches the API, structuredContent",
              not attr(r, "is_error", "isError") and structured == {"city": "São Paulo", "temp_c": 21.5}
              and json.loads(text) == structured, str(r)[:300])
        check("progress notifications", progress == [1, 2], repr(progress))

        r = await session.call_tool("list_numbers", {})
        check("an array result is wrapped",
              attr(r, "structured_content", "structuredContent") == {"result": [1, 2, 3]}, str(r)[:300])

        r = await session.call_tool("get_weather", {"ctiy": "Paris"})
        text = r.content[0].text if r.content else ""
        check("isError for a bad argument",
              attr(r, "is_error", "isError") and "did you mean 'city'" in text, str(r)[:300])

        # The SDK validates structuredContent against the imported outputSchema: an answer
        # the document describes wrongly must still pass.
        r = await session.call_tool("getPet", {"id": "7"})
        check("an imported output schema accepts an answer the document describes wrongly",
              not attr(r, "is_error", "isError")
              and attr(r, "structured_content", "structuredContent") == {"name": None, "extra": 1},
              str(r)[:300])

        if mode == "legacy":
            await session.send_ping()
            check("ping", True)
    return results


async def run_catalog(binary, plugin_path, mode):
    """The same plugin served as a catalog (`serve --catalog`): three tools, a search that
    finds the weather tool, a call through call_operation, and an argument error that
    carries the schema."""
    from mcp import Client, StdioServerParameters

    results = []
    revision = MODES[mode]

    def check(name, ok, detail=""):
        results.append(bool(ok))
        print("%s [%s] %s%s" % ("ok  " if ok else "FAIL", revision, name,
                                (": " + detail) if detail and not ok else ""), flush=True)

    params = StdioServerParameters(command=binary, args=["serve", plugin_path, "--catalog"])
    async with Client(params, mode=mode, read_timeout_seconds=30) as session:
        page = await session.list_tools()
        names = [t.name for t in page.tools]
        check("catalog: tools/list shows three tools",
              names == ["search_operations", "describe_operation", "call_operation"], repr(names))
        r = await session.call_tool("search_operations", {"query": "current weather of a city", "limit": 3})
        found = attr(r, "structured_content", "structuredContent") or {}
        first = (found.get("operations") or [{}])[0].get("name")
        check("catalog: search_operations finds the weather tool", first == "get_weather", str(r)[:300])
        r = await session.call_tool("call_operation", {"name": "get_weather", "arguments": {"city": "Oslo"}})
        check("catalog: call_operation reaches the API",
              not attr(r, "is_error", "isError")
              and attr(r, "structured_content", "structuredContent") == {"city": "Oslo", "temp_c": 21.5},
              str(r)[:300])
        r = await session.call_tool("call_operation", {"name": "get_weather", "arguments": {"ctiy": "Oslo"}})
        text = r.content[0].text if r.content else ""
        check("catalog: an argument error carries the schema",
              attr(r, "is_error", "isError") and "follow this JSON Schema" in text, str(r)[:300])
    return results


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else "target/debug/httptool"
    binary = os.path.abspath(binary)
    api = ThreadingHTTPServer(("127.0.0.1", 0), Api)
    threading.Thread(target=api.serve_forever, daemon=True).start()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "plugin.json")
        base = "http://127.0.0.1:%d" % api.server_address[1]
        with open(path, "w") as f:
            json.dump(plugin(base), f)
        doc_path = os.path.join(tmp, "pets.openapi.json")
        with open(doc_path, "w") as f:
            json.dump(document(base), f)
        results = []
        for mode in MODES:
            try:
                results += asyncio.run(run(binary, path, doc_path, mode))
                results += asyncio.run(run_catalog(binary, path, mode))
            except BaseException as e:  # a crash counts as one failure, with its reason
                print("FAIL [%s] the session: %r" % (MODES[mode], e), flush=True)
                results.append(False)
    api.shutdown()
    passed = sum(results)
    failed = len(results) - passed
    print("mcp-sdk: %d passed, %d failed" % (passed, failed), flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
