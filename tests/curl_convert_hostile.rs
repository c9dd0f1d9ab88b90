//! Hostile input for conversion and export: shell and quoting errors, NUL bytes, 1 MB
//! commands, JSON nested past the parser's limit, more parameters than allowed, bytes that
//! are not text. Each gives a clear error (its exact kind) or a plugin, never a panic.

use httptool::curl::{self, ErrorKind, Import, ImportOptions, DEFAULT_MAX_PARAMS};
use httptool::json::{self, Json};
use httptool::plugin::ParamType;
use httptool::tool::CallContext;

fn convert(command: &str, options: &ImportOptions) -> Result<Import, curl::Error> {
    let cmd = curl::parse(command)?;
    curl::to_plugin_with(&cmd, options)
}

fn kind(command: &str, options: &ImportOptions) -> ErrorKind {
    match convert(command, options) {
        Ok(import) => panic!("converted: {:?}", import.plugin()),
        Err(err) => err.kind(),
    }
}

fn ok(command: &str) -> Import {
    convert(command, &ImportOptions::new()).unwrap_or_else(|e| panic!("{}", e))
}

const MB: usize = 1024 * 1024;

#[test]
fn shell_errors_stay_clear() {
    let options = ImportOptions::new();
    assert_eq!(
        kind("curl 'https://x.example.com/a", &options),
        ErrorKind::UnterminatedQuote
    );
    assert_eq!(
        kind("curl https://x.example.com/a\0", &options),
        ErrorKind::NulByte
    );
    assert_eq!(
        kind("curl $'https://x.example.com/\\x00'", &options),
        ErrorKind::NulByte
    );
    assert_eq!(
        kind("curl https://x.example.com/a | sh", &options),
        ErrorKind::UnsupportedShell
    );
    assert_eq!(kind("", &options), ErrorKind::Empty);
    assert_eq!(kind("curl", &options), ErrorKind::NoUrl);
}

#[test]
fn a_one_megabyte_json_value_converts() {
    let text = "é".repeat(MB * 3 / 8);
    let command = format!(
        r#"curl https://x.example.com/v1/notes --json '{{"text": "{}"}}'"#,
        text
    );
    let import = ok(&command);
    let arguments = Json::Object(import.sample_arguments().clone()).to_string();
    let request = import
        .plugin()
        .dry_run(import.tool_name(), &arguments, &CallContext::new())
        .unwrap_or_else(|o| panic!("{}", o.text()))
        .into_request();
    assert_eq!(request.body().len(), text.len() + r#"{"text":""}"#.len());
}

#[test]
fn a_one_megabyte_header_value_converts() {
    let value = "v".repeat(MB);
    let import = ok(&format!(
        "curl https://x.example.com/a -H 'X-Big: {}'",
        value
    ));
    let (name, header) = import.plugin().headers().next().unwrap();
    assert_eq!((name, header.value().map(str::len)), ("X-Big", Some(MB)));
}

#[test]
fn a_megabyte_of_distinct_parameters_is_too_many() {
    let pairs: Vec<String> = (0..MB / 12).map(|i| format!("p{}=1", i)).collect();
    let query = format!("curl 'https://x.example.com/a?{}'", pairs.join("&"));
    let err = convert(&query, &ImportOptions::new()).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::TooManyParams);
    assert_eq!(
        err.to_string(),
        format!(
            "the command has {} parameters and headers, over the limit of 256; raise ImportOptions::max_params or trim the command",
            pairs.len()
        )
    );
    let form: String = pairs.iter().map(|p| format!(" -d {}", p)).collect();
    assert_eq!(
        kind(
            &format!("curl https://x.example.com/a{}", form),
            &ImportOptions::new()
        ),
        ErrorKind::TooManyParams
    );
    let headers: String = (0..MB / 16).map(|i| format!(" -H 'X-H{}: 1'", i)).collect();
    assert_eq!(
        kind(
            &format!("curl https://x.example.com/a{}", headers),
            &ImportOptions::new()
        ),
        ErrorKind::TooManyParams
    );
    let members: Vec<String> = (0..MB / 12).map(|i| format!("\"m{}\": 1", i)).collect();
    let json = format!(
        "curl https://x.example.com/a --json '{{{}}}'",
        members.join(",")
    );
    assert_eq!(kind(&json, &ImportOptions::new()), ErrorKind::TooManyParams);
    let segments = "/1".repeat(MB / 2);
    let path = format!("curl https://x.example.com{}", segments);
    assert!(
        convert(&path, &ImportOptions::new()).is_ok(),
        "literal segments are no parameters"
    );
    let inferred = ImportOptions::new().infer_path_params(true);
    assert_eq!(kind(&path, &inferred), ErrorKind::TooManyParams);
}

