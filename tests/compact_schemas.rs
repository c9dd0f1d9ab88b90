//! Compact schemas: the schema a model reads is compact by default (descriptions trimmed at
//! a sentence boundary, empty and redundant keywords left out) and keeps every parameter,
//! type, enum and required flag, over a whole real document; `full_schemas` keeps the text
//! whole; `httptool tools --stats` says what each tool costs.

use std::path::Path;

use httptool::json::{self, Json};
use httptool::plugin::HttpPlugin;
use httptool::tool::{
    anthropic, compact_schema, gemini, inline_refs, mcp, openai, ToolSize,
    DEFAULT_MAX_DESCRIPTION_BYTES,
};

use crate::support::cli::{httptool, status, stderr, stdout, TempDir};

/// The same plugin with `full_schemas` set in its file.
fn full(plugin: &HttpPlugin) -> HttpPlugin {
    let mut file = plugin.to_json();
    file.as_object_mut().unwrap().insert("full_schemas", true);
    HttpPlugin::from_json_with(&file.to_string(), |_| Some(String::new())).unwrap()
}

/// The longest description `depth` `properties` levels down in a compact schema with the
/// default length: the tool's (root) length, three quarters for a parameter, three eighths
/// for a member of an object parameter, none deeper.
fn description_limit(depth: usize) -> usize {
    let max = DEFAULT_MAX_DESCRIPTION_BYTES;
    [max, max / 4 * 3, max / 8 * 3]
        .get(depth)
        .copied()
        .unwrap_or(0)
}

/// Walks two schemas side by side and asserts the compact one keeps what a model needs;
/// `depth` counts `properties` levels (the root is 0, a tool's parameters 1).
fn assert_keeps(full: &Json, compact: &Json, at: &str, depth: usize) {
    let (f, c) = match (full.as_object(), compact.as_object()) {
        (Some(f), Some(c)) => (f, c),
        _ => {
            assert_eq!(full, compact, "{}", at);
            return;
        }
    };
    let single_type = f.get("type").and_then(Json::as_str);
    for key in ["type", "enum", "const", "default", "format"] {
        assert_eq!(f.get(key), c.get(key), "{} at {}", key, at);
    }
    // `additionalProperties: false` is kept; `true` says what its absence says.
    if f.get("additionalProperties") == Some(&Json::Bool(false)) {
        assert_eq!(
            c.get("additionalProperties"),
            Some(&Json::Bool(false)),
            "additionalProperties at {}",
            at
        );
    }
    let applies_to_objects = single_type.map_or(true, |t| t == "object");
    if applies_to_objects {
        let required = |m: &json::Map| {
            m.get("required")
                .cloned()
                .filter(|r| r != &Json::from(Vec::<Json>::new()))
        };
        assert_eq!(required(f), required(c), "required at {}", at);
        if let Some(props) = f.get("properties").and_then(Json::as_object) {
            let compact_props = c
                .get("properties")
                .and_then(Json::as_object)
                .unwrap_or_else(|| panic!("properties at {}", at));
            let names: Vec<&String> = props.keys().collect();
            let compact_names: Vec<&String> = compact_props.keys().collect();
            assert_eq!(names, compact_names, "property names at {}", at);
            for (name, schema) in props {
                assert_keeps(
                    schema,
                    &compact_props[name.as_str()],
                    &format!("{}/{}", at, name),
                    depth + 1,
                );
            }
        }
    }
    if single_type.map_or(true, |t| t == "array") {
        if let Some(items) = f
            .get("items")
            .filter(|i| i.as_object().map_or(true, |m| !m.is_empty()))
        {
            assert_keeps(items, &c["items"], &format!("{}/items", at), depth);
        }
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(list) = f.get(key).and_then(Json::as_array) {
            let compact_list = c[key]
                .as_array()
                .unwrap_or_else(|| panic!("{} at {}", key, at));
            assert_eq!(list.len(), compact_list.len(), "{} at {}", key, at);
            for (i, (a, b)) in list.iter().zip(compact_list).enumerate() {
                assert_keeps(a, b, &format!("{}/{}/{}", at, key, i), depth);
            }
        }
    }
    if let Some(text) = c.get("description").and_then(Json::as_str) {
        assert!(
            !text.is_empty() && text.len() <= description_limit(depth),
            "description at {} (depth {}): {}",
            at,
            depth,
            text
        );
    }
}

