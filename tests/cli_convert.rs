//! `httptool import curl` and `httptool export curl`, run as the built binary: standard
//! output, standard error and the exit status.

use httptool::json::{self, Json};

use crate::support::cli::{httptool, status, stderr, stdout, TempDir};

const TICKETS: &str = r#"curl https://api.example.com/v1/tickets \
  -H 'Authorization: Bearer t0ken' \
  -H 'sec-fetch-mode: cors' \
  --json '{"title": "Printer on fire", "priority": 2}'"#;

#[test]
fn import_prints_the_plugin_and_reports_on_stderr() {
    let output = httptool(&["import", "curl", TICKETS], None, &[]);
    assert_eq!(status(&output), 0, "{}", stderr(&output));
    let plugin = json::parse(&stdout(&output)).expect("a JSON plugin file");
    assert_eq!(plugin["name"], httptool::json!("example"));
    assert_eq!(
        plugin["endpoints"][0]["name"],
        httptool::json!("create_ticket")
    );
    assert_eq!(plugin["auth"]["token"], httptool::json!("${EXAMPLE_TOKEN}"));
    assert!(!stdout(&output).contains("t0ken"));
    assert_eq!(
        stderr(&output),
        "note: argument 4: header `sec-fetch-mode` is left out: a browser adds it and the API does not need it\n\
         environment variable EXAMPLE_TOKEN: the bearer token\n\
         tool create_ticket; arguments replaying the command: {\"title\":\"Printer on fire\",\"priority\":2}\n"
    );
}

#[test]
fn import_reads_the_command_from_stdin() {
    for args in [&["import", "curl"][..], &["import", "curl", "-"][..]] {
        let output = httptool(args, Some(TICKETS), &[]);
        assert_eq!(status(&output), 0, "{}", stderr(&output));
        assert!(stdout(&output).contains("\"create_ticket\""));
    }
}

#[test]
fn import_takes_the_words_after_a_double_dash() {
    let output = httptool(
        &[
            "import",
            "curl",
            "--name",
            "add",
            "--",
            "curl",
            "-X",
            "POST",
            "https://api.example.com/a b",
            "-d",
            "x=1",
        ],
        None,
        &[],
    );
    // The words are taken as they are, so the space reaches the URL parser.
    assert_eq!(status(&output), 1);
    assert_eq!(
        stderr(&output),
        "httptool: the URL at argument 3 cannot be used: invalid url: whitespace is not accepted in a url: percent-encode it (at byte 25)\n"
    );
    let output = httptool(
        &[
            "import",
            "curl",
            "--name",
            "add",
            "--",
            "curl",
            "-X",
            "POST",
            "https://api.example.com/a",
            "-d",
            "x=1",
        ],
        None,
        &[],
    );
    assert_eq!(status(&output), 0, "{}", stderr(&output));
    assert!(stdout(&output).contains("\"name\": \"add\""));
}

#[test]
fn import_options() {
    let output = httptool(
        &[
            "import",
            "curl",
            "curl 'https://api.example.com/users/42?fields=name' -H 'X-Api-Key: k3y' -H 'sec-ch-ua: x'",
            "--name",
            "fetch_user",
            "--plugin-name",
            "people",
            "--description",
            "One user",
            "--defaults",
            "--infer-path",
            "--keep-secrets",
            "--keep-browser-headers",
        ],
        None,
        &[],
    );
    assert_eq!(status(&output), 0, "{}", stderr(&output));
    let plugin = json::parse(&stdout(&output)).unwrap();
    let endpoint = &plugin["endpoints"][0];
    assert_eq!(plugin["name"], httptool::json!("people"));
    assert_eq!(endpoint["name"], httptool::json!("fetch_user"));
    assert_eq!(endpoint["description"], httptool::json!("One user"));
    assert_eq!(endpoint["path"], httptool::json!("/users/{user_id}"));
    assert_eq!(endpoint["params"][0]["default"], httptool::json!(42));
    assert_eq!(plugin["auth"]["value"], httptool::json!("k3y"));
    assert_eq!(plugin["headers"]["sec-ch-ua"], httptool::json!("x"));
    assert!(!stderr(&output).contains("environment variable"));
}

#[test]
fn import_errors() {
    let openapi = httptool(&["import", "openapi", "no-such-spec.json"], None, &[]);
    assert_eq!(status(&openapi), 1);
    assert!(
        stderr(&openapi).starts_with("httptool: cannot read no-such-spec.json: "),
        "{}",
        stderr(&openapi)
    );
    let none = httptool(&["import"], None, &[]);
    assert_eq!(status(&none), 2);
    assert!(stderr(&none).starts_with("httptool: import needs a format"));
    let other = httptool(&["import", "wget", "x"], None, &[]);
    assert_eq!(status(&other), 2);
    let quote = httptool(
        &["import", "curl", "curl 'https://x.example.com"],
        None,
        &[],
    );
    assert_eq!(status(&quote), 1);
    assert_eq!(
        stderr(&quote),
        "httptool: the curl command cannot be read: unterminated single quote opened at byte 5 (argument 1); close it\n"
    );
    let body = httptool(
        &[
            "import",
            "curl",
            "curl https://x.example.com -H 'Content-Type: text/xml' -d '<a/>'",
        ],
        None,
        &[],
    );
    assert_eq!(status(&body), 1);
    assert!(
        stderr(&body).contains("it is `text/xml` data"),
        "{}",
        stderr(&body)
    );
    let unknown = httptool(
        &["import", "curl", "curl https://x.example.com", "--defualts"],
        None,
        &[],
    );
    assert_eq!(status(&unknown), 2);
    assert!(stdout(&unknown).is_empty());
}

