//! The command line as a newcomer meets it: specs and dry runs without secrets,
//! `--files DIR`, `--context` hints, `help call`, option suggestions, a one-tool `call`,
//! `(204 No Content)`, `-v`, `tools --list`, and the plugin files of `examples/`, each run
//! against a loopback server standing in for the real host.

use std::process::Output;

use httptool::json::{self, Json};

use crate::support::cli::{status, stderr, stdout, TempDir};
use crate::support::Server;

fn httptool(args: &[&str], env: &[(&str, &str)]) -> Output {
    crate::support::cli::httptool(args, None, env)
}

/// A plugin whose bearer token and tenant header come from variables no test sets.
fn tickets_plugin(base_url: &str) -> String {
    format!(
        r#"{{
  "name": "tickets",
  "base_url": "{}",
  "headers": {{ "X-Tenant": "${{HTTPTOOL_NEWCOMER_TENANT}}" }},
  "auth": {{ "type": "bearer", "token": "${{HTTPTOOL_NEWCOMER_TOKEN}}" }},
  "endpoints": [{{
    "name": "create_ticket",
    "method": "POST",
    "path": "/v1/tickets",
    "params": [ {{ "name": "title", "in": "body", "required": true }} ]
  }}]
}}"#,
        base_url
    )
}

/// A server answering every request `status` with `headers` and `body`.
fn server(status: &'static str, headers: &'static str, body: &'static str) -> Server {
    Server::responding(move |_| {
        (
            status.to_string(),
            headers.to_string(),
            body.as_bytes().to_vec(),
        )
    })
}

#[test]
fn tools_and_list_work_with_no_variable_set() {
    let dir = TempDir::new("newcomer-tools");
    let plugin = dir.file("tickets.json", &tickets_plugin("https://api.example.com"));
    let out = httptool(&["tools", &plugin], &[]);
    assert_eq!(status(&out), 0, "{}", stderr(&out));
    let specs = json::parse(&stdout(&out)).unwrap();
    assert_eq!(
        specs[0]["function"]["name"],
        Json::from("create_ticket"),
        "{}",
        stdout(&out)
    );
    let out = httptool(&["tools", &plugin, "--list"], &[]);
    assert_eq!(status(&out), 0, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "create_ticket  POST /v1/tickets  requires title\n"
    );
}

#[test]
fn tools_list_is_one_aligned_line_a_tool() {
    let out = httptool(&["tools", "examples/github.json", "--list"], &[]);
    assert_eq!(status(&out), 0, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "get_repo      GET /repos/{owner}/{repo}          requires owner, repo\n\
         list_issues   GET /repos/{owner}/{repo}/issues   requires owner, repo\n\
         create_issue  POST /repos/{owner}/{repo}/issues  requires owner, repo, title\n"
    );
}

