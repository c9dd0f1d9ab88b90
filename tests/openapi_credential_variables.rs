//! The variables an imported plugin reads its credentials from: `HTTPTOOL_`, the host the
//! credential goes to, `___`, the scheme's name. A document chooses its title and its
//! schemes' names, and neither can make the plugin read a secret the user holds for
//! something else (`GITHUB_TOKEN`), nor send one host's credential to another.

use httptool::json::{self, Json};
use httptool::openapi;

/// A document titled `GitHub`, with a bearer scheme named `token`, served from `base`.
fn github_titled(base: &str) -> String {
    format!(
        r#"{{"openapi": "3.0.3", "info": {{"title": "GitHub", "version": "1"}},
        "servers": [{{"url": "{}"}}],
        "components": {{"securitySchemes": {{"token": {{"type": "http", "scheme": "bearer"}}}}}},
        "security": [{{"token": []}}],
        "paths": {{"/user": {{"get": {{"operationId": "me"}}}}}}}}"#,
        base
    )
}

#[test]
fn a_document_titled_github_cannot_read_github_token() {
    let d = json::parse(&github_titled("https://collector.attacker.example")).unwrap();
    let import = openapi::import(&d).unwrap();
    assert_eq!(
        import.variables(),
        ["HTTPTOOL_COLLECTOR_ATTACKER_EXAMPLE___TOKEN"]
    );
    let file = import.plugin().to_json().to_string();
    assert!(!file.contains("GITHUB_TOKEN"), "{}", file);
    // The real host's credential has a name of its own.
    let real = json::parse(&github_titled("https://api.github.com")).unwrap();
    assert_eq!(
        openapi::import(&real).unwrap().variables(),
        ["HTTPTOOL_API_GITHUB_COM___TOKEN"]
    );
}

#[test]
fn one_scheme_on_two_hosts_reads_one_variable_a_host() {
    let d = json::parse(
        r#"{"openapi": "3.0.3", "info": {"title": "Two", "version": "1"},
        "servers": [{"url": "https://api.example.com"}],
        "components": {"securitySchemes": {"key": {"type": "apiKey", "in": "header", "name": "X-Key"}}},
        "security": [{"key": []}],
        "paths": {"/a": {"get": {"operationId": "a"}},
                  "/b": {"servers": [{"url": "https://upload.example.net"}], "get": {"operationId": "b"}}}}"#,
    )
    .unwrap();
    let import = openapi::import(&d).unwrap();
    let file = import.plugin().to_json();
    // No plugin-wide auth: it would go to both hosts.
    assert_eq!(file["auth"], Json::Null);
    let defaults: Vec<Json> = (0..2)
        .map(|i| file["endpoints"][i]["params"][0]["default"].clone())
        .collect();
    assert_eq!(
        defaults,
        [
            Json::from("${HTTPTOOL_API_EXAMPLE_COM___KEY}"),
            Json::from("${HTTPTOOL_UPLOAD_EXAMPLE_NET___KEY}")
        ]
    );
    assert_eq!(
        import.variables(),
        [
            "HTTPTOOL_API_EXAMPLE_COM___KEY",
            "HTTPTOOL_UPLOAD_EXAMPLE_NET___KEY"
        ]
    );
}

#[test]
fn aws_names_are_read_only_for_amazon_hosts() {
    let doc = |base: &str| {
        json::parse(&format!(
            r#"{{"openapi": "3.0.3", "info": {{"title": "S", "version": "1", "x-aws-signingName": "s"}},
            "servers": [{{"url": "{}"}}],
            "components": {{"securitySchemes": {{"hmac": {{"type": "apiKey", "in": "header",
              "name": "Authorization", "x-amazon-apigateway-authtype": "awsSigv4"}}}}}},
            "security": [{{"hmac": []}}],
            "paths": {{"/": {{"get": {{"operationId": "a"}}}}}}}}"#,
            base
        ))
        .unwrap()
    };
    let aws = openapi::import(&doc("https://s.us-east-1.amazonaws.com")).unwrap();
    assert_eq!(
        aws.variables(),
        ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"]
    );
    let other = openapi::import(&doc("https://aws.attacker.example")).unwrap();
    assert_eq!(
        other.variables(),
        [
            "HTTPTOOL_AWS_ATTACKER_EXAMPLE___HMAC_ACCESS_KEY_ID",
            "HTTPTOOL_AWS_ATTACKER_EXAMPLE___HMAC_SECRET_ACCESS_KEY"
        ]
    );
}

/// `GITHUB_TOKEN=... httptool call doc.json me '{}'` sent the user's token to the
/// document's server; now the call needs the host's own variable, and `import` names it.
#[cfg(feature = "cli")]
#[test]
fn the_users_github_token_never_reaches_the_documents_server() {
    use crate::support::cli::{httptool, status, stderr, TempDir};
    let server = crate::support::Server::json("{}");
    let dir = TempDir::new("openapi-credential-variables");
    let doc = dir.file("doc.json", &github_titled(&server.base()));
    let out = httptool(
        &["call", &doc, "me", "{}"],
        None,
        &[("GITHUB_TOKEN", "ghp-users-real-token")],
    );
    assert_eq!(status(&out), 1, "{}", stderr(&out));
    let variable = format!("HTTPTOOL_127_0_0_1_{}___TOKEN", server.port());
    assert!(stderr(&out).contains(&variable), "{}", stderr(&out));
    assert!(server.requests().is_empty());
    let out = httptool(
        &["call", &doc, "me", "{}"],
        None,
        &[
            ("GITHUB_TOKEN", "ghp-users-real-token"),
            (variable.as_str(), "meant-for-this-host"),
        ],
    );
    assert_eq!(status(&out), 0, "{}", stderr(&out));
    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(
        requests[0].header("Authorization").as_deref(),
        Some("Bearer meant-for-this-host")
    );
    // `import` prints every variable the plugin reads.
    let out = httptool(&["import", "openapi", &doc], None, &[]);
    assert_eq!(status(&out), 0, "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!("environment variable {}\n", variable)),
        "{}",
        stderr(&out)
    );
}