#[test]
fn help_texts() {
    for (args, first) in [
        (&["import", "--help"][..], "usage: httptool import curl"),
        (&["import", "curl", "-h"][..], "usage: httptool import curl"),
        (&["export", "--help"][..], "usage: httptool export curl"),
    ] {
        let output = httptool(args, None, &[]);
        assert_eq!(status(&output), 0);
        assert!(stdout(&output).starts_with(first), "{}", stdout(&output));
    }
}

/// The plugin file of `TICKETS`, written in `dir`.
fn tickets_file(dir: &TempDir) -> String {
    let output = httptool(&["import", "curl", TICKETS], None, &[]);
    assert_eq!(status(&output), 0, "{}", stderr(&output));
    dir.file("tickets.json", &stdout(&output))
}

#[test]
fn export_prints_the_command() {
    let dir = TempDir::new("export");
    let path = tickets_file(&dir);
    let path = path.as_str();
    let ua = format!("-H 'User-Agent: {}'", httptool::http::DEFAULT_USER_AGENT);
    let placeholders = httptool(&["export", "curl", path], None, &[]);
    assert_eq!(status(&placeholders), 0, "{}", stderr(&placeholders));
    assert_eq!(
        stdout(&placeholders),
        format!(
            "curl https://api.example.com/v1/tickets {} -H 'Content-Type: application/json' -H 'Accept: application/json' -H 'Authorization: ***' --data-binary '{{\"title\":\"<title>\",\"priority\":<priority>}}'\n",
            ua
        )
    );
    let arguments = r#"{"title":"Fire","priority":1}"#;
    let call = httptool(
        &[
            "export",
            "curl",
            path,
            "create_ticket",
            arguments,
            "--reveal-secrets",
        ],
        None,
        &[("EXAMPLE_TOKEN", "t-9")],
    );
    assert_eq!(status(&call), 0, "{}", stderr(&call));
    assert!(
        stdout(&call).contains(
            "-H 'Authorization: Bearer t-9' --data-binary '{\"title\":\"Fire\",\"priority\":1}'"
        ),
        "{}",
        stdout(&call)
    );
    let from_stdin = httptool(
        &["export", "curl", path, "create_ticket", "-", "--multiline"],
        Some(arguments),
        &[],
    );
    assert_eq!(status(&from_stdin), 0, "{}", stderr(&from_stdin));
    assert!(
        stdout(&from_stdin).contains(" \\\n  -H 'Authorization: ***' \\\n  --data-binary"),
        "{}",
        stdout(&from_stdin)
    );
    let without_tool = httptool(&["export", "curl", path, arguments], None, &[]);
    assert_eq!(
        stdout(&without_tool),
        stdout(&httptool(
            &["export", "curl", path, "create_ticket", arguments],
            None,
            &[]
        ))
    );
}

