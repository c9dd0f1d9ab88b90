// Checks MCP structured results with Ajv, configured as the official TypeScript SDK's client
// configures it (the draft-07 `Ajv` class, `strict: false`, formats from ajv-formats asserted).
//
// usage: node tests/mcp_structured_results.cjs NODE_MODULES < cases.json
//
// Reads a JSON array of {"tool", "schema", "instance"} on stdin (written by the ignored test in
// tests/mcp_structured_results.rs). A control case first proves formats are asserted. Prints
// one line a failure and `ajv: checked N, failed: M` last; exits 1 when any failed.
"use strict";
const path = require("path");
const modules = process.argv[2];
const Ajv = require(path.join(modules, "ajv")).default;
const addFormats = require(path.join(modules, "ajv-formats")).default;

const ajv = new Ajv({ strict: false, validateFormats: true, validateSchema: false, allErrors: true });
addFormats(ajv);

const control = ajv.compile({ type: "object", properties: { at: { format: "date-time" } } });
if (control({ at: "2024-05-01T10:00:00" })) {
  console.log("formats are not asserted");
  process.exit(1);
}
const cases = JSON.parse(require("fs").readFileSync(0, "utf8"));
let failed = 0;
for (const c of cases) {
  const validate = ajv.compile(c.schema);
  if (!validate(c.instance)) {
    failed += 1;
    const e = validate.errors[0];
    console.log(`${c.tool} at ${e.instancePath || "/"}: ${e.message}`);
  }
}
console.log(`ajv: checked ${cases.length}, failed: ${failed}`);
process.exit(failed ? 1 : 0);