#[test]
#[ignore = "needs ../shared/data/openapi: see tests/README.md"]
fn compact_schemas_keep_every_parameter_type_enum_and_required_of_a_real_document() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data/openapi/box-platform.openapi.json");
    let doc = json::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
    let compact = httptool::openapi::import(&doc).unwrap().into_plugin();
    let whole = full(&compact);
    let (compact_specs, full_specs) = (compact.specs(), whole.specs());
    assert_eq!(compact_specs.len(), full_specs.len());
    assert!(compact_specs.len() > 250);
    let mut bytes = (0, 0);
    let mut with_defs = 0;
    for (c, f) in compact_specs.iter().zip(&full_specs) {
        assert_eq!(c.name(), f.name());
        // Repeated subschemas are written once under `$defs`: read back in place, the
        // compact schema keeps everything, and it is the compact schema without `$defs`.
        // Shared and recursive components are `$defs` of the import: compared in place.
        let inlined = inline_refs(c.parameters());
        assert_keeps(&inline_refs(f.parameters()), &inlined, c.name(), 0);
        assert_eq!(
            inlined,
            inline_refs(&compact_schema(
                f.parameters(),
                DEFAULT_MAX_DESCRIPTION_BYTES
            )),
            "{}",
            c.name()
        );
        if c.parameters().get("$defs").is_some() {
            with_defs += 1;
            // Factored by the compaction (not the import's own entries): shorter.
            if f.parameters().get("$defs").is_none() {
                assert!(
                    c.parameters().to_string().len() < inlined.to_string().len(),
                    "{}",
                    c.name()
                );
            }
        }
        assert!(c.description().len() <= httptool::tool::DEFAULT_MAX_DESCRIPTION_BYTES);
        bytes.0 += mcp::tool(c).to_string().len();
        bytes.1 += mcp::tool(f).to_string().len();
    }
    // Entries a tool uses once are written in place: those left are used twice or more.
    assert!(with_defs >= 5, "{} tools with $defs", with_defs);
    // Far smaller, for the same parameters.
    assert!(
        bytes.0 * 10 < bytes.1 * 6,
        "compact {} full {}",
        bytes.0,
        bytes.1
    );
}

/// The document at `../shared/data/openapi/NAME`, read as JSON or YAML.
fn real_document(name: &str) -> Json {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data/openapi")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    if name.ends_with(".json") {
        json::parse(&text).unwrap()
    } else {
        httptool::yaml::parse(&text).unwrap()
    }
}

#[test]
#[ignore = "needs ../shared/data/openapi: see tests/README.md"]
fn no_parameter_type_enum_or_required_flag_is_lost_on_the_real_documents() {
    // Box is checked above; these hold summaries and descriptions with Markdown, HTML line
    // breaks, restated defaults and titles (Spotify), and lean ones (Figma). Kubernetes is
    // checked by `openapi_real_world` (it is slow to compact twice in a debug build).
    for name in [
        "figma-rest-api.openapi.yaml",
        "spotify-web-api.fixed.openapi.yaml",
        "pinterest-v5.openapi.yaml",
        "discord-api.openapi.json",
    ] {
        let compact = httptool::openapi::import(&real_document(name))
            .unwrap()
            .into_plugin();
        let whole = full(&compact);
        let (compact_specs, full_specs) = (compact.specs(), whole.specs());
        assert_eq!(compact_specs.len(), full_specs.len(), "{}", name);
        assert!(compact_specs.len() >= 40, "{}", name);
        for (c, f) in compact_specs.iter().zip(&full_specs) {
            let at = format!("{} {}", name, c.name());
            assert_keeps(
                &inline_refs(f.parameters()),
                &inline_refs(c.parameters()),
                &at,
                0,
            );
            assert!(
                c.description().len() <= DEFAULT_MAX_DESCRIPTION_BYTES,
                "{}",
                at
            );
            // No markup reaches the model, and a summary reads as a sentence of its own.
            let text = mcp::tool(c).to_string();
            for markup in ["](http", "](/", "<br", "</p>"] {
                assert!(!text.contains(markup), "{} holds {}", at, markup);
            }
        }
    }
}

/// An imported operation whose texts are written for a documentation page.
const MARKUP_DOCUMENT: &str = r#"{"openapi": "3.0.3", "info": {"title": "Music", "version": "1"},
  "servers": [{"url": "https://api.example.com"}],
  "paths": {
    "/albums/{id}": {"get": {"operationId": "getAlbum", "summary": "Get Album",
      "description": "Get catalog information for a single album.",
      "parameters": [
        {"name": "id", "in": "path", "required": true, "schema": {"type": "string", "title": "Album ID"},
         "description": "The [Spotify ID](/documentation/web-api/concepts/spotify-uris-ids) of the album."},
        {"name": "market", "in": "query", "schema": {"type": "string", "title": "Market"},
         "description": "An [ISO 3166-1 alpha-2 country code](https://en.wikipedia.org/wiki/ISO_3166-1_alpha-2).<br/>\n  _**Note**: If neither market or user country are provided, the content is unavailable._"},
        {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 50, "default": 20, "title": "Page size"},
         "description": "The maximum number of items to return. Default: 20. Minimum: 1. Maximum: 50."},
        {"name": "offset", "in": "query", "schema": {"type": "integer", "default": 0},
         "description": "The index of the first item to return. Default: 0 (the first item). Use with limit."}]}},
    "/embed": {"get": {"operationId": "getEmbed", "summary": "Get oEmbed data",
      "description": "Returns oEmbed data for a file URL, following the [oEmbed specification](https://oembed.com/).\n\n**This API is in beta.** Do not rely on it.",
      "parameters": [{"name": "options", "in": "query", "style": "deepObject",
        "schema": {"type": "object", "additionalProperties": true, "description": "Free-form options."}}]}}
  }}"#;