#[test]
fn a_megabyte_of_one_repeated_name_is_one_array() {
    let query = format!(
        "curl 'https://x.example.com/a?{}'",
        vec!["id=7"; MB / 5].join("&")
    );
    let import = ok(&query);
    let endpoint = import.plugin().endpoints().next().unwrap();
    assert_eq!(endpoint.params().len(), 1);
    assert_eq!(
        endpoint.params()[0].ty(),
        &ParamType::array(ParamType::Integer)
    );
    let sample = import.sample_arguments().get("id").and_then(Json::as_array);
    assert_eq!(sample.map(Vec::len), Some(MB / 5));
}

#[test]
fn the_parameter_limit_is_exact() {
    let command = "curl 'https://x.example.com/a?a=1&b=2' -H 'X-C: 3'";
    assert!(convert(command, &ImportOptions::new().max_params(3)).is_ok());
    assert_eq!(
        kind(command, &ImportOptions::new().max_params(2)),
        ErrorKind::TooManyParams
    );
    let at_default: Vec<String> = (0..DEFAULT_MAX_PARAMS)
        .map(|i| format!("p{}=1", i))
        .collect();
    let command = format!("curl 'https://x.example.com/a?{}'", at_default.join("&"));
    assert!(convert(&command, &ImportOptions::new()).is_ok());
    let over = format!("{}&one_more=1", command.trim_end_matches('\''));
    assert_eq!(
        kind(&format!("{}'", over), &ImportOptions::new()),
        ErrorKind::TooManyParams
    );
}

#[test]
fn json_past_the_depth_limit_is_an_error() {
    let deep = |levels: usize| {
        format!(
            "curl https://x.example.com/a --json '{{\"a\": {}1{}}}'",
            "[".repeat(levels - 1),
            "]".repeat(levels - 1)
        )
    };
    let at_limit = ok(&deep(json::DEFAULT_MAX_DEPTH));
    assert_eq!(
        at_limit.plugin().endpoints().next().unwrap().params().len(),
        1
    );
    let err = convert(&deep(json::DEFAULT_MAX_DEPTH + 1), &ImportOptions::new()).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidJson);
    let source = std::error::Error::source(&err).and_then(|e| e.downcast_ref::<json::Error>());
    assert_eq!(
        source.map(json::Error::kind),
        Some(json::ErrorKind::Depth),
        "{}",
        err
    );
    let huge = format!("curl https://x.example.com/a --json '{}'", "[".repeat(MB));
    assert_eq!(kind(&huge, &ImportOptions::new()), ErrorKind::InvalidJson);
}

#[test]
fn deep_objects_within_the_limit_are_widened() {
    let command = format!(
        "curl https://x.example.com/a --json '{{\"a\": {}1{}}}'",
        "{\"b\": ".repeat(100),
        "}".repeat(100)
    );
    let import = ok(&command);
    assert!(import
        .notes()
        .iter()
        .any(|n| n.message().contains("typed as any object")));
    let arguments = Json::Object(import.sample_arguments().clone()).to_string();
    assert!(import
        .plugin()
        .dry_run(import.tool_name(), &arguments, &CallContext::new())
        .is_ok());
}

#[test]
fn wide_objects_and_odd_keys_are_widened() {
    let members: Vec<String> = (0..1000).map(|i| format!("\"k{}\": {}", i, i)).collect();
    let import = ok(&format!(
        "curl https://x.example.com/a --json '{{\"wide\": {{{}}}, \"odd\": {{\"a b\": 1}}}}'",
        members.join(",")
    ));
    let endpoint = import.plugin().endpoints().next().unwrap();
    for name in ["wide", "odd"] {
        assert_eq!(
            endpoint.param(name).unwrap().ty(),
            &ParamType::object([]),
            "{}",
            name
        );
    }
}

