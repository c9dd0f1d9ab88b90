#!/usr/bin/env python3
"""Interop check: the official MCP Python SDK's Streamable HTTP client against
`httptool serve --http`.

usage: python3 tests/mcp_sdk/http_client.py [PATH-TO-HTTPTOOL]   (default target/debug/httptool)

Starts the loopback API of tests/mcp_sdk/client.py, writes the same plugin file and OpenAPI
document, and runs one `httptool serve PLUGIN --openapi DOC --http 127.0.0.1:0 --token-env VAR`
(the port it chose is read from its standard error). Then the SDK's `Client` over
`streamable_http_client`, with the bearer token, at revision 2026-07-28 (`mode="auto"`:
server/discover, no handshake) and at 2025-11-25 (`mode="legacy"`: initialize, and no
Mcp-Session-Id from the server), checks: the revision and the server's identity, every tool
listed, a call that reaches the API with its structuredContent (validated by the SDK against
the outputSchema), progress notifications (sent in a text/event-stream answer), isError for a
bad argument, and the imported document's tool. Then what must be refused: the SDK without a
token (401), a wrong token (401), a foreign Origin and a foreign Host (403), GET on the endpoint
(405), and the health check answering without a token. Prints one line a check and
`mcp-sdk-http: N passed, M failed` last; exits 1 when any failed.
"""
import asyncio, json, os, subprocess, sys, tempfile, threading, urllib.request, urllib.error
from http.server import ThreadingHTTPServer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from client import Api, FILLERS, MODES, attr, document, plugin  # noqa: E402

TOKEN = "sdk-check-token-0123456789abcdef"


def check_factory(results, revision):
    def check(name, ok, detail=""):
        results.append(bool(ok))
        print("%s [%s] %s%s" % ("ok  " if ok else "FAIL", revision, name,
                                (": " + detail) if detail and not ok else ""), flush=True)
    return check


async def run(url, mode):
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    results = []
    revision = MODES[mode]
    check = check_factory(results, revision)
    async with create_mcp_http_client(headers={"Authorization": "Bearer " + TOKEN}) as http:
        transport = streamable_http_client(url, http_client=http, terminate_on_close=False)
        async with Client(transport, mode=mode, read_timeout_seconds=30) as session:
            info = session.server_info
            version = session.protocol_version
            check("connected over HTTP at the revision",
                  info is not None and info.name == "httptool" and version == revision,
                  "%s %s" % (info, version))
            names, pages, cursor = [], 0, None
            while True:
                page = await session.list_tools(cursor=cursor)
                pages += 1
                names += [t.name for t in page.tools]
                cursor = attr(page, "next_cursor", "nextCursor")
                if not cursor or pages > 10:
                    break
            expected = (["get_weather", "list_numbers"] + ["filler_%02d" % i for i in range(FILLERS)]
                        + ["getPet"])
            check("tools/list, every tool on one page", names == expected and pages == 1,
                  "%d pages: %s" % (pages, names))

            progress = []

            async def on_progress(done, total, message):
                progress.append(done)

            r = await session.call_tool("get_weather", {"city": "São Paulo"}, progress_callback=on_progress)
            structured = attr(r, "structured_content", "structuredContent")
            check("tools/call reaches the API, structuredContent",
                  not attr(r, "is_error", "isError") and structured == {"city": "São Paulo", "temp_c": 21.5},
                  str(r)[:300])
            check("progress notifications in an event stream", progress == [1, 2], repr(progress))

            r = await session.call_tool("get_weather", {"ctiy": "Paris"})
            text = r.content[0].text if r.content else ""
            check("isError for a bad argument",
                  attr(r, "is_error", "isError") and "did you mean 'city'" in text, str(r)[:300])

            r = await session.call_tool("getPet", {"id": "7"})
            check("an imported document's tool",
                  not attr(r, "is_error", "isError")
                  and attr(r, "structured_content", "structuredContent") == {"name": None, "extra": 1},
                  str(r)[:300])
    return results


