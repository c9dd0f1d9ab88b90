#!/usr/bin/env python3
"""Approval check: the official MCP Python SDK's client, with an elicitation callback that
accepts, declines or cancels, against `httptool serve` for a plugin whose DELETE needs the
user's approval (`"confirm": "destructive"`).

usage: python3 tests/mcp_sdk/consent.py PATH-TO-HTTPTOOL [PATH-TO-NGINX]

Over stdio at 2025-11-25 (`elicitation/create` sent mid-call) and at 2026-07-28
(`InputRequiredResult` with a signed `requestState`, the retry carrying the answer), and over
Streamable HTTP at 2025-11-25 (one process: the call's answer is an event stream carrying
`elicitation/create`, the client's answer a POST of its own) and at 2026-07-28 through two `serve --http` processes behind nginx
(round-robin) that share the signing key (`--confirm-key-env`): the retry lands on the other
process and is approved there. Then the same two processes without a shared key, where a
retry that lands on the other process is refused: proof the retries do cross. Each time the
loopback API counts the DELETEs that reach it: one for an accepted call, none otherwise. A
client without an elicitation callback is refused. Prints one line a check and
`mcp-consent: N passed, M failed` last; exits 1 when any failed.
"""
import asyncio, json, os, socket, subprocess, sys, tempfile, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TOKEN = "consent-token-0123456789abcdef"
KEY = "consent-shared-signing-key-0123456789"
deleted = []