#[test]
fn imported_descriptions_read_as_sentences_without_markup_or_restated_values() {
    let doc = json::parse(MARKUP_DOCUMENT).unwrap();
    let plugin = httptool::openapi::import(&doc).unwrap().into_plugin();
    let specs = plugin.specs();
    let album = mcp::tool(&specs[0]);
    assert_eq!(
        album,
        httptool::json!({"name": "getAlbum", "title": "Get Album",
          // The summary says nothing the description does not: the title keeps it.
          "description": "Get catalog information for a single album.",
          "inputSchema": {"type": "object", "properties": {
            // A title its name and description say is left out; a link is its text.
            "id": {"type": "string", "description": "The Spotify ID of the album."},
            // The first sentence says what a parameter is; a later one stays only when it
            // names a value (a code span, a quoted literal, a digit, a default).
            "market": {"type": "string", "description": "An ISO 3166-1 alpha-2 country code."},
            // A sentence that only says a keyword's value is left out; one saying more stays.
            "limit": {"type": "integer", "minimum": 1, "maximum": 50, "title": "Page size", "default": 20,
              "description": "The maximum number of items to return."},
            "offset": {"type": "integer", "default": 0,
              "description": "The index of the first item to return. Default: 0 (the first item)."}},
            "required": ["id"], "additionalProperties": false},
          "annotations": {"readOnlyHint": true, "idempotentHint": true, "openWorldHint": true}})
    );
    let embed = mcp::tool(&specs[1]);
    // Joined as sentences (the summary has a word of its own): a tool's description is
    // its first sentence, the summary.
    assert_eq!(embed["description"], httptool::json!("Get oEmbed data."));
    assert_eq!(
        embed["inputSchema"]["properties"]["options"],
        httptool::json!({"type": "object", "description": "Free-form options."})
    );
    // The plugin file keeps the text whole, joined as sentences.
    assert!(plugin.to_json()["endpoints"][1]["description"]
        .as_str()
        .unwrap()
        .starts_with("Get oEmbed data.\n\nReturns oEmbed data"));
    // The catalog's describe_operation gives the same schema the tool has.
    let mut registry = httptool::tool::ToolRegistry::new();
    registry.add_plugin(&plugin).unwrap();
    let catalog = httptool::tool::Catalog::new(registry).registry();
    let out = catalog.call(&httptool::tool::ToolCall::new(
        "1",
        httptool::tool::DESCRIBE_OPERATION,
        r#"{"name": "getAlbum"}"#,
    ));
    let described = json::parse(out.text()).unwrap();
    assert_eq!(described["parameters"], album["inputSchema"]);
    assert_eq!(described["description"], album["description"]);
}

