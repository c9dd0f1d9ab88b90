//! OpenAPI import of a generated document shaped like a large public API: at least 1,200
//! operations and 13 MB, with shared components, nested `$ref`s, enums and long
//! descriptions. Prints the parse time, the import time (median of several runs), the import's
//! throughput, the same import without output schemas side by side, and its peak memory
//! beside the document's size.
//!
//! `cargo bench --bench openapi` runs it; `-- --write PATH` also writes the document (for
//! `../shared/peers/openapi/run.sh`, which measures FastMCP on the same document). Peak
//! memory is read from Linux's `/proc/self/status` (`VmHWM`, reset through
//! `/proc/self/clear_refs`), so it is printed only there.

use std::time::{Duration, Instant};

use httptool::json::{Json, Map, ParseOptions};
use httptool::openapi::{self, ImportOptions};

/// Components, paths (five operations each) and the size aimed at.
const SCHEMAS: usize = 2000;
const TIERS: usize = 4;
const PATHS: usize = 250;
const TARGET_BYTES: usize = 13 * 1024 * 1024;

fn main() {
    let write = std::env::args().skip_while(|a| a != "--write").nth(1);
    let text = document(TARGET_BYTES);
    if let Some(path) = write {
        std::fs::write(&path, &text).expect("the document is written");
        println!("wrote {} ({} bytes)", path, text.len());
    }
    let started = Instant::now();
    let doc = ParseOptions::new()
        .parse(&text)
        .expect("the generated document parses");
    let parse = started.elapsed();
    let options = ImportOptions::new().include_deprecated(true);
    reset_peak();
    let before = rss_kib();
    let first = openapi::import_with(&doc, &options).expect("the generated document imports");
    let peak = peak_kib();
    let tools = first.tools().len();
    let schema_bytes: usize = first.tools().iter().map(|t| t.schema_bytes).sum();
    drop(first);
    let mut times: Vec<Duration> = (0..5)
        .map(|_| {
            let started = Instant::now();
            let import = openapi::import_with(&doc, &options).expect("imports");
            let elapsed = started.elapsed();
            drop(import);
            elapsed
        })
        .collect();
    times.sort();
    let median = times[times.len() / 2];
    let mb = text.len() as f64 / 1e6;
    println!(
        "openapi/import: {:.1} MB document, {} operations, {} tools, {:.1} MB of tool schemas",
        mb,
        PATHS * 5,
        tools,
        schema_bytes as f64 / 1e6
    );
    println!("openapi/parse: {:.1} ms", parse.as_secs_f64() * 1e3);
    println!(
        "openapi/import: median {:.1} ms (min {:.1}, max {:.1}), {:.1} MB/s",
        median.as_secs_f64() * 1e3,
        times[0].as_secs_f64() * 1e3,
        times[times.len() - 1].as_secs_f64() * 1e3,
        mb / median.as_secs_f64()
    );
    // Output schemas (the responses' schemas converted too) against none, in the same run.
    let without = ImportOptions::new()
        .include_deprecated(true)
        .output_schemas(false);
    let mut bare: Vec<Duration> = (0..5)
        .map(|_| {
            let started = Instant::now();
            drop(openapi::import_with(&doc, &without).expect("imports"));
            started.elapsed()
        })
        .collect();
    bare.sort();
    println!(
        "openapi/import: without output schemas: median {:.1} ms (with them: {:.2}x)",
        bare[2].as_secs_f64() * 1e3,
        median.as_secs_f64() / bare[2].as_secs_f64()
    );
    // Half the size: linear means half the time.
    let half_text = document(TARGET_BYTES / 2);
    let half = ParseOptions::new().parse(&half_text).expect("parses");
    let mut half_times: Vec<Duration> = (0..5)
        .map(|_| {
            let started = Instant::now();
            drop(openapi::import_with(&half, &options).expect("imports"));
            started.elapsed()
        })
        .collect();
    half_times.sort();
    println!(
        "openapi/import: half the document ({:.1} MB): median {:.1} ms (ratio {:.2}, 2.00 is linear)",
        half_text.len() as f64 / 1e6,
        half_times[2].as_secs_f64() * 1e3,
        median.as_secs_f64() / half_times[2].as_secs_f64()
    );
    if let (Some(before), Some(peak)) = (before, peak) {
        let extra = peak.saturating_sub(before) as f64 * 1024.0;
        println!(
            "openapi/import: peak memory {:.1} MB above the parsed document ({:.2}x the document's {:.1} MB of text)",
            extra / 1e6,
            extra / text.len() as f64,
            mb
        );
    }
}

