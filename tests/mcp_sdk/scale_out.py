#!/usr/bin/env python3
"""Scale-out check: three `httptool serve --http` processes behind nginx (round-robin, no
stickiness) serve one client of the official MCP Python SDK, at revision 2026-07-28 and at
2025-11-25.

usage: python3 tests/mcp_sdk/scale_out.py PATH-TO-HTTPTOOL [PATH-TO-NGINX]

Each process serves the same tools from its own plugin file, which differs only in a static
header (`X-Copy: N`) sent with every call to the loopback API; the API records which copy made
each call. Checks, at each revision: the session works through nginx end to end, every call
succeeds, and the calls landed on all three processes. Prints one line a check and
`mcp-scale-out: N passed, M failed` last; exits 1 when any failed.
"""
import asyncio, json, os, subprocess, sys, tempfile, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TOKEN = "scale-out-token-0123456789abcdef"
COPIES = 3
CALLS = 9
seen = []


class Api(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        seen.append(self.headers.get("X-Copy"))
        data = json.dumps({"city": "Oslo", "temp_c": 4}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


def check_factory(results, revision):
    def check(name, ok, detail=""):
        results.append(bool(ok))
        print("%s [%s] %s%s" % ("ok  " if ok else "FAIL", revision, name,
                                (": " + detail) if detail and not ok else ""), flush=True)
    return check


async def run(url, mode, revision):
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    results = []
    check = check_factory(results, revision)
    del seen[:]
    async with create_mcp_http_client(headers={"Authorization": "Bearer " + TOKEN}) as http:
        transport = streamable_http_client(url, http_client=http, terminate_on_close=False)
        async with Client(transport, mode=mode, read_timeout_seconds=30) as session:
            check("connected through nginx", session.protocol_version == revision, str(session.protocol_version))
            tools = await session.list_tools()
            check("tools/list", [t.name for t in tools.tools] == ["get_weather"], str(tools)[:200])
            ok = 0
            for _ in range(CALLS):
                r = await session.call_tool("get_weather", {})
                structured = getattr(r, "structured_content", None) or getattr(r, "structuredContent", None)
                ok += (not (getattr(r, "is_error", None) or getattr(r, "isError", False))) and structured == {"city": "Oslo", "temp_c": 4}
            check("every call succeeds", ok == CALLS, "%d of %d" % (ok, CALLS))
    copies = sorted(set(seen))
    check("the calls landed on every process", copies == [str(i) for i in range(COPIES)], repr(seen))
    return results


def main():
    binary = os.path.abspath(sys.argv[1])
    nginx = sys.argv[2] if len(sys.argv) > 2 else "nginx"
    api = ThreadingHTTPServer(("127.0.0.1", 0), Api)
    threading.Thread(target=api.serve_forever, daemon=True).start()
    results = []
    procs = []
    with tempfile.TemporaryDirectory() as tmp:
        ports = []
        for i in range(COPIES):
            path = os.path.join(tmp, "plugin-%d.json" % i)
            with open(path, "w") as f:
                json.dump({"name": "weather", "base_url": "http://127.0.0.1:%d" % api.server_address[1],
                           "headers": {"X-Copy": str(i)},
                           "endpoints": [{"name": "get_weather", "path": "/v1/weather",
                                          "output_schema": {"type": "object"}}]}, f)
            p = subprocess.Popen([binary, "serve", path, "--http", "127.0.0.1:0", "--token-env", "SCALE_TOKEN",
                                  "--allow-host", "mcp"],
                                 stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                 env=dict(os.environ, SCALE_TOKEN=TOKEN), text=True)
            procs.append(p)
            line = p.stderr.readline()
            ports.append(int(line.split("serving MCP at http://127.0.0.1:", 1)[1].split("/", 1)[0]))
        upstream = "\n".join("    server 127.0.0.1:%d;" % port for port in ports)
        conf = os.path.join(tmp, "nginx.conf")
        with open(conf, "w") as f:
            f.write("""worker_processes 1;
error_log %s/error.log;
pid %s/nginx.pid;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path %s; proxy_temp_path %s; fastcgi_temp_path %s; uwsgi_temp_path %s; scgi_temp_path %s;
  upstream mcp {
%s
    keepalive 8;
  }
  server {
    listen 127.0.0.1:0;
    location / {
      proxy_pass http://mcp;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_buffering off;
    }
  }
}
""" % ((tmp,) * 7 + (upstream,)))
        # nginx cannot listen on port 0 and tell which it got: take a free port first.
        import socket
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        s.close()
        with open(conf) as f:
            text = f.read().replace("listen 127.0.0.1:0;", "listen 127.0.0.1:%d;" % port)
        with open(conf, "w") as f:
            f.write(text)
        ng = subprocess.Popen([nginx, "-c", conf, "-g", "daemon off;"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE)
        procs.append(ng)
        time.sleep(1)
        url = "http://127.0.0.1:%d/mcp" % port
        try:
            for mode, revision in (("auto", "2026-07-28"), ("legacy", "2025-11-25")):
                try:
                    results += asyncio.run(run(url, mode, revision))
                except BaseException as e:
                    print("FAIL [%s] the session: %r" % (revision, e), flush=True)
                    results.append(False)
        finally:
            for p in procs:
                p.terminate()
                p.wait(timeout=10)
    api.shutdown()
    passed = sum(results)
    failed = len(results) - passed
    print("mcp-scale-out: %d passed, %d failed" % (passed, failed), flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