#[test]
fn plugin_descriptions_are_trimmed_by_default_and_whole_with_full_schemas() {
    let long = "Lists the issues of a repository. Pull requests are issues too: every pull request is an issue, but not every issue is a pull request, so filter them out with the pull_request key that only they have.";
    let file = |extra: &str| {
        format!(
            r#"{{"name": "gh", "base_url": "https://api.example.com"{}, "endpoints": [{{
              "name": "list_issues", "path": "/issues", "description": "{}",
              "params": [{{"name": "state", "in": "query", "enum": ["open", "closed"],
                           "description": "  Issue   state.  "}}]}}]}}"#,
            extra, long
        )
    };
    let compact = HttpPlugin::from_json(&file("")).unwrap().specs().remove(0);
    assert_eq!(compact.description(), "Lists the issues of a repository.");
    assert_eq!(
        compact.parameters()["properties"]["state"],
        httptool::json!({"type": "string", "description": "Issue state.", "enum": ["open", "closed"]})
    );
    let whole = HttpPlugin::from_json(&file(r#", "full_schemas": true"#))
        .unwrap()
        .specs()
        .remove(0);
    assert_eq!(whole.description(), long);
    // More room keeps the first sentence alone: the rest is in the full schema only.
    let longer = HttpPlugin::from_json(&file(r#", "max_description_bytes": 400"#))
        .unwrap()
        .specs()
        .remove(0);
    assert_eq!(longer.description(), "Lists the issues of a repository.");
    // The options round-trip through the plugin file.
    let plugin = HttpPlugin::from_json(&file(
        r#", "full_schemas": false, "max_description_bytes": 80"#,
    ))
    .unwrap();
    let again = HttpPlugin::from_json(&plugin.to_json().to_string()).unwrap();
    assert_eq!(again.to_json(), plugin.to_json());
    assert_eq!(
        plugin.to_json()["max_description_bytes"],
        httptool::json!(80)
    );
    assert_eq!(plugin.to_json()["full_schemas"], httptool::json!(false));
}

#[test]
fn descriptions_get_less_room_the_deeper_they_are_and_none_past_the_members() {
    // 40 bytes for the root (as for a tool), 30 for a parameter, 15 for a member of an
    // object parameter, nothing deeper; every name, type, enum and required flag stays.
    let full = httptool::json!({"type": "object", "description": "A tool root. With many more words in it, past forty.",
      "properties": {
        "flag": {"type": "boolean", "description": "Whether to. And another sentence."},
        "body": {"type": "object", "description": "The body to send. All of it, every byte.",
          "properties": {
            "name": {"type": "string", "description": "Who it is for. Unique."},
            "meta": {"type": "object", "description": "What it holds.",
              "properties": {"kind": {"type": "string", "enum": ["a", "b"], "description": "The kind."}},
              "required": ["kind"]},
            "tags": {"type": "array", "description": "Free labels.",
              "items": {"type": "object", "description": "One tag.",
                "properties": {"label": {"type": "string", "description": "The label."}}}}},
          "required": ["name"]}},
      "required": ["body"]});
    assert_eq!(
        compact_schema(&full, 40),
        httptool::json!({"type": "object", "description": "A tool root.",
          "properties": {
            "flag": {"type": "boolean", "description": "Whether to."},
            "body": {"type": "object", "description": "The body to send.",
              "properties": {
                "name": {"type": "string", "description": "Who it is for."},
                "meta": {"type": "object", "description": "What it holds.",
                  "properties": {"kind": {"type": "string", "enum": ["a", "b"]}},
                  "required": ["kind"]},
                // An array's items are at its own level: the tag's description is a member's.
                "tags": {"type": "array", "description": "Free labels.",
                  "items": {"type": "object", "description": "One tag.",
                    "properties": {"label": {"type": "string"}}}}},
              "required": ["name"]}},
          "required": ["body"]})
    );
    // The default lengths: 160 bytes at the root, 120 for a parameter, 60 for a member.
    let sentence = |n: usize| format!("{}.", "x".repeat(n - 1));
    let text = |n: usize| format!("{} {}", sentence(n), sentence(30));
    let full = httptool::json!({"type": "object", "description": text(160),
      "properties": {"p": {"type": "object", "description": text(120),
        "properties": {"m": {"type": "string", "description": text(60)}}}}});
    assert_eq!(
        compact_schema(&full, DEFAULT_MAX_DESCRIPTION_BYTES),
        httptool::json!({"type": "object", "description": sentence(160),
          "properties": {"p": {"type": "object", "description": sentence(120),
            "properties": {"m": {"type": "string", "description": sentence(60)}}}}})
    );
}

#[test]
fn a_wrong_option_type_names_its_field() {
    let err = HttpPlugin::from_json(
        r#"{"name": "p", "base_url": "https://a.example", "full_schemas": "yes", "endpoints": [{"name": "a", "path": "/a"}]}"#,
    )
    .unwrap_err();
    assert!(err.to_string().starts_with("full_schemas: "), "{}", err);
}

#[test]
fn cli_stats_print_bytes_and_tokens_per_tool_and_in_total() {
    let dir = TempDir::new("compact-stats");
    let file = dir.file(
        "p.json",
        r#"{"name": "p", "base_url": "https://api.example.com", "endpoints": [
          {"name": "small", "path": "/a"},
          {"name": "large", "path": "/b", "description": "A longer one. With two sentences, and then some more words to make it the largest of the two tools here, and more words still, past the length a compact description keeps by default.",
           "params": [{"name": "q", "in": "query", "description": "What to look for."}]}]}"#,
    );
    let out = httptool(&["tools", &file, "--stats", "--format", "mcp"], None, &[]);
    assert_eq!(status(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("tool "), "{}", text);
    let row = |name: &str| -> (usize, usize) {
        let line = lines
            .iter()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("{} in {}", name, text));
        let words: Vec<&str> = line.split_whitespace().collect();
        let n = words.len();
        (words[n - 2].parse().unwrap(), words[n - 1].parse().unwrap())
    };
    let (small, large) = (row("small "), row("large "));
    let plugin = HttpPlugin::from_json(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let specs = plugin.specs();
    assert_eq!(small.0, mcp::tool(&specs[0]).to_string().len());
    assert_eq!(small.1, ToolSize::from_bytes(small.0).tokens);
    assert_eq!(
        row("total (2 tools)"),
        (
            small.0 + large.0,
            ToolSize::from_bytes(small.0 + large.0).tokens
        )
    );
    assert!(
        text.contains(&format!(
            "largest: large ({} bytes), small ({} bytes)",
            large.0, small.0
        )),
        "{}",
        text
    );
    assert!(
        text.ends_with("tokens are estimated as bytes / 4, rounded up\n"),
        "{}",
        text
    );

    // --full-schemas: the whole description, so more bytes.
    let out = httptool(
        &[
            "tools",
            &file,
            "--stats",
            "--format",
            "mcp",
            "--full-schemas",
        ],
        None,
        &[],
    );
    assert_eq!(status(&out), 0, "{}", stderr(&out));
    let full_text = stdout(&out);
    let full_large: usize = full_text
        .lines()
        .find(|l| l.starts_with("large "))
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    assert!(full_large > large.0, "{} {}", full_large, large.0);
    let out = httptool(&["tools", &file, "--full-schemas"], None, &[]);
    assert!(
        stdout(&out).contains("then some more words"),
        "{}",
        stdout(&out)
    );
    let out = httptool(&["tools", &file], None, &[]);
    assert!(!stdout(&out).contains("then some more words"));
}

/// A plugin whose two body parameters share one object schema (with a long enum), as an
/// imported document's billing and shipping addresses do.
fn plugin_with_a_repeated_schema() -> HttpPlugin {
    let address = r#"{"type": "object", "properties": {
        "street": {"type": "string"},
        "country": {"type": "string", "enum": ["DE", "FR", "GB", "IT", "NL", "PL", "SE", "US"]}},
        "required": ["country"], "additionalProperties": false}"#;
    HttpPlugin::from_json(&format!(
        r#"{{"name": "shop", "base_url": "https://api.example.com", "endpoints": [{{
          "name": "create_order", "method": "POST", "path": "/orders",
          "params": [
            {{"name": "billing", "type": "object", "required": true, "schema": {}}},
            {{"name": "shipping", "type": "object", "schema": {}}}]}}]}}"#,
        address, address
    ))
    .unwrap()
}

