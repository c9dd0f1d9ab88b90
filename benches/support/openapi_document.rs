//! The generated document of the OpenAPI benchmark (`benches/openapi.rs`), shaped like a
//! large public API: shared components, nested `$ref`s, enums and long descriptions. Also
//! read by `tests/openapi_threads.rs` and `tests/openapi_compile_threads.rs`, which import
//! it on several threads.

use httptool::json::{Json, Map};

/// Components, paths (five operations each) and the size aimed at.
pub const SCHEMAS: usize = 2320;
pub const TIERS: usize = 4;
pub const PATHS: usize = 290;
pub const TARGET_BYTES: usize = 13 * 1024 * 1024;

/// A document of about `target` bytes.
pub fn document(target: usize) -> String {
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
