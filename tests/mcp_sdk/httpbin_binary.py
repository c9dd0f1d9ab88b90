#!/usr/bin/env python3
"""Binary answers of a real httpbin through `httptool serve` to the official MCP Python SDK.

usage: python3 tests/mcp_sdk/httpbin_binary.py PATH-TO-HTTPTOOL HTTPBIN-URL

Writes a plugin file for httpbin (`/image/png`, `/image/jpeg`, `/image/webp`, `/bytes/{n}`,
`/links/{n}/{offset}`, with `max_attachment_bytes` 50,000), serves it with
`httptool serve` under the SDK's `Client` at revision 2025-11-25, and checks: each image
arrives as image content of its media type whose bytes equal what httpbin sends for it
(fetched directly); `/bytes/1000?seed=1` as an embedded resource with httpbin's bytes;
`/bytes/60000` as a text summary naming the cap (over max_attachment_bytes); `/links/10/0`
as its HTML text; and `httptool import openapi` of httpbin's own document (`/spec.json`, or
the same routes described as it does when httpbin serves none) gives `/links` no pagination. Prints one line a check and `httpbin-binary: N passed, M
failed` last; exits 1 when any failed.
"""
import asyncio, base64, json, os, subprocess, sys, tempfile, urllib.request


def attr(obj, snake, camel):
    """The SDK renamed fields from camelCase (v1) to snake_case (v2)."""
    return getattr(obj, snake) if hasattr(obj, snake) else getattr(obj, camel)


def fetch(url):
    with urllib.request.urlopen(url, timeout=30) as answer:
        return answer.read()


def plugin(base):
    endpoints = [{"name": "image_%s" % kind, "path": "/image/%s" % kind} for kind in ("png", "jpeg", "webp")]
    endpoints += [
        {"name": "bytes", "path": "/bytes/{n}",
         "params": [{"name": "n", "in": "path", "type": "integer", "required": True},
                    {"name": "seed", "in": "query", "type": "integer"}]},
        {"name": "links", "path": "/links/{n}/{offset}",
         "params": [{"name": "n", "in": "path", "type": "integer", "required": True},
                    {"name": "offset", "in": "path", "type": "integer", "required": True}]},
    ]
    return {"name": "httpbin", "base_url": base, "max_attachment_bytes": 50000, "endpoints": endpoints}


async def run(binary, plugin_path, base):
    from mcp import Client, StdioServerParameters

    results = []

    def check(name, ok, detail=""):
        results.append(bool(ok))
        print("%s %s%s" % ("ok  " if ok else "FAIL", name, (": " + detail) if detail and not ok else ""), flush=True)

    params = StdioServerParameters(command=binary, args=["serve", plugin_path])
    async with Client(params, mode="legacy", read_timeout_seconds=30) as session:
        for kind in ("png", "jpeg", "webp"):
            r = await session.call_tool("image_%s" % kind, {})
            images = [c for c in r.content if c.type == "image"]
            expected = fetch("%s/image/%s" % (base, kind))
            ok = (not attr(r, "is_error", "isError") and len(images) == 1
                  and attr(images[0], "mime_type", "mimeType") == "image/%s" % kind
                  and base64.b64decode(images[0].data) == expected)
            check("/image/%s is image content with httpbin's bytes (%d)" % (kind, len(expected)), ok, str(r)[:300])

        r = await session.call_tool("bytes", {"n": 1000, "seed": 1})
        resources = [c for c in r.content if c.type == "resource"]
        expected = fetch("%s/bytes/1000?seed=1" % base)
        ok = (len(resources) == 1 and base64.b64decode(resources[0].resource.blob) == expected
              and attr(resources[0].resource, "mime_type", "mimeType") == "application/octet-stream")
        check("/bytes/1000 is an embedded resource with httpbin's bytes", ok, str(r)[:300])

        r = await session.call_tool("bytes", {"n": 60000})
        text = r.content[0].text if r.content else ""
        ok = (len(r.content) == 1 and not attr(r, "is_error", "isError")
              and text.startswith("binary response (application/octet-stream, 60000 bytes, SHA-256 ")
              and "max_attachment_bytes (50000 bytes)" in text)
        check("/bytes/60000 over the cap is a summary", ok, str(r)[:300])

        r = await session.call_tool("links", {"n": 10, "offset": 0})
        text = r.content[0].text if r.content else ""
        check("/links/10/0 is its HTML", len(r.content) == 1 and "<a href=" in text and "Links" in text, str(r)[:300])
    return results


def httpbin_document():
    """httpbin's own OpenAPI description of the routes checked (its `/spec.json`, served when
    flasgger is installed, says the same): `/links/{n}/{offset}` has an `offset`, and is no
    list on pages."""
    path = lambda name, schema: {"name": name, "in": "path", "required": True, "schema": schema}
    html = {"200": {"description": "HTML links.", "content": {"text/html": {}}}}
    octets = {"200": {"description": "Bytes.", "content": {"application/octet-stream": {}}}}
    return {"openapi": "3.0.0", "info": {"title": "httpbin.org", "version": "0.9.2"},
            "paths": {
                "/links/{n}/{offset}": {"get": {"operationId": "links", "summary": "Generate a page containing n links to other pages which do the same.",
                                                "parameters": [path("n", {"type": "integer"}), path("offset", {"type": "integer"})],
                                                "responses": html}},
                "/bytes/{n}": {"get": {"operationId": "bytes", "parameters": [path("n", {"type": "integer"})],
                                       "responses": octets}},
                "/image/png": {"get": {"operationId": "image_png", "responses": {"200": {"description": "A PNG image.", "content": {"image/png": {}}}}}},
            }}


def imported_links_have_no_pagination(binary, base, tmp):
    path = os.path.join(tmp, "httpbin.openapi.json")
    try:
        document = json.loads(fetch(base + "/spec.json"))
    except Exception:  # httpbin without flasgger serves no document
        document = httpbin_document()
    with open(path, "w") as f:
        json.dump(document, f)
    out = subprocess.run([binary, "import", "openapi", path, "--base-url", base],
                         capture_output=True, timeout=60, check=True)
    endpoints = json.loads(out.stdout)["endpoints"]
    links = [e for e in endpoints if e["path"].startswith("/links")]
    paged = [e["name"] for e in endpoints if "pagination" in e]
    ok = bool(links) and not paged
    print("%s the imported /links is no paged list%s" % ("ok  " if ok else "FAIL", "" if ok else ": %r" % paged), flush=True)
    return [ok]


def main():
    binary = os.path.abspath(sys.argv[1])
    base = sys.argv[2].rstrip("/")
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "plugin.json")
        with open(path, "w") as f:
            json.dump(plugin(base), f)
        try:
            results += asyncio.run(run(binary, path, base))
            results += imported_links_have_no_pagination(binary, base, tmp)
        except BaseException as e:  # a crash counts as one failure, with its reason
            print("FAIL the session: %r" % (e,), flush=True)
            results.append(False)
    passed = sum(results)
    print("httpbin-binary: %d passed, %d failed" % (passed, len(results) - passed), flush=True)
    sys.exit(0 if passed == len(results) else 1)


if __name__ == "__main__":
    main()