#[test]
fn a_repeated_subschema_is_written_once_and_each_provider_reads_it() {
    let spec = plugin_with_a_repeated_schema().specs().remove(0);
    let params = spec.parameters();
    assert_eq!(
        params["properties"]["billing"],
        httptool::json!({"$ref": "#/$defs/billing"})
    );
    assert_eq!(
        params["properties"]["shipping"],
        httptool::json!({"$ref": "#/$defs/billing"})
    );
    assert_eq!(params["required"], httptool::json!(["billing"]));
    let def = &params["$defs"]["billing"];
    assert_eq!(def["required"], httptool::json!(["country"]));
    assert_eq!(
        def["properties"]["country"]["enum"]
            .as_array()
            .unwrap()
            .len(),
        8
    );

    // MCP, Anthropic and OpenAI read JSON Schema: the references go as they are.
    assert_eq!(&mcp::tool(&spec)["inputSchema"], params);
    assert_eq!(&anthropic::tool(&spec)["input_schema"], params);
    assert_eq!(&openai::chat_tool(&spec)["function"]["parameters"], params);
    assert_eq!(&openai::responses_tool(&spec)["parameters"], params);

    // OpenAI strict mode takes `$defs` and `$ref`: the entry is closed like any object, and
    // the optional reference becomes nullable beside it.
    let strict = openai::chat_tool_strict(&spec).unwrap();
    let strict = &strict["function"]["parameters"];
    assert_eq!(
        strict["properties"]["billing"],
        httptool::json!({"$ref": "#/$defs/billing"})
    );
    assert_eq!(
        strict["properties"]["shipping"],
        httptool::json!({"anyOf": [{"$ref": "#/$defs/billing"}, {"type": "null"}]})
    );
    assert_eq!(
        strict["$defs"]["billing"]["required"],
        httptool::json!(["street", "country"])
    );
    assert_eq!(
        strict["$defs"]["billing"]["additionalProperties"],
        httptool::json!(false)
    );

    // Gemini's `parameters` has no `$ref`: the entry is written back in place.
    let declaration = gemini::function_declaration(&spec);
    let text = declaration.to_string();
    assert!(
        !text.contains("$ref") && !text.contains("$defs"),
        "{}",
        text
    );
    let shipping = &declaration["parameters"]["properties"]["shipping"];
    assert_eq!(shipping["type"], httptool::json!("OBJECT"));
    assert_eq!(shipping["required"], httptool::json!(["country"]));
    assert_eq!(
        shipping["properties"]["country"]["enum"]
            .as_array()
            .unwrap()
            .len(),
        8
    );
    assert_eq!(
        declaration["parameters"],
        gemini::schema(&inline_refs(params))
    );
}

