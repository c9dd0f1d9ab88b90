// Interop check: the official MCP TypeScript SDK's stdio client against `httptool serve`.
//
// usage: node tests/mcp_sdk/client.mjs NODE_MODULES [PATH-TO-HTTPTOOL]
//
// NODE_MODULES is the folder that holds @modelcontextprotocol/sdk (installed outside the tree).
// Starts a loopback HTTP API of its own, writes a plugin file for it (a weather endpoint with an
// output schema, a list endpoint, filler tools) and an OpenAPI document, and runs
// `httptool serve PLUGIN --openapi DOC --page-size 10` under the SDK's Client, which checks
// every structuredContent against its tool's outputSchema (formats included). Checks: the
// handshake, every page of tools/list, calls that reach the API, isError for a bad argument,
// the imported tool; then `serve --catalog` with a search and a call. Prints one line a check
// and `mcp-ts-sdk: N passed, M failed` last; exits 1 when any failed.
import http from "node:http";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

const modules = process.argv[2];
const binary = path.resolve(process.argv[3] || "target/debug/httptool");
const sdk = (file) => import(pathToFileURL(path.join(modules, "@modelcontextprotocol/sdk/dist/esm", file)).href);
const { Client } = await sdk("client/index.js");
const { StdioClientTransport } = await sdk("client/stdio.js");

const FILLERS = 23;
const api = http.createServer((req, res) => {
  const url = new URL(req.url, "http://x");
  let status = 200;
  let body;
  if (url.pathname === "/v1/weather") {
    body = { city: url.searchParams.get("q"), temp_c: 21.5, updated: "2026-05-01T10:00:00Z" };
  } else if (url.pathname === "/v1/list") {
    body = [1, 2, 3];
  } else if (url.pathname === "/v1/pets/7") {
    body = { id: "7", name: "Rex" };
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

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "httptool-mcp-ts-"));
const endpoints = [
  {
    name: "get_weather", title: "Weather", path: "/v1/weather", description: "Current weather for a city",
    output_schema: {
      type: "object", required: ["city", "temp_c"],
      properties: { city: { type: "string" }, temp_c: { type: "number" }, updated: { type: "string", format: "date-time" } },
    },
    params: [{ name: "city", wire_name: "q", in: "query", required: true }],
  },
  { name: "list_numbers", path: "/v1/list", output_schema: { type: "array", items: { type: "integer" } } },
];
for (let i = 0; i < FILLERS; i++) endpoints.push({ name: `filler_${String(i).padStart(2, "0")}`, path: `/v1/filler/${i}` });
const pluginPath = path.join(dir, "plugin.json");
fs.writeFileSync(pluginPath, JSON.stringify({ name: "ts_check", description: "The TS SDK interop check", base_url: base, endpoints }));
const documentPath = path.join(dir, "pets.openapi.json");
fs.writeFileSync(documentPath, JSON.stringify({
  openapi: "3.0.3", info: { title: "Pets", version: "1" }, servers: [{ url: `${base}/v1` }],
  paths: { "/pets/{id}": { get: {
    operationId: "getPet", summary: "Find a pet",
    parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
    responses: { 200: { description: "ok", content: { "application/json": { schema: {
      type: "object", required: ["id", "name"],
      properties: { id: { type: "string" }, name: { type: "string" } },
    } } } } },
  } } },
}));

let passed = 0;
let failed = 0;
function check(name, ok, detail) {
  if (ok) passed++; else failed++;
  console.log(`${ok ? "ok  " : "FAIL"} ${name}${!ok && detail ? ": " + detail : ""}`);
}

async function connect(args) {
  const client = new Client({ name: "httptool-ts-check", version: "1" });
  await client.connect(new StdioClientTransport({ command: binary, args, stderr: "inherit" }));
  return client;
}

async function allTools(client) {
  const names = [];
  let cursor;
  let pages = 0;
  do {
    const page = await client.listTools(cursor ? { cursor } : {});
    pages++;
    names.push(...page.tools.map((t) => t.name));
    cursor = page.nextCursor;
  } while (cursor && pages < 20);
  return { names, pages };
}

async function main() {
  const client = await connect(["serve", pluginPath, "--openapi", documentPath, "--page-size", "10"]);
  const version = client.getServerVersion();
  check("initialize", version && version.name === "httptool", JSON.stringify(version));

  const { names, pages } = await allTools(client);
  const expected = ["get_weather", "list_numbers"];
  for (let i = 0; i < FILLERS; i++) expected.push(`filler_${String(i).padStart(2, "0")}`);
  expected.push("getPet");
  check("tools/list, every page", JSON.stringify(names) === JSON.stringify(expected) && pages === 3, `${pages} pages: ${names}`);

  let r = await client.callTool({ name: "get_weather", arguments: { city: "São Paulo" } });
  check("tools/call reaches the API, structuredContent checked against outputSchema",
    !r.isError && r.structuredContent && r.structuredContent.city === "São Paulo", JSON.stringify(r).slice(0, 300));

  r = await client.callTool({ name: "list_numbers", arguments: {} });
  check("an array result is wrapped",
    JSON.stringify(r.structuredContent) === JSON.stringify({ result: [1, 2, 3] }), JSON.stringify(r).slice(0, 300));

  r = await client.callTool({ name: "get_weather", arguments: { ctiy: "Paris" } });
  const text = r.content && r.content[0] ? r.content[0].text : "";
  check("isError for a bad argument", r.isError && text.includes("did you mean 'city'"), JSON.stringify(r).slice(0, 300));

  r = await client.callTool({ name: "getPet", arguments: { id: "7" } });
  check("an imported tool with an output schema", !r.isError && r.structuredContent && r.structuredContent.name === "Rex",
    JSON.stringify(r).slice(0, 300));
  await client.close();

  const catalog = await connect(["serve", pluginPath, "--catalog"]);
  const listed = await allTools(catalog);
  check("catalog: tools/list shows three tools",
    JSON.stringify(listed.names) === JSON.stringify(["search_operations", "describe_operation", "call_operation"]),
    String(listed.names));
  r = await catalog.callTool({ name: "search_operations", arguments: { query: "current weather of a city", limit: 3 } });
  const found = (r.structuredContent && r.structuredContent.operations) || [];
  check("catalog: search_operations finds the weather tool", found.length > 0 && found[0].name === "get_weather",
    JSON.stringify(r).slice(0, 300));
  r = await catalog.callTool({ name: "call_operation", arguments: { name: "get_weather", arguments: { city: "Oslo" } } });
  check("catalog: call_operation reaches the API", !r.isError && JSON.stringify(r).includes("Oslo"), JSON.stringify(r).slice(0, 300));
  await catalog.close();
}

try {
  await main();
} catch (e) {
  check("the session", false, String(e && e.stack ? e.stack : e));
}
api.close();
fs.rmSync(dir, { recursive: true, force: true });
console.log(`mcp-ts-sdk: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
