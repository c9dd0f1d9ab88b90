#!/usr/bin/env python3
"""Interop check: the official MCP Python SDK's Streamable HTTP client, with an access token
from a real authorization server (node-oidc-provider), against `httptool serve --http` as an
OAuth resource server.

usage: python3 tests/mcp_sdk/http_oauth_client.py PATH-TO-HTTPTOOL ISSUER

ISSUER is the provider tests/oauth_mock/oidc_provider.mjs started (.ci/run starts it). Runs
`httptool serve PLUGIN --http 127.0.0.1:0 --introspection-url ISSUER/token/introspection
--authorization-server ISSUER --required-scope tools` (the resource is the URL it prints). Then:
the Protected Resource Metadata named by the 401's WWW-Authenticate; a token asked for with
that resource (RFC 8707) and the SDK's `Client` with it at 2026-07-28 and 2025-11-25, listing
the tools and calling one; the upstream API never seeing the token; a token for another
resource refused with 401 and one without the scope with 403. Prints one line a check and
`mcp-sdk-oauth: N passed, M failed` last; exits 1 when any failed.
"""
import asyncio, base64, json, os, re, subprocess, sys, tempfile, threading, urllib.parse
from http.server import ThreadingHTTPServer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from client import Api, MODES, attr, plugin  # noqa: E402
from http_client import check_factory, raw  # noqa: E402

SEEN = []  # every upstream request's head, to look for the client's token


class RecordingApi(Api):
    def do_GET(self):
        SEEN.append(self.requestline + "\n" + str(self.headers))
        super().do_GET()


def token(issuer, resource, scope):
    body = urllib.parse.urlencode({"grant_type": "client_credentials", "resource": resource,
                                   "scope": scope})
    basic = base64.b64encode(b"agent:agent-secret").decode()
    status, _, answer = raw(issuer + "/token", body=body, headers={
        "Content-Type": "application/x-www-form-urlencoded", "Authorization": "Basic " + basic})
    if status != 200:
        raise RuntimeError("token endpoint: %s %s" % (status, answer[:200]))
    return json.loads(answer)["access_token"]


async def session(url, mode, access_token):
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    results = []
    check = check_factory(results, MODES[mode])
    async with create_mcp_http_client(headers={"Authorization": "Bearer " + access_token}) as http:
        transport = streamable_http_client(url, http_client=http, terminate_on_close=False)
        async with Client(transport, mode=mode, read_timeout_seconds=30) as client:
            check("connected with the token at the revision",
                  client.protocol_version == MODES[mode], str(client.protocol_version))
            tools = await client.list_tools()
            check("tools/list", "get_weather" in [t.name for t in tools.tools])
            r = await client.call_tool("get_weather", {"city": "Lima"})
            check("tools/call reaches the API",
                  not attr(r, "is_error", "isError")
                  and attr(r, "structured_content", "structuredContent") == {"city": "Lima", "temp_c": 21.5},
                  str(r)[:300])
    return results


def main():
    binary, issuer = os.path.abspath(sys.argv[1]), sys.argv[2].rstrip("/")
    api = ThreadingHTTPServer(("127.0.0.1", 0), RecordingApi)
    threading.Thread(target=api.serve_forever, daemon=True).start()
    results = []
    check = check_factory(results, "oauth")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "plugin.json")
        with open(path, "w") as f:
            json.dump(plugin("http://127.0.0.1:%d" % api.server_address[1]), f)
        env = dict(os.environ, HTTPTOOL_INTROSPECTION_CLIENT_ID="mcp-server",
                   HTTPTOOL_INTROSPECTION_CLIENT_SECRET="mcp-server-secret")
        server = subprocess.Popen(
            [binary, "serve", path, "--http", "127.0.0.1:0",
             "--introspection-url", issuer + "/token/introspection",
             "--authorization-server", issuer, "--required-scope", "tools"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, text=True)
        try:
            line = server.stderr.readline()
            marker = "serving MCP at "
            if marker not in line:
                check("the server started", False, line)
            else:
                url = line.split(marker, 1)[1].split(" ", 1)[0]
                status, headers, _ = raw(url, headers={"Content-Type": "application/json"}, body="{}")
                challenge = headers.get("WWW-Authenticate") or ""
                found = re.search(r'resource_metadata="([^"]+)"', challenge)
                check("no token: 401 naming the resource metadata", status == 401 and found, challenge)
                if found:
                    status, _, body = raw(found.group(1), method="GET")
                    meta = json.loads(body) if status == 200 else {}
                    check("the metadata names this resource and the authorization server",
                          meta.get("resource") == url and meta.get("authorization_servers") == [issuer],
                          str(meta))
                access_token = token(issuer, url, "tools")
                for mode in MODES:
                    try:
                        results += asyncio.run(session(url, mode, access_token))
                    except BaseException as e:
                        check("the session", False, repr(e))
                check("the upstream API never saw the token",
                      SEEN and not any(access_token in head for head in SEEN), "%d requests" % len(SEEN))
                discover = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {
                    "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}})
                base = {"Content-Type": "application/json", "Accept": "application/json",
                        "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "server/discover"}
                elsewhere = token(issuer, "http://127.0.0.1:1/mcp", "tools")
                status, headers, _ = raw(url, headers=dict(base, Authorization="Bearer " + elsewhere),
                                         body=discover)
                check("a token for another resource: 401 invalid_token",
                      status == 401 and "invalid_token" in (headers.get("WWW-Authenticate") or ""), str(status))
                read_only = token(issuer, url, "read")
                status, headers, _ = raw(url, headers=dict(base, Authorization="Bearer " + read_only),
                                         body=discover)
                check("a token without the scope: 403 insufficient_scope",
                      status == 403 and "insufficient_scope" in (headers.get("WWW-Authenticate") or ""),
                      str(status))
        finally:
            server.terminate()
            server.wait(timeout=10)
    api.shutdown()
    passed = sum(results)
    failed = len(results) - passed
    print("mcp-sdk-oauth: %d passed, %d failed" % (passed, failed), flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