#[test]
fn arguments_are_checked_against_the_declared_schema_not_the_references() {
    let plugin = plugin_with_a_repeated_schema();
    let context = httptool::tool::CallContext::new();
    let good =
        r#"{"billing": {"country": "DE"}, "shipping": {"street": "Main St 1", "country": "FR"}}"#;
    let dry = plugin.dry_run("create_order", good, &context).unwrap();
    let body = String::from_utf8_lossy(dry.request().body()).into_owned();
    assert!(body.contains(r#""country":"FR""#), "{}", body);
    // The second parameter's schema is a `$ref` in what the model reads; its value is still
    // checked against the whole declared schema.
    for (arguments, problem) in [
        (
            r#"{"billing": {"country": "DE"}, "shipping": {"country": "XX"}}"#,
            "shipping",
        ),
        (
            r#"{"billing": {"country": "DE"}, "shipping": {"street": "x"}}"#,
            "country",
        ),
        (
            r#"{"billing": {"country": "DE"}, "shipping": {"country": "FR", "zip": "1"}}"#,
            "zip",
        ),
    ] {
        let err = plugin
            .dry_run("create_order", arguments, &context)
            .unwrap_err();
        assert!(err.is_error());
        assert!(
            err.text().contains(problem),
            "{}: {}",
            arguments,
            err.text()
        );
    }
}

#[test]
fn describe_operation_returns_the_schema_with_its_defs_unchanged() {
    let plugin = plugin_with_a_repeated_schema();
    let spec = plugin.specs().remove(0);
    let mut registry = httptool::tool::ToolRegistry::new();
    registry.add_plugin(&plugin).unwrap();
    let catalog = httptool::tool::Catalog::new(registry).registry();
    let out = catalog.call(&httptool::tool::ToolCall::new(
        "1",
        httptool::tool::DESCRIBE_OPERATION,
        r#"{"name": "create_order"}"#,
    ));
    assert!(!out.is_error(), "{}", out.text());
    let described = json::parse(out.text()).unwrap();
    assert_eq!(&described["parameters"], spec.parameters());
    assert!(described["parameters"].get("$defs").is_some());
}

#[test]
fn a_wrapped_output_schema_keeps_its_defs_at_the_root_its_references_point_to() {
    let user = httptool::json!({"type": "object", "properties": {
        "login": {"type": "string", "description": "The account name."},
        "id": {"type": "integer", "description": "The numeric id."}}});
    let output = httptool::json!({"type": "array", "items": {"type": "object", "properties": {
        "author": user.clone(), "assignee": user.clone()}}});
    let spec = httptool::tool::ToolSpec::without_parameters("list_issues", "Lists issues.")
        .unwrap()
        .with_output_schema(output.clone())
        .unwrap();
    let compact = httptool::tool::compact_spec(&spec, 160).unwrap();
    let schema = compact.output_schema().unwrap();
    assert_eq!(
        schema["items"]["properties"]["assignee"],
        httptool::json!({"$ref": "#/$defs/author"})
    );
    assert_eq!(inline_refs(schema), output);
    let rendered = &mcp::tool(&compact)["outputSchema"];
    assert_eq!(rendered["$defs"], schema["$defs"]);
    assert_eq!(
        rendered["properties"]["result"]["items"]["properties"]["author"],
        httptool::json!({"$ref": "#/$defs/author"})
    );
    assert!(rendered["properties"]["result"].get("$defs").is_none());
}

/// An operation written as GitHub's are: a summary, a long description full of links, and
/// parameters whose descriptions run past what says what they are.
const DOCS_STYLE_DOCUMENT: &str = r#"{"openapi": "3.0.3", "info": {"title": "Code", "version": "1"},
  "servers": [{"url": "https://api.example.com"}],
  "paths": {"/repos/{owner}/{repo}/notifications": {"get": {
    "operationId": "list-notifications", "summary": "List repository notifications",
    "description": "Lists all notifications for the current user in the repository.\n\nSee \"[Notifications](https://docs.example.com/rest/notifications)\" for details. Rate limits apply (e.g. 5000 an hour).",
    "parameters": [
      {"name": "owner", "in": "path", "required": true, "schema": {"type": "string"},
       "description": "The account owner of the repository. The name is not case sensitive."},
      {"name": "repo", "in": "path", "required": true, "schema": {"type": "string"},
       "description": "The name of the repository. The name is not case sensitive."},
      {"name": "since", "in": "query", "schema": {"type": "string"},
       "description": "Only show notifications updated after the given time. This is a timestamp in [ISO 8601](https://en.wikipedia.org/wiki/ISO_8601) format: `YYYY-MM-DDTHH:MM:SSZ`."},
      {"name": "sort", "in": "query", "schema": {"type": "string", "enum": ["created", "updated"]},
       "description": "The property to sort the results by. `created` means when the notification was made. Ask support for others."}]}}}}"#;

#[test]
fn imported_descriptions_keep_what_says_what_a_tool_or_parameter_is_and_full_schemas_keeps_all() {
    let doc = json::parse(DOCS_STYLE_DOCUMENT).unwrap();
    let plugin = httptool::openapi::import(&doc).unwrap().into_plugin();
    let tool = mcp::tool(&plugin.specs()[0]);
    // The tool: its first sentence (the description's, which says the summary's every
    // word); the name and schema say the rest.
    assert_eq!(
        tool["description"],
        Json::from("Lists all notifications for the current user in the repository.")
    );
    assert_eq!(
        tool["inputSchema"]["properties"],
        httptool::json!({
          // The first sentence says what it is; advice after it is left out.
          "owner": {"type": "string", "description": "The account owner of the repository."},
          // Nothing the name does not say: no description at all.
          "repo": {"type": "string"},
          // A later sentence naming a value (a format) stays; the link is its text.
          "since": {"type": "string", "description": "Only show notifications updated after the given time. This is a timestamp in ISO 8601 format: `YYYY-MM-DDTHH:MM:SSZ`."},
          // What an enum value means stays; a sentence without a value does not.
          "sort": {"type": "string", "enum": ["created", "updated"],
            "description": "The property to sort the results by. `created` means when the notification was made."}})
    );
    // `full_schemas` keeps every description as the plugin holds it, markup and all.
    let whole = mcp::tool(&full(&plugin).specs()[0]);
    let description = whole["description"].as_str().unwrap();
    assert!(
        description
            .starts_with("Lists all notifications for the current user in the repository.\n\nSee")
            && description.ends_with("(e.g. 5000 an hour)."),
        "{}",
        description
    );
    assert_eq!(
        whole["inputSchema"]["properties"]["repo"]["description"],
        Json::from("The name of the repository. The name is not case sensitive.")
    );
    assert!(whole["inputSchema"]["properties"]["since"]["description"]
        .as_str()
        .unwrap()
        .contains("[ISO 8601](https://en.wikipedia.org/wiki/ISO_8601)"));
}

#[test]
fn a_defs_entry_one_reference_names_is_written_in_its_place() {
    use httptool::tool::{compact_spec, ToolSpec};
    let owner = httptool::json!({"type": "object", "properties": {"login": {"type": "string"}}, "required": ["login"]});
    let node =
        httptool::json!({"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}}});
    let spec = ToolSpec::new(
        "put_thing",
        "Puts a thing.",
        httptool::json!({"type": "object", "properties": {
            // One reference, a type and a description beside it: the entry goes here.
            "owner": {"$ref": "#/$defs/owner", "type": "object", "description": "Who owns it."},
            // Two references: the entry stays.
            "from": {"$ref": "#/$defs/point"},
            "to": {"$ref": "#/$defs/point"},
            // Recursive: named inside itself and here, so twice.
            "list": {"$ref": "#/$defs/node"},
            // A reference inside an entry keeps the entry where it points.
            "x": {"$ref": "#/$defs/pair/properties/x"},
            "pair": {"$ref": "#/$defs/pair"},
            // A keyword beside the reference that says otherwise than the entry: kept apart.
            "tag": {"$ref": "#/$defs/tag", "maxLength": 3}
        }, "required": ["owner"], "additionalProperties": false, "$defs": {
            "owner": owner.clone(),
            "point": {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2},
            "node": node.clone(),
            "pair": {"type": "object", "properties": {"x": {"type": "integer"}}},
            "tag": {"type": "string", "maxLength": 8},
            "unused": {"type": "string", "pattern": "^[a-z]+$"}
        }}),
    )
    .unwrap();
    let compact = compact_spec(&spec, DEFAULT_MAX_DESCRIPTION_BYTES).unwrap();
    let mut owner_here = owner.as_object().unwrap().clone();
    owner_here.insert("description", "Who owns it.");
    assert_eq!(
        compact.parameters(),
        &httptool::json!({"type": "object", "properties": {
            "owner": Json::Object(owner_here),
            "from": {"$ref": "#/$defs/point"},
            "to": {"$ref": "#/$defs/point"},
            "list": {"$ref": "#/$defs/node"},
            "x": {"$ref": "#/$defs/pair/properties/x"},
            "pair": {"$ref": "#/$defs/pair"},
            "tag": {"$ref": "#/$defs/tag", "maxLength": 3}
        }, "required": ["owner"], "additionalProperties": false, "$defs": {
            "point": {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2},
            "node": node,
            "pair": {"type": "object", "properties": {"x": {"type": "integer"}}},
            "tag": {"type": "string", "maxLength": 8}
        }})
    );
    // Written out, the schema is the one declared, less the entry nothing used.
    assert_eq!(
        inline_refs(compact.parameters())["properties"],
        inline_refs(spec.parameters())["properties"]
    );
}

#[test]
fn an_imported_component_one_operation_uses_once_is_in_its_schema_not_under_defs() {
    // `Label` is in two operations, so the import keeps it as a `$defs` entry of each; each
    // uses it once.
    let doc = json::parse(
        r##"{"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
        "servers": [{"url": "https://api.example.com"}],
        "paths": {"/labels": {"post": {"operationId": "create_label",
            "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Label"}}}},
            "responses": {"201": {"description": "ok"}}}},
          "/labels/{id}": {"put": {"operationId": "update_label",
            "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}],
            "requestBody": {"content": {"application/json": {"schema": {"type": "object",
              "properties": {"label": {"$ref": "#/components/schemas/Label"}}}}}},
            "responses": {"200": {"description": "ok"}}}}},
        "components": {"schemas": {"Label": {"type": "object",
          "properties": {"name": {"type": "string"}, "color": {"type": "string", "pattern": "^[0-9a-f]{6}$"}},
          "required": ["name"]}}}}"##,
    )
    .unwrap();
    let plugin = httptool::openapi::import(&doc).unwrap().into_plugin();
    for spec in plugin.specs() {
        let schema = mcp::tool(&spec)["inputSchema"].clone();
        assert!(schema.get("$defs").is_none(), "{}", schema);
        assert!(!schema.to_string().contains("$ref"), "{}", schema);
        assert!(
            schema.to_string().contains(r#""pattern":"^[0-9a-f]{6}$""#),
            "{}",
            schema
        );
    }
}