#[test]
fn export_reveals_only_variables_that_are_set() {
    let dir = TempDir::new("reveal");
    let path = tickets_file(&dir);
    let output = httptool(&["export", "curl", &path, "--reveal-secrets"], None, &[]);
    assert_eq!(status(&output), 1);
    assert!(
        stderr(&output).ends_with("auth.token: environment variable 'EXAMPLE_TOKEN' is not set\n"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn export_with_a_context_value() {
    let plugin = r#"{"name": "t", "base_url": "https://api.example.com",
        "auth": {"type": "bearer", "token": {"context": "user_token"}},
        "endpoints": [{"name": "me", "path": "/me"}]}"#;
    let dir = TempDir::new("context");
    let path = dir.file("plugin.json", plugin);
    let path = path.as_str();
    let output = httptool(
        &[
            "export",
            "curl",
            path,
            "--reveal-secrets",
            "--context",
            "user_token=u-1",
        ],
        None,
        &[],
    );
    assert_eq!(status(&output), 0, "{}", stderr(&output));
    assert!(
        stdout(&output).ends_with("-H 'Authorization: Bearer u-1'\n"),
        "{}",
        stdout(&output)
    );
    let bad = httptool(&["export", "curl", path, "--context", "novalue"], None, &[]);
    assert_eq!(status(&bad), 2);
}

#[test]
fn export_errors() {
    let plugin = r#"{"name": "t", "base_url": "https://api.example.com",
        "endpoints": [{"name": "list_notes", "path": "/notes"},
                      {"name": "get_note", "path": "/notes/{id}", "params": [{"name": "id", "in": "path"}]}]}"#;
    let dir = TempDir::new("errors");
    let path = dir.file("plugin.json", plugin);
    let path = path.as_str();
    let several = httptool(&["export", "curl", path], None, &[]);
    assert_eq!(status(&several), 1);
    assert_eq!(
        stderr(&several),
        "httptool: the plugin has 2 tools; name the one to export: list_notes, get_note\n"
    );
    let unknown = httptool(&["export", "curl", path, "get_notes"], None, &[]);
    assert_eq!(status(&unknown), 1);
    assert!(
        stderr(&unknown).contains("did you mean 'get_note'?"),
        "{}",
        stderr(&unknown)
    );
    let arguments = httptool(
        &["export", "curl", path, "get_note", "{\"id\": \"..\"}"],
        None,
        &[],
    );
    assert_eq!(status(&arguments), 1);
    assert!(
        stderr(&arguments).starts_with("httptool: the call cannot be built (invalid_parameter)"),
        "{}",
        stderr(&arguments)
    );
    let missing = httptool(&["export", "curl", "/nonexistent/plugin.json"], None, &[]);
    assert_eq!(status(&missing), 1);
    let format = httptool(&["export", "wget", path], None, &[]);
    assert_eq!(status(&format), 2);
    let none = httptool(&["export"], None, &[]);
    assert_eq!(status(&none), 2);
}

#[test]
fn import_then_export_replays_the_command() {
    let command = "curl -X PATCH 'https://api.example.com/v2/users/42?notify=true' -H 'Accept: application/json' -d 'name=Ann+Lee&role=admin'";
    let imported = httptool(&["import", "curl", command], None, &[]);
    assert_eq!(status(&imported), 0, "{}", stderr(&imported));
    let dir = TempDir::new("replay");
    let path = dir.file("users.json", &stdout(&imported));
    let arguments = stderr(&imported)
        .lines()
        .find_map(|line| {
            line.split_once("replaying the command: ")
                .map(|(_, a)| a.to_string())
        })
        .expect("the sample arguments on stderr");
    let exported = httptool(&["export", "curl", &path, &arguments], None, &[]);
    assert_eq!(status(&exported), 0, "{}", stderr(&exported));
    let line = stdout(&exported);
    let cmd = httptool::curl::parse(line.trim_end()).expect("the export parses");
    assert_eq!(cmd.method(), "PATCH");
    assert_eq!(cmd.url(), "https://api.example.com/v2/users/42?notify=true");
    assert_eq!(cmd.header("accept"), Some("application/json"));
    assert_eq!(
        cmd.data()[0].inline(),
        Some(&b"name=Ann+Lee&role=admin"[..])
    );
    let parsed: Json = json::parse(&arguments).unwrap();
    assert_eq!(parsed["notify"], httptool::json!(true));
}

#[test]
fn import_reports_what_it_leaves_unread() {
    let output = httptool(
        &[
            "import",
            "curl",
            "curl -sS -o out.json --resolve api.example.com:443:10.0.0.1 --connect-to ::other:8443 \
             --unix-socket /tmp/s -H @headers.txt -H 'Content-Type: application/json' -d @body.json \
             https://api.example.com/v1/things",
        ],
        None,
        &[],
    );
    assert_eq!(status(&output), 0, "{}", stderr(&output));
    assert_eq!(
        stderr(&output),
        "note: argument 2: -o/--output: curl would write a file here; httptool hands the response to the caller\n\
         note: argument 4: --resolve: changes how curl connects; httptool connects to the URL's own host and port\n\
         note: argument 6: --connect-to: changes how curl connects; httptool connects to the URL's own host and port\n\
         note: argument 8: --unix-socket: changes how curl connects; httptool connects to the URL's own host and port\n\
         note: argument 10: -H/--header: curl would read headers from a file; httptool reads no file, they are left out\n\
         note: argument 14: -d/--data: curl would read this data from a file; it is kept as an inert reference and not read\n\
         note: argument 14: curl would read the JSON body from a file, which is not read; the tool takes the whole body as its `body` parameter\n\
         tool create_thing; arguments replaying the command: {}; no sample for: body\n"
    );
    let form = httptool(
        &[
            "import",
            "curl",
            "curl -F 'doc=@/etc/passwd' https://api.example.com/v1/up",
        ],
        None,
        &[],
    );
    assert_eq!(status(&form), 0);
    assert!(
        stderr(&form).contains("form part `doc` is a file"),
        "{}",
        stderr(&form)
    );
    let config = httptool(
        &["import", "curl", "curl -K cfg.txt https://x.example.com"],
        None,
        &[],
    );
    assert_eq!(status(&config), 1);
    assert_eq!(
        stderr(&config),
        "httptool: the curl command cannot be read: -K/--config at argument 1 is not supported: it reads options from a file, which httptool never does; put the options on the command line\n"
    );
}