/// A document of about `target` bytes.
fn document(target: usize) -> String {
    let scale = target as f64 / TARGET_BYTES as f64;
    let schemas = ((SCHEMAS as f64) * scale).max(10.0) as usize;
    let paths = ((PATHS as f64) * scale).max(10.0) as usize;
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    let mut next = move |n: usize| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % n.max(1) as u64) as usize
    };
    let words = [
        "account",
        "billing",
        "customer",
        "invoice",
        "the",
        "of",
        "returns",
        "identifier",
        "status",
        "created",
        "updated",
        "list",
        "resource",
        "when",
        "value",
        "object",
    ];
    let prose = |n: usize, next: &mut dyn FnMut(usize) -> usize| {
        let mut s = String::new();
        for i in 0..n {
            if i > 0 {
                s.push(' ');
            }
            s.push_str(words[next(words.len())]);
        }
        s
    };
    let mut components = Map::new();
    for i in 0..schemas {
        let mut props = Map::new();
        props.insert(
            "id",
            obj(&[
                ("type", "string".into()),
                ("description", prose(12, &mut next).into()),
            ]),
        );
        props.insert(
            "status",
            obj(&[
                ("type", "string".into()),
                (
                    "enum",
                    Json::Array((0..8).map(|k| Json::from(format!("state_{}", k))).collect()),
                ),
                ("description", prose(20, &mut next).into()),
            ]),
        );
        props.insert(
            "count",
            obj(&[
                ("type", "integer".into()),
                ("format", "int32".into()),
                ("minimum", 0.into()),
            ]),
        );
        props.insert(
            "created",
            obj(&[
                ("type", "string".into()),
                ("format", "date-time".into()),
                ("readOnly", true.into()),
            ]),
        );
        for k in 0..6 {
            props.insert(
                format!("field_{}", k),
                obj(&[
                    ("type", "string".into()),
                    ("nullable", true.into()),
                    ("description", prose(45, &mut next).into()),
                ]),
            );
        }
        // Nested references in tiers, as resources hold sub-resources: a schema of tier t
        // refers to two of tier t + 1, so a body inlines about fifteen schemas.
        let tier = i % TIERS;
        if tier + 1 < TIERS {
            let pick = |next: &mut dyn FnMut(usize) -> usize| {
                let k = next(schemas / TIERS);
                (k * TIERS + tier + 1).min(schemas - 1)
            };
            let a = pick(&mut next);
            props.insert(
                "parent",
                obj(&[("$ref", format!("#/components/schemas/Schema{}", a).into())]),
            );
            let b = pick(&mut next);
            props.insert(
                "items",
                obj(&[
                    ("type", "array".into()),
                    (
                        "items",
                        obj(&[("$ref", format!("#/components/schemas/Schema{}", b).into())]),
                    ),
                ]),
            );
        }
        let schema = obj(&[
            ("type", "object".into()),
            ("description", prose(40, &mut next).into()),
            ("required", Json::Array(vec!["id".into(), "status".into()])),
            ("properties", Json::Object(props)),
        ]);
        components.insert(format!("Schema{}", i), schema);
    }
    // Bodies and responses refer to schemas of the first tier.
    let leaf =
        |next: &mut dyn FnMut(usize) -> usize| (next(schemas / TIERS) * TIERS).min(schemas - 1);
    let mut paths_map = Map::new();
    for p in 0..paths {
        let s = leaf(&mut next);
        let reference = obj(&[("$ref", format!("#/components/schemas/Schema{}", s).into())]);
        let id_param = obj(&[
            ("name", "id".into()),
            ("in", "path".into()),
            ("required", true.into()),
            ("schema", obj(&[("type", "string".into())])),
        ]);
        let list_params = Json::Array(vec![
            obj(&[
                ("name", "limit".into()),
                ("in", "query".into()),
                (
                    "schema",
                    obj(&[
                        ("type", "integer".into()),
                        ("minimum", 1.into()),
                        ("maximum", 100.into()),
                    ]),
                ),
            ]),
            obj(&[
                ("name", "sort".into()),
                ("in", "query".into()),
                (
                    "schema",
                    obj(&[
                        ("type", "string".into()),
                        ("enum", Json::Array(vec!["asc".into(), "desc".into()])),
                    ]),
                ),
            ]),
            obj(&[
                ("name", "filter".into()),
                ("in", "query".into()),
                ("style", "deepObject".into()),
                (
                    "schema",
                    obj(&[
                        ("type", "object".into()),
                        (
                            "properties",
                            obj(&[("status", obj(&[("type", "string".into())]))]),
                        ),
                    ]),
                ),
            ]),
        ]);
        let body = obj(&[
            (
                "content",
                obj(&[("application/json", obj(&[("schema", reference.clone())]))]),
            ),
            ("required", true.into()),
        ]);
        let response = obj(&[(
            "200",
            obj(&[
                ("description", "ok".into()),
                (
                    "content",
                    obj(&[("application/json", obj(&[("schema", reference.clone())]))]),
                ),
            ]),
        )]);
        let op = |id: String, extra: Vec<(&str, Json)>, next: &mut dyn FnMut(usize) -> usize| {
            let mut m = Map::new();
            m.insert("operationId", id);
            m.insert("summary", prose(8, next));
            m.insert("description", prose(250, next));
            m.insert("tags", Json::Array(vec![format!("tag{}", p % 20).into()]));
            m.insert("responses", response.clone());
            for (k, v) in extra {
                m.insert(k, v);
            }
            Json::Object(m)
        };
        let collection = obj(&[
            (
                "get",
                op(
                    format!("list{}", p),
                    vec![("parameters", list_params.clone())],
                    &mut next,
                ),
            ),
            (
                "post",
                op(
                    format!("create{}", p),
                    vec![("requestBody", body.clone())],
                    &mut next,
                ),
            ),
        ]);
        let item = obj(&[
            ("parameters", Json::Array(vec![id_param])),
            ("get", op(format!("get{}", p), vec![], &mut next)),
            (
                "patch",
                op(
                    format!("update{}", p),
                    vec![("requestBody", body.clone())],
                    &mut next,
                ),
            ),
            ("delete", op(format!("delete{}", p), vec![], &mut next)),
        ]);
        paths_map.insert(format!("/v1/resource{}", p), collection);
        paths_map.insert(format!("/v1/resource{}/{{id}}", p), item);
    }
    let doc = obj(&[
        ("openapi", "3.0.3".into()),
        (
            "info",
            obj(&[("title", "Generated API".into()), ("version", "1".into())]),
        ),
        (
            "servers",
            Json::Array(vec![obj(&[("url", "https://api.example.com".into())])]),
        ),
        ("paths", Json::Object(paths_map)),
        (
            "components",
            obj(&[
                ("schemas", Json::Object(components)),
                (
                    "securitySchemes",
                    obj(&[(
                        "bearer",
                        obj(&[("type", "http".into()), ("scheme", "bearer".into())]),
                    )]),
                ),
            ]),
        ),
        (
            "security",
            Json::Array(vec![obj(&[("bearer", Json::Array(vec![]))])]),
        ),
    ]);
    doc.to_pretty()
}

fn obj(pairs: &[(&str, Json)]) -> Json {
    let mut m = Map::new();
    for (k, v) in pairs {
        m.insert(*k, v.clone());
    }
    Json::Object(m)
}

fn status_kib(key: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(key))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn rss_kib() -> Option<u64> {
    status_kib("VmRSS:")
}

fn peak_kib() -> Option<u64> {
    status_kib("VmHWM:")
}

/// Resets the peak resident size (Linux: writing 5 to `clear_refs`).
fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}