#[test]
fn a_tool_description_that_only_says_its_name_is_left_out_beside_a_title() {
    use httptool::tool::{compact_spec, ToolSpec};
    let compact = |name: &str, description: &str, title: Option<&str>| {
        let mut spec = ToolSpec::without_parameters(name, description).unwrap();
        if let Some(title) = title {
            spec = spec.with_title(title);
        }
        compact_spec(&spec, DEFAULT_MAX_DESCRIPTION_BYTES)
            .unwrap()
            .description()
            .to_string()
    };
    // Every word but `a` is a word of the name (`repo` says `repository`).
    let title = Some("Get a repository public key");
    assert_eq!(
        compact(
            "get-repo-public-key",
            "Get a repository public key. Anyone with read access can use it.",
            title
        ),
        ""
    );
    assert_eq!(
        compact(
            "listTeamMembers",
            "Lists the members of a team.",
            Some("List team members")
        ),
        ""
    );
    // A word the name does not say keeps the sentence.
    assert_eq!(
        compact(
            "list_issues",
            "Lists issues assigned to you. Paginated.",
            Some("List issues")
        ),
        "Lists issues assigned to you."
    );
    // Without a title, the description is all a person or a catalog search reads: kept.
    assert_eq!(
        compact("listTeamMembers", "Lists the members of a team.", None),
        "Lists the members of a team."
    );
}

