// Interop check: the official MCP TypeScript SDK's StreamableHTTPClientTransport against
// `httptool serve --http`.
//
// usage: node tests/mcp_sdk/http_client.mjs NODE_MODULES [PATH-TO-HTTPTOOL]
//
// NODE_MODULES is the folder that holds @modelcontextprotocol/sdk (installed outside the tree).
// Starts a loopback HTTP API of its own, writes a plugin file for it, runs
// `httptool serve PLUGIN --http 127.0.0.1:0 --token-env VAR` (the port is read from its standard
// error) and connects the SDK's Client over StreamableHTTPClientTransport with the bearer token.
// Checks: the handshake (no session id is issued), every tool listed, a call that reaches the API
// (the SDK checks structuredContent against the outputSchema, formats included), isError for a
// bad argument; then that a client without the token is refused. Prints one line a check and
// `mcp-ts-sdk-http: N passed, M failed` last; exits 1 when any failed.
import http from "node:http";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn } from "node:child_process";
import { pathToFileURL } from "node:url";

const modules = process.argv[2];
const binary = path.resolve(process.argv[3] || "target/debug/httptool");
const sdk = (file) => import(pathToFileURL(path.join(modules, "@modelcontextprotocol/sdk/dist/esm", file)).href);
const { Client } = await sdk("client/index.js");
const { StreamableHTTPClientTransport } = await sdk("client/streamableHttp.js");

const TOKEN = "ts-sdk-check-token-0123456789";
const api = http.createServer((req, res) => {
  const url = new URL(req.url, "http://x");
  let status = 200;
  let body;
  if (url.pathname === "/v1/weather") {
    body = { city: url.searchParams.get("q"), temp_c: 21.5, updated: "2026-05-01T10:00:00Z" };
  } else {
    status = 404;
    body = { error: "not found" };
  }
  const data = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(data) });
  res.end(data);
});
await new Promise((resolve) => api.listen(0, "127.0.0.1", resolve));
const base = `http://127.0.0.1:${api.address().port}`;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "httptool-mcp-ts-http-"));
const pluginPath = path.join(dir, "plugin.json");
fs.writeFileSync(pluginPath, JSON.stringify({
  name: "ts_http_check", description: "The TS SDK HTTP check", base_url: base,
  endpoints: [{
    name: "get_weather", title: "Weather", path: "/v1/weather", description: "Current weather for a city",
    output_schema: {
      type: "object", required: ["city", "temp_c"],
      properties: { city: { type: "string" }, temp_c: { type: "number" }, updated: { type: "string", format: "date-time" } },
    },
    params: [{ name: "city", wire_name: "q", in: "query", required: true }],
  }, { name: "other", path: "/v1/other" }],
}));

let passed = 0;
let failed = 0;
function check(name, ok, detail) {
  if (ok) passed++; else failed++;
  console.log(`${ok ? "ok  " : "FAIL"} [http] ${name}${!ok && detail ? ": " + detail : ""}`);
}

const server = spawn(binary, ["serve", pluginPath, "--http", "127.0.0.1:0", "--token-env", "HTTPTOOL_TS_TOKEN"], {
  env: { ...process.env, HTTPTOOL_TS_TOKEN: TOKEN },
  stdio: ["ignore", "ignore", "pipe"],
});
const url = await new Promise((resolve, reject) => {
  let seen = "";
  server.stderr.on("data", (chunk) => {
    seen += chunk;
    // A chunk may end mid-line: the URL is read once its line is whole.
    const match = seen.match(/serving MCP at (\S+)[^\n]*\n/);
    if (match) resolve(match[1]);
  });
  server.on("exit", () => reject(new Error(`the server stopped: ${seen}`)));
});

async function main() {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
  });
  const client = new Client({ name: "httptool-ts-http-check", version: "1" });
  await client.connect(transport);
  const version = client.getServerVersion();
  check("initialize over HTTP", version && version.name === "httptool", JSON.stringify(version));
  check("no session id issued", !transport.sessionId, String(transport.sessionId));

  const page = await client.listTools();
  const names = page.tools.map((t) => t.name);
  check("tools/list, every tool", JSON.stringify(names) === JSON.stringify(["get_weather", "other"]), String(names));

  let r = await client.callTool({ name: "get_weather", arguments: { city: "São Paulo" } });
  check("tools/call reaches the API, structuredContent checked against outputSchema",
    !r.isError && r.structuredContent && r.structuredContent.city === "São Paulo", JSON.stringify(r).slice(0, 300));

  r = await client.callTool({ name: "get_weather", arguments: { ctiy: "Paris" } });
  const text = r.content && r.content[0] ? r.content[0].text : "";
  check("isError for a bad argument", r.isError && text.includes("did you mean 'city'"), JSON.stringify(r).slice(0, 300));
  await client.close();

  const anonymous = new Client({ name: "httptool-ts-http-check", version: "1" });
  try {
    await anonymous.connect(new StreamableHTTPClientTransport(new URL(url)));
    check("a client without the token is refused", false, "it connected");
  } catch (e) {
    check("a client without the token is refused", /401|Unauthorized|needs a bearer token/i.test(String(e)), String(e).slice(0, 300));
  }
}

try {
  await main();
} catch (e) {
  check("the session", false, String(e && e.stack ? e.stack : e));
}
server.kill();
api.close();
fs.rmSync(dir, { recursive: true, force: true });
console.log(`mcp-ts-sdk-http: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