#[test]
fn a_dry_run_shows_an_unset_variable_as_not_set() {
    let dir = TempDir::new("newcomer-dry");
    let plugin = dir.file("tickets.json", &tickets_plugin("https://api.example.com"));
    let args = [
        "call",
        &plugin,
        "create_ticket",
        r#"{"title":"Jam"}"#,
        "--dry-run",
    ];
    let out = httptool(&args, &[]);
    assert_eq!(status(&out), 0, "{}", stderr(&out));
    assert!(
        stdout(&out).contains("Authorization: ***\r\n"),
        "{}",
        stdout(&out)
    );
    assert!(
        stderr(&out).contains("${HTTPTOOL_NEWCOMER_TOKEN} is not set; the request holds `${HTTPTOOL_NEWCOMER_TOKEN} (not set)` in its place (shown with --reveal-secrets); a real call needs it\n"),
        "{}",
        stderr(&out)
    );
    let mut revealed = args.to_vec();
    revealed.push("--reveal-secrets");
    let out = httptool(&revealed, &[]);
    assert_eq!(status(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("Authorization: Bearer ${HTTPTOOL_NEWCOMER_TOKEN} (not set)\r\n"),
        "{}",
        text
    );
    assert!(
        text.contains("X-Tenant: ${HTTPTOOL_NEWCOMER_TENANT} (not set)\r\n"),
        "{}",
        text
    );
}

#[test]
fn a_real_call_needs_the_variable_and_sends_nothing_without_it() {
    let api = server("200 OK", "", "{}");
    let dir = TempDir::new("newcomer-real");
    let plugin = dir.file("tickets.json", &tickets_plugin(&api.base()));
    let args = ["call", &plugin, r#"{"title":"Jam"}"#];
    let out = httptool(&args, &[("HTTPTOOL_NEWCOMER_TENANT", "acme")]);
    assert_eq!(status(&out), 1);
    assert_eq!(
        stderr(&out),
        format!(
            "httptool: {}: auth.token: environment variable 'HTTPTOOL_NEWCOMER_TOKEN' is not set\n",
            plugin
        )
    );
    assert!(api.requests().is_empty());
}

#[test]
fn an_empty_variable_is_an_error_not_an_empty_bearer_token() {
    let api = server("200 OK", "", "{}");
    let dir = TempDir::new("newcomer-empty");
    let plugin = dir.file("tickets.json", &tickets_plugin(&api.base()));
    let env = [
        ("HTTPTOOL_NEWCOMER_TENANT", "acme"),
        ("HTTPTOOL_NEWCOMER_TOKEN", ""),
    ];
    let out = httptool(&["call", &plugin, r#"{"title":"Jam"}"#], &env);
    assert_eq!(status(&out), 1);
    assert_eq!(
        stderr(&out),
        format!(
            "httptool: {}: auth.token: environment variable 'HTTPTOOL_NEWCOMER_TOKEN' is empty\n",
            plugin
        )
    );
    assert!(
        api.requests().is_empty(),
        "no 'Authorization: Bearer ' sent"
    );
}

#[test]
fn a_one_tool_plugin_is_called_without_a_tool_name() {
    let api = server(
        "200 OK",
        "Content-Type: application/json\r\n",
        r#"{"id":7}"#,
    );
    let dir = TempDir::new("newcomer-one-tool");
    let plugin = dir.file("tickets.json", &tickets_plugin(&api.base()));
    let env = [
        ("HTTPTOOL_NEWCOMER_TENANT", "acme"),
        ("HTTPTOOL_NEWCOMER_TOKEN", "t0ken-value"),
    ];
    let out = httptool(&["call", &plugin, r#"{"title":"Jam"}"#], &env);
    assert_eq!(status(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out), "{\"id\":7}\n");
    let requests = api.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].body, br#"{"title":"Jam"}"#);
    assert_eq!(
        requests[0].header("authorization").as_deref(),
        Some("Bearer t0ken-value")
    );
}

#[test]
fn a_plugin_of_several_tools_needs_the_name_and_lists_them() {
    let out = httptool(&["call", "examples/github.json"], &[("GITHUB_TOKEN", "t")]);
    assert_eq!(status(&out), 2);
    assert!(
        stderr(&out).starts_with("httptool: plugin 'github' has 3 tools; name the one to call: get_repo, list_issues, create_issue\n"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_204_says_no_content_on_standard_error() {
    let api = server("204 No Content", "", "");
    let dir = TempDir::new("newcomer-204");
    let plugin = dir.file("bin.json", &httpbin_at(&api.base()));
    let out = httptool(&["call", &plugin, "status", r#"{"code":204}"#], &[]);
    assert_eq!(status(&out), 0, "{}", stderr(&out));
    assert_eq!(stderr(&out), "(204 No Content)\n");
    assert_eq!(api.requests()[0].target, "/status/204");
}

#[test]
fn verbose_shows_the_status_line_and_headers_with_secrets_masked() {
    // The server echoes the token in a header and sets a session cookie: neither shows.
    let api = server(
        "200 OK",
        "Content-Type: application/json\r\nX-Echo: Bearer t0ken-value\r\nSet-Cookie: session=abcdef\r\n",
        "{}",
    );
    let dir = TempDir::new("newcomer-verbose");
    let plugin = dir.file("tickets.json", &tickets_plugin(&api.base()));
    let env = [
        ("HTTPTOOL_NEWCOMER_TENANT", "acme"),
        ("HTTPTOOL_NEWCOMER_TOKEN", "t0ken-value"),
    ];
    let out = httptool(&["call", &plugin, r#"{"title":"Jam"}"#, "-v"], &env);
    assert_eq!(status(&out), 0, "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.starts_with("HTTP/1.1 200 OK\n"), "{}", err);
    assert!(
        err.contains("\nContent-Type: application/json\n"),
        "{}",
        err
    );
    assert!(err.contains("\nX-Echo: ***\n"), "{}", err);
    assert!(err.contains("\nSet-Cookie: ***\n"), "{}", err);
    assert!(
        !err.contains("t0ken-value") && !err.contains("abcdef"),
        "{}",
        err
    );
    assert_eq!(stdout(&out), "{}\n");
}

#[test]
fn a_missing_context_value_says_to_pass_context() {
    let dir = TempDir::new("newcomer-context");
    let plugin = dir.file(
        "ctx.json",
        r#"{"name": "ctx", "base_url": "https://api.example.com",
            "auth": {"type": "bearer", "token": {"context": "user_token"}},
            "endpoints": [{"name": "me", "path": "/me"}]}"#,
    );
    let out = httptool(&["call", &plugin, "--dry-run"], &[]);
    assert_eq!(status(&out), 2);
    assert!(
        stderr(&out).starts_with("httptool: tool 'me' needs the call context value 'user_token', which no --context gave; pass --context user_token=VALUE\n"),
        "{}",
        stderr(&out)
    );
    let out = httptool(
        &["call", &plugin, "--dry-run", "--context", "user_token=u"],
        &[],
    );
    assert_eq!(status(&out), 0, "{}", stderr(&out));
}

#[test]
fn help_call_prints_the_help_of_call() {
    let help = httptool(&["help", "call"], &[]);
    let flag = httptool(&["call", "--help"], &[]);
    assert_eq!(status(&help), 0);
    assert!(stdout(&help).starts_with("usage: httptool call PLUGIN.json [TOOL]"));
    assert_eq!(stdout(&help), stdout(&flag));
}

#[test]
fn an_unknown_option_suggests_the_closest_and_the_commands_help() {
    let out = httptool(&["tools", "x.json", "--lst"], &[]);
    assert_eq!(status(&out), 2);
    assert!(
        stderr(&out).starts_with("httptool: unknown option '--lst'; did you mean '--list'? (run `httptool tools --help` for its options)\n"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn no_message_speaks_of_a_later_issue() {
    for command in ["demo", "tools", "call", "import", "export", "serve"] {
        let out = httptool(&[command, "--help"], &[]);
        let text = format!("{}{}", stdout(&out), stderr(&out)).to_lowercase();
        assert!(!text.contains("later issue"), "{}: {}", command, text);
        assert!(!text.contains("issue"), "{}: {}", command, text);
    }
    let out = httptool(&["--help"], &[]);
    assert!(!stdout(&out).to_lowercase().contains("issue"));
}

#[test]
fn a_plugin_file_with_a_byte_order_mark_is_called() {
    let dir = TempDir::new("newcomer-bom");
    let text = format!("\u{FEFF}{}", httpbin_at("https://httpbin.org"));
    let plugin = dir.file("bom.json", &text);
    let out = httptool(
        &[
            "call",
            &plugin,
            "echo_get",
            r#"{"message":"hi"}"#,
            "--dry-run",
        ],
        &[],
    );
    assert_eq!(status(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).starts_with("GET /get?message=hi&count=1 HTTP/1.1\r\n"));
}

#[test]
fn a_variable_in_a_path_says_variables_are_not_expanded_there() {
    let dir = TempDir::new("newcomer-path-var");
    let plugin = dir.file(
        "p.json",
        r#"{"name": "p", "base_url": "https://api.example.com",
            "endpoints": [{"name": "me", "path": "/v1/${ACCOUNT}/me"}]}"#,
    );
    let out = httptool(&["tools", &plugin], &[]);
    assert_eq!(status(&out), 1);
    assert_eq!(
        stderr(&out),
        format!(
            "httptool: {}: endpoints[0].path: variables (${{NAME}}) are not expanded in a path; put the value in base_url (which reads ${{NAME}}), or declare a path parameter {{name}} with \"hidden\": true and \"default\": \"${{NAME}}\"\n",
            plugin
        )
    );
}

// ----------------------------------------------------------------- --files DIR

/// The forms example at `base`, a folder of files for it, and a file outside that folder.
struct Upload {
    dir: TempDir,
    plugin: String,
    files: String,
    outside: String,
}

fn upload_setup(test: &str, base: &str) -> Upload {
    let dir = TempDir::new(test);
    let plugin = dir.file("forms.json", &example_at("examples/forms.json", base));
    std::fs::create_dir_all(format!("{}/uploads", dir_path(&plugin))).unwrap();
    dir.file("uploads/report.txt", "quarterly numbers");
    let outside = dir.file("secret.txt", "do not send");
    let files = format!("{}/uploads", dir_path(&plugin));
    Upload {
        dir,
        plugin,
        files,
        outside,
    }
}

fn dir_path(file: &str) -> String {
    std::path::Path::new(file)
        .parent()
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

#[test]
fn files_dir_serves_a_file_under_it_as_a_multipart_part() {
    let api = server("200 OK", "Content-Type: application/json\r\n", "{}");
    let u = upload_setup("newcomer-files", &api.base());
    let args = [
        "call",
        &u.plugin,
        "upload",
        r#"{"file":"report.txt","comment":"q3"}"#,
        "--files",
        &u.files,
    ];
    let out = httptool(&args, &[]);
    assert_eq!(status(&out), 0, "{}", stderr(&out));
    let requests = api.requests();
    let body = String::from_utf8_lossy(&requests[0].body).into_owned();
    assert!(
        body.contains(
            "filename=\"report.txt\"\r\nContent-Type: text/plain\r\n\r\nquarterly numbers\r\n"
        ),
        "{}",
        body
    );
    drop(u.dir);
}

#[test]
fn without_files_dir_a_file_parameter_says_to_use_it() {
    let u = upload_setup("newcomer-no-files", "https://httpbin.org");
    let out = httptool(
        &["call", &u.plugin, "upload", r#"{"file":"report.txt"}"#],
        &[],
    );
    assert_eq!(status(&out), 2);
    assert!(
        stderr(&out).starts_with("httptool: parameter 'file' of tool 'upload' is a file, and httptool reads no file unless told where: pass --files DIR to send files from under DIR\n"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn files_dir_refuses_dot_dot_and_absolute_paths() {
    let u = upload_setup("newcomer-files-escape", "https://httpbin.org");
    for handle in [
        "../secret.txt",
        u.outside.as_str(),
        "uploads/../../secret.txt",
    ] {
        let arguments = httptool::json!({ "file": handle }).to_string();
        let args = [
            "call",
            &u.plugin,
            "upload",
            &arguments,
            "--files",
            &u.files,
            "--dry-run",
        ];
        let out = httptool(&args, &[]);
        assert_eq!(status(&out), 1, "{}", handle);
        let text = stdout(&out);
        assert!(
            text.contains("give a path relative to the folder named with --files, without '..'"),
            "{}: {}",
            handle,
            text
        );
        assert!(!text.contains("do not send"));
    }
}

#[cfg(unix)]
#[test]
fn files_dir_refuses_a_symbolic_link_that_leads_out() {
    let u = upload_setup("newcomer-files-link", "https://httpbin.org");
    let link = format!("{}/link.txt", u.files);
    std::os::unix::fs::symlink(&u.outside, &link).unwrap();
    let args = [
        "call",
        &u.plugin,
        "upload",
        r#"{"file":"link.txt"}"#,
        "--files",
        &u.files,
        "--dry-run",
    ];
    let out = httptool(&args, &[]);
    assert_eq!(status(&out), 1);
    assert!(
        stdout(&out).contains("the file is outside the folder named with --files"),
        "{}",
        stdout(&out)
    );
    assert!(!stdout(&out).contains("do not send"));
}

// ----------------------------------------------------------------- examples/

/// An example plugin file as it is, its base URL pointed at `base` (the loopback server
/// standing in for the real host).
fn example_at(path: &str, base: &str) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let mut value = json::parse(&text).unwrap();
    let prefix = json::parse(&text).unwrap()["base_url"]
        .as_str()
        .and_then(|u| u.splitn(4, '/').nth(3).map(|p| format!("/{}", p)))
        .unwrap_or_default();
    if let Some(map) = value.as_object_mut() {
        map.insert("base_url", format!("{}{}", base, prefix));
    }
    value.to_string()
}

fn httpbin_at(base: &str) -> String {
    example_at("examples/httpbin.json", base)
}

#[test]
fn example_httpbin_echo_runs() {
    let api = server(
        "200 OK",
        "Content-Type: application/json\r\n",
        r#"{"args":{"message":"hi"}}"#,
    );
    let dir = TempDir::new("example-httpbin");
    let plugin = dir.file("httpbin.json", &httpbin_at(&api.base()));
    let out = httptool(&["call", &plugin, "echo_get", r#"{"message":"hi"}"#], &[]);
    assert_eq!(status(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out), "{\"args\":{\"message\":\"hi\"}}\n");
    let out = httptool(
        &[
            "call",
            &plugin,
            "echo_post",
            r#"{"message":"hi","tags":["a"]}"#,
        ],
        &[],
    );
    assert_eq!(status(&out), 0, "{}", stderr(&out));
    let requests = api.requests();
    assert_eq!(requests[0].target, "/get?message=hi&count=1");
    assert_eq!(requests[1].body, br#"{"message":"hi","tags":["a"]}"#);
}

#[test]
fn example_weather_sends_its_key_in_the_query() {
    let api = server(
        "200 OK",
        "Content-Type: application/json\r\n",
        r#"{"main":{"temp":21}}"#,
    );
    let dir = TempDir::new("example-weather");
    let plugin = dir.file(
        "weather.json",
        &example_at("examples/weather.json", &api.base()),
    );
    let out = httptool(
        &["call", &plugin, r#"{"city":"Paris,FR"}"#],
        &[("OPENWEATHER_API_KEY", "k3y-value")],
    );
    assert_eq!(status(&out), 0, "{}", stderr(&out));
    assert_eq!(
        api.requests()[0].target,
        "/data/2.5/weather?q=Paris%2CFR&units=metric&appid=k3y-value"
    );
}

#[test]
fn example_form_posts_a_urlencoded_form() {
    let api = server("200 OK", "Content-Type: application/json\r\n", "{}");
    let u = upload_setup("example-form", &api.base());
    let out = httptool(
        &["call", &u.plugin, "send_form", r#"{"name":"Ann Lee"}"#],
        &[],
    );
    assert_eq!(status(&out), 0, "{}", stderr(&out));
    let requests = api.requests();
    assert_eq!(requests[0].body, b"name=Ann+Lee&subscribe=false");
    assert_eq!(
        requests[0].header("content-type").as_deref(),
        Some("application/x-www-form-urlencoded")
    );
}

#[test]
fn example_github_sends_its_bearer_token_and_headers() {
    let api = server(
        "201 Created",
        "Content-Type: application/json\r\n",
        r#"{"number":1}"#,
    );
    let dir = TempDir::new("example-github");
    let plugin = dir.file(
        "github.json",
        &example_at("examples/github.json", &api.base()),
    );
    let arguments = r#"{"owner":"octo","repo":"hello","title":"Bug"}"#;
    let out = httptool(
        &["call", &plugin, "create_issue", arguments],
        &[("GITHUB_TOKEN", "ghp-t0ken")],
    );
    assert_eq!(status(&out), 0, "{}", stderr(&out));
    let request = &api.requests()[0];
    assert_eq!(request.target, "/repos/octo/hello/issues");
    assert_eq!(
        request.header("authorization").as_deref(),
        Some("Bearer ghp-t0ken")
    );
    assert_eq!(
        request.header("accept").as_deref(),
        Some("application/vnd.github+json")
    );
    assert_eq!(request.body, br#"{"title":"Bug"}"#);
}