#[test]
fn a_title_that_is_a_name_from_a_program_is_left_out() {
    let schema = httptool::json!({"type": "object", "properties": {
        "created": {"title": "range_query_specs", "type": "object",
                    "properties": {"gt": {"type": "integer"}, "lt": {"type": "integer"}}},
        "checks": {"type": "array", "items": {"title": "StatusCheckConfiguration", "type": "object",
                   "properties": {"context": {"type": "string"}}}},
        "card": {"anyOf": [{"title": "card-details", "type": "object"}, {"type": "string"}]},
        // A word or words for a reader stay.
        "home": {"title": "Address", "type": "object"},
        "rule": {"title": "Conditions for ref names", "type": "object"},
        "remark": {"title": "Note...", "type": "string"}
    }});
    assert_eq!(
        compact_schema(&schema, DEFAULT_MAX_DESCRIPTION_BYTES),
        httptool::json!({"type": "object", "properties": {
            "created": {"type": "object",
                        "properties": {"gt": {"type": "integer"}, "lt": {"type": "integer"}}},
            "checks": {"type": "array", "items": {"type": "object",
                       "properties": {"context": {"type": "string"}}}},
            "card": {"anyOf": [{"type": "object"}, {"type": "string"}]},
            "home": {"title": "Address", "type": "object"},
            "rule": {"title": "Conditions for ref names", "type": "object"},
            "remark": {"title": "Note...", "type": "string"}
        }})
    );
}

#[test]
fn a_chain_of_entries_each_used_once_stays_under_defs_past_the_depth_limit() {
    use httptool::json::Map;
    use httptool::tool::{compact_spec, ToolSpec};
    // 1,000 entries, each naming the next once: written in place, they would nest 1,000
    // levels deep.
    let mut defs = Map::new();
    for i in 0..1000 {
        let next = if i == 999 {
            httptool::json!({"type": "string"})
        } else {
            httptool::json!({"$ref": format!("#/$defs/c{}", i + 1)})
        };
        defs.insert(
            format!("c{}", i),
            httptool::json!({"type": "object", "properties": {"next": next}}),
        );
    }
    let schema = httptool::json!({"type": "object",
        "properties": {"head": {"$ref": "#/$defs/c0"}}, "$defs": Json::Object(defs)});
    let spec = ToolSpec::new("walk", "Walks a chain.", schema.clone()).unwrap();
    let compact = compact_spec(&spec, DEFAULT_MAX_DESCRIPTION_BYTES).unwrap();
    assert_eq!(compact.parameters(), &schema);
    // A short chain is written in place whole.
    let short = httptool::json!({"type": "object", "properties": {"head": {"$ref": "#/$defs/a"}},
        "$defs": {"a": {"type": "object", "properties": {"next": {"$ref": "#/$defs/b"}}},
                  "b": {"type": "object", "properties": {"next": {"type": "string"}}}}});
    let spec = ToolSpec::new("walk", "Walks a chain.", short).unwrap();
    assert_eq!(
        compact_spec(&spec, DEFAULT_MAX_DESCRIPTION_BYTES)
            .unwrap()
            .parameters(),
        &httptool::json!({"type": "object", "properties": {"head": {"type": "object",
            "properties": {"next": {"type": "object", "properties": {"next": {"type": "string"}}}}}}})
    );
}