async def refused_without_token(url):
    from mcp import Client

    results = []
    check = check_factory(results, "http")
    try:
        async with Client(url, mode="auto", read_timeout_seconds=10) as session:
            await session.list_tools()
        check("the SDK without a token is refused", False, "it connected")
    except Exception:  # the SDK reports the 401 as its own error (or a group of them)
        status, headers, _ = raw(url, headers={"Content-Type": "application/json"}, body="{}")
        check("the SDK without a token is refused (401, WWW-Authenticate: Bearer)",
              status == 401 and (headers.get("WWW-Authenticate") or "").startswith("Bearer"), str(status))
    return results


def raw(url, method="POST", headers=None, body=None):
    """One plain request: (status, headers, body)."""
    data = body.encode() if isinstance(body, str) else body
    request = urllib.request.Request(url, data=data, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


def refusals(url, port):
    results = []
    check = check_factory(results, "http")
    discover = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "server/discover",
                           "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}})
    base = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
            "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "server/discover"}
    status, headers, _ = raw(url, headers=dict(base, Authorization="Bearer wrong"), body=discover)
    check("a wrong token: 401 with WWW-Authenticate",
          status == 401 and "invalid_token" in (headers.get("WWW-Authenticate") or ""), str(status))
    status, _, _ = raw(url, headers=dict(base, Authorization="Bearer " + TOKEN, Origin="http://evil.example"),
                       body=discover)
    check("a foreign Origin: 403", status == 403, str(status))
    status, _, _ = raw(url, headers=dict(base, Authorization="Bearer " + TOKEN, Host="evil.example:%d" % port),
                       body=discover)
    check("a foreign Host (DNS rebinding): 403", status == 403, str(status))
    status, _, body = raw(url, headers=dict(base, Authorization="Bearer " + TOKEN,
                                            **{"Mcp-Method": "tools/list"}), body=discover)
    check("Mcp-Method differing from the body: 400, HeaderMismatch",
          status == 400 and json.loads(body)["error"]["code"] == -32020, "%s %s" % (status, body[:200]))
    status, headers, _ = raw(url, method="GET", headers={"Authorization": "Bearer " + TOKEN})
    check("GET on the endpoint: 405", status == 405 and headers.get("Allow") == "POST", str(status))
    status, _, body = raw(url.replace("/mcp", "/healthz"), method="GET")
    check("the health check answers without a token", status == 200 and body == b"ok\n", str(status))
    return results


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else "target/debug/httptool"
    binary = os.path.abspath(binary)
    api = ThreadingHTTPServer(("127.0.0.1", 0), Api)
    threading.Thread(target=api.serve_forever, daemon=True).start()
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "plugin.json")
        base = "http://127.0.0.1:%d" % api.server_address[1]
        with open(path, "w") as f:
            json.dump(plugin(base), f)
        doc_path = os.path.join(tmp, "pets.openapi.json")
        with open(doc_path, "w") as f:
            json.dump(document(base), f)
        env = dict(os.environ, HTTPTOOL_SDK_TOKEN=TOKEN)
        server = subprocess.Popen(
            [binary, "serve", path, "--openapi", doc_path, "--http", "127.0.0.1:0",
             "--token-env", "HTTPTOOL_SDK_TOKEN"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, text=True)
        try:
            line = server.stderr.readline()
            marker = "serving MCP at "
            if marker not in line:
                print("FAIL the server did not start: %r" % line, flush=True)
                results.append(False)
            else:
                url = line.split(marker, 1)[1].split(" ", 1)[0]
                port = int(url.split(":")[2].split("/")[0])
                for mode in MODES:
                    try:
                        results += asyncio.run(run(url, mode))
                    except BaseException as e:  # a crash counts as one failure, with its reason
                        print("FAIL [%s] the session: %r" % (MODES[mode], e), flush=True)
                        results.append(False)
                results += asyncio.run(refused_without_token(url))
                results += refusals(url, port)
        finally:
            server.terminate()
            server.wait(timeout=10)
    api.shutdown()
    passed = sum(results)
    failed = len(results) - passed
    print("mcp-sdk-http: %d passed, %d failed" % (passed, failed), flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