class Api(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def reply(self, body):
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_DELETE(self):
        deleted.append((self.path, self.headers.get("X-Copy")))
        self.reply({"deleted": self.path})

    def do_GET(self):
        self.reply({"repo": self.path})

    def log_message(self, *args):
        pass


results = []


def check(revision, name, ok, detail=""):
    results.append(bool(ok))
    print("%s [%s] %s%s" % ("ok  " if ok else "FAIL", revision, name,
                            (": " + detail) if detail and not ok else ""), flush=True)


def is_error(r):
    return bool(getattr(r, "is_error", None) or getattr(r, "isError", False))


def text(r):
    return " ".join(getattr(c, "text", "") for c in r.content)


def callback(answer, seen):
    import mcp_types as types

    async def elicit(context, params):
        seen.append(params.message)
        if answer == "accept":
            return types.ElicitResult(action="accept", content={"approve": True})
        return types.ElicitResult(action=answer)
    return elicit


async def calls(connect, revision, label):
    """Accept, decline and cancel, each on a fresh client; then one without a callback."""
    for answer in ("accept", "decline", "cancel"):
        seen = []
        before = len(deleted)
        async with connect(callback(answer, seen)) as session:
            r = await session.call_tool("deleteRepo", {"id": "repo-%s" % answer})
        sent = len(deleted) - before
        asked = len(seen) == 1 and "DELETE" in seen[0] and "repo-%s" % answer in seen[0]
        check(revision, "%s: the user is asked, with the request shown" % label, asked, repr(seen))
        if answer == "accept":
            check(revision, "%s: accepted, the DELETE is sent once" % label,
                  not is_error(r) and sent == 1, "%s sent=%d" % (text(r), sent))
        else:
            check(revision, "%s: %s, nothing sent, isError" % (label, answer),
                  is_error(r) and "did not approve" in text(r) and sent == 0, "%s sent=%d" % (text(r), sent))
    before = len(deleted)
    async with connect(None) as session:
        r = await session.call_tool("deleteRepo", {"id": "no-callback"})
        g = await session.call_tool("getRepo", {"id": "x"})
    check(revision, "%s: a client that cannot ask is refused" % label,
          is_error(r) and "cannot ask" in text(r) and len(deleted) == before, text(r))
    check(revision, "%s: a GET needs no approval" % label, not is_error(g), text(g))


def stdio(binary, plugin_path, mode):
    from mcp import Client, StdioServerParameters

    def connect(cb):
        params = StdioServerParameters(command=binary, args=["serve", plugin_path])
        return Client(params, mode=mode, read_timeout_seconds=30, elicitation_callback=cb)
    return connect


def http(url, mode="auto"):
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    class Connect:
        def __init__(self, cb):
            self.cb = cb

        async def __aenter__(self):
            self.http = create_mcp_http_client(headers={"Authorization": "Bearer " + TOKEN})
            client = await self.http.__aenter__()
            transport = streamable_http_client(url, http_client=client, terminate_on_close=False)
            self.client = Client(transport, mode=mode, read_timeout_seconds=30, elicitation_callback=self.cb)
            return await self.client.__aenter__()

        async def __aexit__(self, *exc):
            await self.client.__aexit__(*exc)
            await self.http.__aexit__(*exc)
    return Connect


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def replicas(binary, tmp, api_port, nginx, shared_key):
    """Two serve --http processes behind nginx; returns (url, processes)."""
    procs, ports = [], []
    for i in range(2):
        path = os.path.join(tmp, "replica-%d.json" % i)
        with open(path, "w") as f:
            json.dump(plugin(api_port, {"X-Copy": str(i)}), f)
        args = [binary, "serve", path, "--http", "127.0.0.1:0", "--token-env", "CONSENT_TOKEN", "--allow-host", "127.0.0.1"]
        if shared_key:
            args += ["--confirm-key-env", "CONSENT_KEY"]
        p = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             env=dict(os.environ, CONSENT_TOKEN=TOKEN, CONSENT_KEY=KEY), text=True)
        procs.append(p)
        line = p.stderr.readline()
        ports.append(int(line.split("serving MCP at http://127.0.0.1:", 1)[1].split("/", 1)[0]))
    port = free_port()
    conf = os.path.join(tmp, "nginx-%s.conf" % shared_key)
    upstream = "\n".join("    server 127.0.0.1:%d;" % p for p in ports)
    with open(conf, "w") as f:
        f.write("""worker_processes 1;
error_log %s/error.log;
pid %s/nginx-%s.pid;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path %s; proxy_temp_path %s; fastcgi_temp_path %s; uwsgi_temp_path %s; scgi_temp_path %s;
  upstream mcp {
%s
  }
  server {
    listen 127.0.0.1:%d;
    location / {
      proxy_pass http://mcp;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host 127.0.0.1;
      proxy_buffering off;
    }
  }
}
""" % (tmp, tmp, shared_key, tmp, tmp, tmp, tmp, tmp, upstream, port))
    ng = subprocess.Popen([nginx, "-c", conf, "-g", "daemon off;"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    procs.append(ng)
    time.sleep(1)
    return "http://127.0.0.1:%d/mcp" % port, procs


async def crossing(connect, revision):
    """Without a shared key: accepted calls whose retry reaches the other process fail."""
    outcomes = []
    for i in range(4):
        async with connect(callback("accept", [])) as session:
            r = await session.call_tool("deleteRepo", {"id": "cross-%d" % i})
            outcomes.append("ok" if not is_error(r) else ("mismatch" if "does not match" in text(r) else text(r)))
    check(revision, "without a shared key, a retry on the other process is refused (the retries cross)",
          "mismatch" in outcomes and all(o in ("ok", "mismatch") for o in outcomes), repr(outcomes))


def plugin(api_port, headers=None):
    return {"name": "repos", "base_url": "http://127.0.0.1:%d" % api_port, "confirm": "destructive",
            "headers": headers or {},
            "endpoints": [
                {"name": "deleteRepo", "method": "DELETE", "path": "/repos/{id}",
                 "params": [{"name": "id", "in": "path"}]},
                {"name": "getRepo", "path": "/repos/{id}", "params": [{"name": "id", "in": "path"}]}]}


def main():
    binary = os.path.abspath(sys.argv[1])
    nginx = sys.argv[2] if len(sys.argv) > 2 else "nginx"
    api = ThreadingHTTPServer(("127.0.0.1", 0), Api)
    threading.Thread(target=api.serve_forever, daemon=True).start()
    api_port = api.server_address[1]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "repos.json")
        with open(path, "w") as f:
            json.dump(plugin(api_port), f)
        for mode, revision in (("legacy", "2025-11-25"), ("auto", "2026-07-28")):
            try:
                asyncio.run(calls(stdio(binary, path, mode), revision, "stdio"))
            except BaseException as e:
                check(revision, "stdio session", False, repr(e))
        # One process at 2025-11-25: the answer is an event stream with elicitation/create
        # on it, and the client's answer comes back as a POST of its own.
        single = subprocess.Popen([binary, "serve", path, "--http", "127.0.0.1:0", "--token-env", "CONSENT_TOKEN"],
                                  stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                  env=dict(os.environ, CONSENT_TOKEN=TOKEN), text=True)
        try:
            line = single.stderr.readline()
            url = "http://127.0.0.1:%s/mcp" % line.split("serving MCP at http://127.0.0.1:", 1)[1].split("/", 1)[0]
            asyncio.run(calls(http(url, "legacy"), "2025-11-25", "http, event stream"))
        except BaseException as e:
            check("2025-11-25", "http session", False, repr(e))
        finally:
            single.terminate()
            single.wait(timeout=10)
        for shared in (True, False):
            url, procs = replicas(binary, tmp, api_port, nginx, shared)
            try:
                if shared:
                    before = len(deleted)
                    asyncio.run(calls(http(url), "2026-07-28", "http, two replicas, one key"))
                    check("2026-07-28", "http: approved DELETEs went out", len(deleted) > before, repr(deleted[before:]))
                else:
                    asyncio.run(crossing(http(url), "2026-07-28"))
            except BaseException as e:
                check("2026-07-28", "http session (shared key: %s)" % shared, False, repr(e))
            finally:
                for p in procs:
                    p.terminate()
                    p.wait(timeout=10)
    api.shutdown()
    passed = sum(results)
    failed = len(results) - passed
    print("mcp-consent: %d passed, %d failed" % (passed, failed), flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