#[test]
fn keys_no_provider_accepts_get_unique_names() {
    let import = ok(r#"curl https://x.example.com/a --json '{"名前": 1, "ラベル": 2, "?": 3}'"#);
    let names: Vec<&str> = import
        .plugin()
        .endpoints()
        .next()
        .unwrap()
        .params()
        .iter()
        .map(|p| p.name())
        .collect();
    assert_eq!(names, ["param", "param_2", "param_3"]);
    let long = "k".repeat(300);
    let import = ok(&format!(
        "curl 'https://x.example.com/a?{}=1&{}x=2'",
        long, long
    ));
    let names: Vec<String> = import
        .plugin()
        .endpoints()
        .next()
        .unwrap()
        .params()
        .iter()
        .map(|p| p.name().to_string())
        .collect();
    // Cut to 64 bytes with a hash of the whole key, so the two stay apart by what they are.
    assert_eq!(names.len(), 2);
    assert!(names
        .iter()
        .all(|n| n.len() == 64 && n.starts_with(&"k".repeat(55))));
    assert_ne!(names[0], names[1]);
}

#[test]
fn pairs_and_members_without_a_name() {
    let query = ok("curl 'https://x.example.com/a?=1&b=2&='");
    assert_eq!(query.sample_arguments().len(), 1);
    assert!(query
        .notes()
        .iter()
        .any(|n| n.message() == "a query pair without a name is left out"));
    let form = ok("curl https://x.example.com/a -d '=1&&b=2'");
    assert!(form
        .notes()
        .iter()
        .any(|n| n.message() == "a form pair without a name is left out"));
    let json = ok(r#"curl https://x.example.com/a --json '{"": 1, "b": 2}'"#);
    let endpoint = json.plugin().endpoints().next().unwrap();
    assert!(endpoint.params()[0].is_whole_body());
}

#[test]
fn a_body_no_type_describes_is_an_error() {
    let options = ImportOptions::new();
    assert_eq!(
        kind("curl https://x.example.com/a --json '[1, \"a\"]'", &options),
        ErrorKind::UnsupportedBody
    );
    assert_eq!(
        kind("curl https://x.example.com/a --json 'null'", &options),
        ErrorKind::UnsupportedBody
    );
    assert_eq!(
        kind("curl https://x.example.com/a --json '{'", &options),
        ErrorKind::InvalidJson
    );
    assert_eq!(
        kind(
            "curl https://x.example.com/a -H 'Content-Type: application/json' -d $'\\xff'",
            &options
        ),
        ErrorKind::InvalidJson
    );
    assert_eq!(
        kind("curl https://x.example.com/a -H 'content-type: multipart/form-data; boundary=b' -d 'junk'", &options),
        ErrorKind::UnsupportedBody
    );
}

#[test]
fn bytes_that_are_not_text_are_replaced_with_a_note() {
    let form = ok("curl https://x.example.com/a -d $'name=Jos\\xe9' -d 'city=%FF'");
    assert!(form
        .notes()
        .iter()
        .any(|n| n.message().contains("not UTF-8")));
    assert_eq!(
        form.sample_arguments().get("name").and_then(Json::as_str),
        Some("Jos\u{FFFD}")
    );
    let query = ok("curl 'https://x.example.com/a?q=%FF'");
    assert!(query
        .notes()
        .iter()
        .any(|n| n.message().contains("not UTF-8")));
}

#[test]
fn odd_but_valid_commands_convert_or_fail_clearly() {
    let commands = [
        "curl -X POST https://x.example.com/a -d ''",
        "curl -X POST https://x.example.com/a --data-urlencode ''",
        "curl https://x.example.com/a -d '&&&='",
        "curl https://x.example.com/a -d '=' -d '=='",
        "curl https://x.example.com/a -F '=x'",
        "curl https://x.example.com/a -F 'a=@' -F 'a=x'",
        "curl 'https://x.example.com/a?=&=&a'",
        "curl https://x.example.com/a -H 'X-Empty;' -H 'Authorization;' -u a:b",
        "curl https://x.example.com/a -b '=; ;='",
        "curl https://x.example.com/%2e%2e/a",
        "curl 'https://x.example.com/a?api_key=&token='",
        "curl https://x.example.com/a --json '{\"a\": {\"b\": []}, \"c\": [[]], \"d\": [{}]}'",
        "curl https://x.example.com/a --json '[[1], [2.5], []]'",
        "curl https://x.example.com/a --json '1e400'",
        "curl https://x.example.com/a -H 'Content-Type: application/json' -d @-",
        "curl -u : https://x.example.com/a",
        "curl https://x.example.com/users/@me/emails",
    ];
    for command in commands {
        match convert(command, &ImportOptions::new().infer_path_params(true)) {
            Ok(import) => {
                let arguments = Json::Object(import.sample_arguments().clone()).to_string();
                let _ =
                    import
                        .plugin()
                        .dry_run(import.tool_name(), &arguments, &CallContext::new());
                let _ = curl::to_curl(import.plugin(), None);
            }
            // A plugin error would be a conversion bug: the converter must make valid plugins.
            Err(err) => assert_ne!(err.kind(), ErrorKind::Plugin, "{}: {}", command, err),
        }
    }
}

#[test]
fn export_arguments_past_the_limit_are_an_error() {
    let import = ok("curl https://x.example.com/v1/notes --json '{\"text\": \"x\"}'");
    let big = format!(
        r#"{{"text": "{}"}}"#,
        "x".repeat(httptool::tool::DEFAULT_MAX_ARGUMENT_BYTES)
    );
    let err = curl::to_curl_call(import.plugin(), None, &big).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Call);
    let fits = format!(r#"{{"text": "{}"}}"#, "x".repeat(MB / 2));
    let command = curl::to_curl_call(import.plugin(), None, &fits).unwrap();
    assert!(command.len() > MB / 2);
    assert_eq!(
        curl::parse(&command).unwrap().data()[0]
            .inline()
            .map(<[u8]>::len),
        Some(MB / 2 + 11)
    );
}

#[test]
fn ten_thousand_fields_headers_and_parts_convert_in_linear_time_with_the_cap_raised() {
    // Names, sample arguments, static headers and form parts were each found with a scan
    // of those before them: quadratic once `max_params` let 10,000 through.
    let n = 10_000;
    let unlimited = ImportOptions::new().max_params(usize::MAX);
    let mut command = String::from("curl https://api.example.com/items");
    for i in 0..n {
        command += &format!(" -d f{}=v{}", i, i);
    }
    let import = convert(&command, &unlimited).unwrap();
    let endpoint = import.plugin().endpoints().next().unwrap();
    assert_eq!(endpoint.params().len(), n);
    let sample = import.sample_arguments();
    assert_eq!(sample.len(), n);
    for (i, (name, value)) in sample.iter().enumerate() {
        assert_eq!(name, &format!("f{}", i));
        assert_eq!(value.as_str(), Some(format!("v{}", i).as_str()));
    }

    let mut command = String::from("curl https://api.example.com/items");
    for i in 0..n {
        command += &format!(" -H 'X-H{}: v' -F p{}=w", i, i);
    }
    command += " -H 'x-h0: again'";
    let import = convert(&command, &unlimited).unwrap();
    let file = import.plugin().to_json();
    assert_eq!(file["headers"].as_object().unwrap().len(), n);
    assert_eq!(file["headers"]["X-H0"].as_str(), Some("v, again"));
    assert_eq!(file["endpoints"][0]["params"].as_array().unwrap().len(), n);
}

#[test]
fn a_header_repeated_twenty_thousand_times_is_joined_in_linear_time() {
    // Each repeat rebuilt the joined value (and looked for shell variables in all of it),
    // and each repeated Authorization looked for the last one from the end: quadratic, 8,000
    // repeats holding a variable took 8 s in release.
    let n = 20_000;
    let unlimited = ImportOptions::new().max_params(usize::MAX);
    let mut command = String::from("curl https://api.example.com/items");
    for i in 0..n {
        if i % 2 == 0 {
            command += " -H 'X-Region: eu'";
        } else {
            command += " -H \"X-Region: $REGION\"";
        }
        command += &format!(" -H 'Authorization: Bearer t{}'", i);
    }
    let import = convert(&command, &unlimited).unwrap();
    let file = import.plugin().to_json();
    let joined = vec!["eu, ${REGION}"; n / 2].join(", ");
    assert_eq!(file["headers"]["X-Region"].as_str(), Some(joined.as_str()));
    let names: Vec<&str> = import.variables().iter().map(|v| v.name()).collect();
    assert!(names.contains(&"REGION"), "{:?}", names);
    assert_eq!(names.iter().filter(|&&v| v == "REGION").count(), 1);
    let notes = |text: &str| {
        import
            .notes()
            .iter()
            .filter(|note| note.message().contains(text))
            .count()
    };
    assert_eq!(notes("header `X-Region` is repeated"), n - 1);
    assert_eq!(notes("the Authorization header is repeated"), n - 1);
}

#[test]
fn ten_thousand_distinct_shell_variables_parse_and_convert_in_linear_time() {
    // The parser searched every word for every variable, and the converter every value for
    // every variable: quadratic, 8,000 variables took 29 s in release.
    let n = 10_000;
    let unlimited = ImportOptions::new().max_params(usize::MAX);
    let mut command = String::from("curl https://api.example.com/items");
    for i in 0..n {
        command += &format!(" -H \"X-H{}: a $V{} b\"", i, i);
    }
    // One word holding a variable and its own text written literally is still refused.
    let cmd = curl::parse(&format!("{} -H 'X-Last: ${{V7}}'", command));
    assert_eq!(cmd.unwrap_err().kind(), ErrorKind::VariablePlace);
    let import = convert(&command, &unlimited).unwrap();
    let names: Vec<&str> = import.variables().iter().map(|v| v.name()).collect();
    assert_eq!(names.len(), n);
    assert_eq!((names[0], names[n - 1]), ("V0", "V9999"));
    let file = import.plugin().to_json();
    assert_eq!(file["headers"]["X-H0"].as_str(), Some("a ${V0} b"));
    assert_eq!(file["headers"]["X-H9999"].as_str(), Some("a ${V9999} b"));
}
