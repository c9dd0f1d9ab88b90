#!/usr/bin/env python3
"""Checks MCP structured results with a real JSON Schema validator.

Reads a JSON array of {"tool", "schema", "instance"} on stdin (written by the ignored test in
tests/mcp_structured_results.rs) and validates each instance against its schema with
jsonschema's Draft 2020-12 validator, formats asserted, as the TypeScript SDK's client asserts
them. A control case first proves formats are asserted here: without it a validator that
ignores them would pass everything. Prints one line a failure and
`jsonschema: checked N, failed: M` last; exits 1 when any failed.
"""
import json
import sys

from jsonschema import Draft202012Validator


def validator(schema):
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)


def main():
    control = validator({"type": "object", "properties": {"at": {"format": "date-time"}}})
    if control.is_valid({"at": "2024-05-01T10:00:00"}):
        print("formats are not asserted: install jsonschema[format-nongpl]")
        return 1
    cases = json.load(sys.stdin)
    failed = 0
    for case in cases:
        errors = sorted(validator(case["schema"]).iter_errors(case["instance"]), key=str)
        if errors:
            failed += 1
            error = errors[0]
            print("%s at %s: %s" % (case["tool"], error.json_path, error.message[:300]))
    print("jsonschema: checked %d, failed: %d" % (len(cases), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
