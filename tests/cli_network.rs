//! The command line's network: `--version` saying whether https is built in, the
//! roots https trusts (`--ca-file`, `HTTPTOOL_CA_FILE`, `--no-default-roots`), proxies from
//! the environment and from `--proxy`/`--no-proxy`, and `--timeout`. Everything runs the
//! built binary against servers and proxies on 127.0.0.1 written here or in the support
//! modules; nothing leaves the machine. The https tests need the `tls` feature (`.ci/run`
//! runs `cargo test --features tls`); the http-only build has its own: the install command.

use std::process::Output;

use crate::support::cli::{httptool as run, status, stderr, stdout, TempDir};
use crate::support::Server;

/// The password every proxy URL here holds: it must never be printed.
const SECRET: &str = "pr0xy-s3cret";

/// A one-tool plugin file (`ping`, GET /ping) for `base_url`, with extra plugin fields.
fn plugin(dir: &TempDir, base_url: &str, extra: &str) -> String {
    dir.file(
        "net.json",
        &format!(
            r#"{{"name": "net", "base_url": "{}", {} "endpoints": [{{"name": "ping", "path": "/ping"}}]}}"#,
            base_url, extra
        ),
    )
}

/// Neither output of a run shows the proxy password.
fn assert_no_secret(output: &Output) {
    let (out, err) = (stdout(output), stderr(output));
    assert!(
        !out.contains(SECRET) && !err.contains(SECRET),
        "{}\n{}",
        out,
        err
    );
}

/// A loopback http proxy: it answers every request itself (the absolute-form target back,
/// as JSON) and records what it read.
fn forward_proxy() -> Server {
    Server::responding(|request| {
        (
            "200 OK".to_string(),
            "Content-Type: application/json\r\n".to_string(),
            format!(r#"{{"via": "proxy", "target": "{}"}}"#, request.target).into_bytes(),
        )
    })
}

#[test]
fn version_says_whether_https_is_built_in() {
    let output = run(&["--version"], None, &[]);
    assert_eq!(status(&output), 0);
    let line = stdout(&output);
    assert!(line.starts_with(concat!("httptool ", env!("CARGO_PKG_VERSION"))));
    if cfg!(feature = "tls") {
        assert!(line.contains("(https: yes"), "{}", line);
    } else {
        assert!(
            line.contains("http only") && line.contains("cargo install httptool --features tls"),
            "{}",
            line
        );
    }
}

#[test]
fn help_of_call_and_serve_names_the_proxy_variables_and_options() {
    for command in ["call", "serve"] {
        let help = stdout(&run(&[command, "--help"], None, &[]));
        for word in [
            "HTTPS_PROXY",
            "http_proxy",
            "NO_PROXY",
            "--proxy URL",
            "--no-proxy",
            "--ca-file PATH",
            "HTTPTOOL_CA_FILE",
            "--no-default-roots",
            "--timeout SECONDS",
        ] {
            assert!(help.contains(word), "{} --help lacks {}", command, word);
        }
    }
}

#[cfg(not(feature = "tls"))]
#[test]
fn an_https_url_without_tls_says_the_install_command() {
    let dir = TempDir::new("net-https-no-tls");
    let file = plugin(&dir, "https://127.0.0.1:9", "");
    let output = run(&["call", &file, "ping"], None, &[]);
    assert_eq!(status(&output), 1);
    let err = stderr(&output);
    assert!(
        err.contains(
            "this httptool was built without https: install one with https by `cargo install httptool --features tls`"
        ),
        "{}",
        err
    );
}

#[cfg(not(feature = "tls"))]
#[test]
fn ca_file_without_tls_says_the_install_command() {
    let dir = TempDir::new("net-ca-no-tls");
    let file = plugin(&dir, "http://127.0.0.1:9", "");
    let output = run(&["call", &file, "ping", "--ca-file", "ca.pem"], None, &[]);
    assert_eq!(status(&output), 2);
    assert!(stderr(&output).contains(
        "--ca-file is for https, and this httptool was built without it: install one with https by `cargo install httptool --features tls`"
    ));
}

#[test]
fn http_proxy_from_the_environment_gets_the_absolute_url_and_its_credentials() {
    let proxy = forward_proxy();
    let dir = TempDir::new("net-http-proxy");
    // A host that does not resolve: only the proxy can answer for it.
    let file = plugin(&dir, "http://api.internal.test:8080", "");
    let proxy_url = format!("http://user:{}@127.0.0.1:{}", SECRET, proxy.port());
    let output = run(
        &["call", &file, "ping"],
        None,
        &[("http_proxy", &proxy_url)],
    );
    assert_eq!(status(&output), 0, "{}", stderr(&output));
    assert!(stdout(&output).contains(r#""via": "proxy""#));
    let requests = proxy.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].target, "http://api.internal.test:8080/ping");
    assert_eq!(
        requests[0].header("proxy-authorization"),
        Some(httptool::http::basic_auth("user", SECRET))
    );
    assert_no_secret(&output);
}

#[test]
fn upper_case_http_proxy_is_ignored_for_the_httpoxy_reason() {
    let proxy = forward_proxy();
    let api = Server::json(r#"{"via": "direct"}"#);
    let dir = TempDir::new("net-httpoxy");
    let file = plugin(&dir, &api.base(), "");
    let proxy_url = format!("http://127.0.0.1:{}", proxy.port());
    let output = run(
        &["call", &file, "ping"],
        None,
        &[("HTTP_PROXY", &proxy_url)],
    );
    assert_eq!(status(&output), 0, "{}", stderr(&output));
    assert!(stdout(&output).contains("direct"));
    assert!(proxy.requests().is_empty());
}

#[test]
fn no_proxy_bypasses_the_environment_proxy() {
    let proxy = forward_proxy();
    let api = Server::json(r#"{"via": "direct"}"#);
    let dir = TempDir::new("net-no-proxy-var");
    let file = plugin(&dir, &api.base(), "");
    let proxy_url = format!("http://127.0.0.1:{}", proxy.port());
    for no_proxy in ["NO_PROXY", "no_proxy"] {
        let env = [("http_proxy", proxy_url.as_str()), (no_proxy, "127.0.0.1")];
        let output = run(&["call", &file, "ping"], None, &env);
        assert_eq!(status(&output), 0, "{}", stderr(&output));
        assert!(stdout(&output).contains("direct"));
    }
    assert!(proxy.requests().is_empty());
    assert_eq!(api.requests().len(), 2);
}

#[test]
fn no_proxy_flag_and_proxy_flag_override_the_environment() {
    let proxy = forward_proxy();
    let api = Server::json(r#"{"via": "direct"}"#);
    let dir = TempDir::new("net-proxy-flags");
    let file = plugin(&dir, &api.base(), "");
    // The environment names a proxy nothing listens on.
    let dead = [("http_proxy", "http://127.0.0.1:9")];
    let direct = run(&["call", &file, "ping", "--no-proxy"], None, &dead);
    assert_eq!(status(&direct), 0, "{}", stderr(&direct));
    assert!(stdout(&direct).contains("direct"));
    let flag = format!("--proxy=http://127.0.0.1:{}", proxy.port());
    let proxied = run(&["call", &file, "ping", &flag], None, &dead);
    assert_eq!(status(&proxied), 0, "{}", stderr(&proxied));
    assert!(stdout(&proxied).contains(r#""via": "proxy""#));
    assert_eq!(proxy.requests().len(), 1);
    let both = run(&["call", &file, "ping", &flag, "--no-proxy"], None, &[]);
    assert_eq!(status(&both), 2);
    assert!(stderr(&both).contains("--proxy and --no-proxy contradict each other"));
}

#[test]
fn a_dry_run_through_a_proxy_masks_its_credentials() {
    let dir = TempDir::new("net-dry-run");
    let file = plugin(&dir, "http://api.internal.test", "");
    let flag = format!("--proxy=http://user:{}@127.0.0.1:9", SECRET);
    let output = run(&["call", &file, "ping", "--dry-run", &flag], None, &[]);
    assert_eq!(status(&output), 0, "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.starts_with("GET http://api.internal.test/ping HTTP/1.1\r\n"),
        "{}",
        text
    );
    assert!(text.contains("Proxy-Authorization: ***\r\n"), "{}", text);
    assert_no_secret(&output);
}

#[test]
fn an_unusable_proxy_variable_is_named_without_its_value() {
    let dir = TempDir::new("net-bad-proxy");
    let file = plugin(&dir, "http://127.0.0.1:9", "");
    let value = format!("socks5://user:{}@proxy:1080", SECRET);
    let output = run(&["call", &file, "ping"], None, &[("HTTPS_PROXY", &value)]);
    assert_eq!(status(&output), 1);
    assert_eq!(
        stderr(&output),
        "httptool: HTTPS_PROXY: invalid proxy setting: only http:// proxies are supported; fix it, or pass --no-proxy or --proxy URL\n"
    );
    let flag = format!("--proxy={}", value);
    let output = run(&["call", &file, "ping", &flag], None, &[]);
    assert_eq!(status(&output), 2);
    assert!(stderr(&output).starts_with("httptool: --proxy: invalid proxy setting"));
    assert_no_secret(&output);
}

#[test]
fn a_strict_plugin_through_a_proxy_is_refused_and_the_error_says_why() {
    let proxy = forward_proxy();
    let dir = TempDir::new("net-strict-proxy");
    let file = plugin(
        &dir,
        "http://api.internal.test",
        r#""address_policy": "strict","#,
    );
    let flag = format!("--proxy=http://user:{}@127.0.0.1:{}", SECRET, proxy.port());
    let output = run(&["call", &file, "ping", &flag], None, &[]);
    assert_eq!(status(&output), 1);
    assert!(stdout(&output)
        .contains("the strict address policy needs a host allowlist when a proxy is used"));
    let err = stderr(&output);
    assert!(
        err.contains("a strict plugin through a proxy needs a host allowlist")
            && err.contains("--no-proxy"),
        "{}",
        err
    );
    assert!(proxy.requests().is_empty());
    assert_no_secret(&output);
}

#[test]
fn timeout_sets_the_whole_call_deadline_over_the_plugins_own() {
    // The server reads the request and never answers; it lets go when the client does.
    let api = Server::start(|mut peer| while peer.read_request().is_some() {});
    let dir = TempDir::new("net-timeout");
    let file = plugin(&dir, &api.base(), r#""timeout_call_ms": 600000,"#);
    let output = run(&["call", &file, "ping", "--timeout", "0.3"], None, &[]);
    assert_eq!(status(&output), 1);
    assert!(
        stdout(&output).contains("the call timed out after 300ms (timeout_call)"),
        "{}",
        stdout(&output)
    );
    let err = stderr(&output);
    assert!(
        err.starts_with("httptool: the call failed: timeout\n"),
        "{}",
        err
    );
    assert!(err.contains("--timeout SECONDS"), "{}", err);
    let bad = run(&["call", &file, "ping", "--timeout", "0"], None, &[]);
    assert_eq!(status(&bad), 2);
    assert_eq!(
        stderr(&bad).lines().next(),
        Some("httptool: --timeout takes a number of seconds above 0 (such as 30 or 2.5), got '0'")
    );
}

#[test]
fn serve_sends_through_the_proxy_and_takes_the_timeout() {
    let proxy = forward_proxy();
    let dir = TempDir::new("net-serve");
    let file = plugin(&dir, "http://api.internal.test", "");
    let proxy_url = format!("http://user:{}@127.0.0.1:{}", SECRET, proxy.port());
    let input = concat!(
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ping","arguments":{}}}"#,
        "\n",
    );
    let output = run(
        &["serve", &file, "--timeout", "20"],
        Some(input),
        &[("http_proxy", &proxy_url)],
    );
    assert_eq!(status(&output), 0, "{}", stderr(&output));
    let out = stdout(&output);
    assert!(out.contains(r#"\"via\": \"proxy\""#), "{}", out);
    assert_eq!(
        proxy.requests()[0].header("proxy-authorization"),
        Some(httptool::http::basic_auth("user", SECRET))
    );
    assert_no_secret(&output);
}

#[cfg(feature = "tls")]
mod https {
    use super::*;
    use crate::support::connect_proxy::ConnectProxy;
    use crate::support::tls::{TlsServer, CA, LOCALHOST, OTHER_HOST};

    const OK: &str = r#"{"via": "https"}"#;

    /// The test CA written to a file of `dir`.
    fn ca_file(dir: &TempDir) -> String {
        dir.file("ca.pem", std::str::from_utf8(CA).unwrap())
    }

    #[test]
    fn a_test_ca_is_trusted_only_with_ca_file() {
        let server = TlsServer::ok(LOCALHOST, OK);
        let dir = TempDir::new("net-ca-file");
        let file = plugin(&dir, &server.url(""), "");
        let ca = ca_file(&dir);

        let refused = run(&["call", &file, "ping"], None, &[]);
        assert_eq!(status(&refused), 1);
        assert!(stdout(&refused).contains("certificate not trusted"));
        let err = stderr(&refused);
        assert!(
            err.contains("the server's certificate failed the issuer check")
                && err.contains("--ca-file PATH"),
            "{}",
            err
        );

        let trusted = run(&["call", &file, "ping", "--ca-file", &ca], None, &[]);
        assert_eq!(status(&trusted), 0, "{}", stderr(&trusted));
        assert!(stdout(&trusted).contains("https"));

        let alone = run(
            &[
                "call",
                &file,
                "ping",
                "--ca-file",
                &ca,
                "--no-default-roots",
            ],
            None,
            &[],
        );
        assert_eq!(status(&alone), 0, "{}", stderr(&alone));
    }

    #[test]
    fn ca_file_variable_takes_several_paths() {
        let server = TlsServer::ok(LOCALHOST, OK);
        let dir = TempDir::new("net-ca-var");
        let file = plugin(&dir, &server.url(""), "");
        let other = dir.file("leaf.pem", std::str::from_utf8(OTHER_HOST).unwrap());
        let paths = std::env::join_paths([other, ca_file(&dir)]).unwrap();
        let paths = paths.to_str().unwrap();
        let output = run(
            &["call", &file, "ping"],
            None,
            &[("HTTPTOOL_CA_FILE", paths)],
        );
        assert_eq!(status(&output), 0, "{}", stderr(&output));
        // --ca-file given: the variable is not read.
        let flag = run(
            &[
                "call",
                &file,
                "ping",
                "--ca-file",
                &dir.file("x.pem", std::str::from_utf8(OTHER_HOST).unwrap()),
            ],
            None,
            &[("HTTPTOOL_CA_FILE", paths)],
        );
        assert_eq!(status(&flag), 1);
    }

    #[test]
    fn a_bad_ca_file_is_an_error_naming_it() {
        let dir = TempDir::new("net-bad-ca");
        let file = plugin(&dir, "https://localhost:9", "");
        let junk = dir.file("junk.pem", "not a certificate\n");
        let output = run(&["call", &file, "ping", "--ca-file", &junk], None, &[]);
        assert_eq!(status(&output), 1);
        assert!(
            stderr(&output).starts_with(&format!("httptool: {}: invalid root certificate", junk)),
            "{}",
            stderr(&output)
        );
        let missing = format!("{}.missing", junk);
        let output = run(&["call", &file, "ping", "--ca-file", &missing], None, &[]);
        assert_eq!(status(&output), 1);
        assert!(stderr(&output)
            .starts_with(&format!("httptool: cannot read the CA file {}: ", missing)));
        let output = run(&["call", &file, "ping", "--no-default-roots"], None, &[]);
        assert_eq!(status(&output), 2);
        assert!(stderr(&output).contains("--no-default-roots needs --ca-file PATH"));
    }

    #[test]
    fn a_certificate_for_another_host_names_the_failed_check() {
        let server = TlsServer::ok(OTHER_HOST, OK);
        let dir = TempDir::new("net-mismatch");
        let file = plugin(&dir, &server.url(""), "");
        let output = run(
            &["call", &file, "ping", "--ca-file", &ca_file(&dir)],
            None,
            &[],
        );
        assert_eq!(status(&output), 1);
        assert!(stdout(&output).contains("certificate hostname mismatch"));
        let err = stderr(&output);
        assert!(err.contains("failed the host name check"), "{}", err);
        assert!(!err.contains("--ca-file"), "{}", err);
    }

    #[test]
    fn https_proxy_tunnels_with_credentials_that_are_never_shown() {
        let server = TlsServer::ok(LOCALHOST, OK);
        let proxy = ConnectProxy::start("HTTP/1.1 200 Connection established\r\n\r\n");
        let dir = TempDir::new("net-connect-auth");
        let file = plugin(&dir, &server.url(""), "");
        let proxy_url = format!("http://user:{}@{}", SECRET, proxy.addr);
        let output = run(
            &["call", &file, "ping", "--ca-file", &ca_file(&dir)],
            None,
            &[("HTTPS_PROXY", &proxy_url)],
        );
        assert_eq!(status(&output), 0, "{}", stderr(&output));
        assert!(stdout(&output).contains("https"));
        let heads = proxy.heads();
        assert_eq!(heads.len(), 1);
        assert!(heads[0].starts_with(&format!("CONNECT localhost:{} HTTP/1.1\r\n", server.port())));
        let expected = format!(
            "Proxy-Authorization: {}\r\n",
            httptool::http::basic_auth("user", SECRET)
        );
        assert!(heads[0].contains(&expected), "{}", heads[0]);
        assert_eq!(server.requests().len(), 1);
        assert_no_secret(&output);
    }

    #[test]
    fn https_proxy_without_credentials_sends_none() {
        let server = TlsServer::ok(LOCALHOST, OK);
        let proxy = ConnectProxy::start("HTTP/1.1 200 Connection established\r\n\r\n");
        let dir = TempDir::new("net-connect");
        let file = plugin(&dir, &server.url(""), "");
        let proxy_url = format!("http://{}", proxy.addr);
        let output = run(
            &["call", &file, "ping", "--ca-file", &ca_file(&dir)],
            None,
            &[("https_proxy", &proxy_url)],
        );
        assert_eq!(status(&output), 0, "{}", stderr(&output));
        let heads = proxy.heads();
        assert_eq!(heads.len(), 1);
        assert!(!heads[0]
            .to_ascii_lowercase()
            .contains("proxy-authorization"));
    }

    #[test]
    fn no_proxy_bypasses_the_tunnel() {
        let server = TlsServer::ok(LOCALHOST, OK);
        let proxy = ConnectProxy::start("HTTP/1.1 200 Connection established\r\n\r\n");
        let dir = TempDir::new("net-connect-bypass");
        let file = plugin(&dir, &server.url(""), "");
        let proxy_url = format!("http://user:{}@{}", SECRET, proxy.addr);
        let output = run(
            &["call", &file, "ping", "--ca-file", &ca_file(&dir)],
            None,
            &[("HTTPS_PROXY", &proxy_url), ("NO_PROXY", "localhost")],
        );
        assert_eq!(status(&output), 0, "{}", stderr(&output));
        assert!(proxy.heads().is_empty());
        assert_eq!(server.requests().len(), 1);
    }

    #[test]
    fn a_proxy_wanting_credentials_says_where_to_put_them() {
        let proxy = ConnectProxy::start(
            "HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 0\r\n\r\n",
        );
        let dir = TempDir::new("net-connect-407");
        let file = plugin(&dir, "https://localhost:9", "");
        let flag = format!("--proxy=http://user:{}@{}", SECRET, proxy.addr);
        let output = run(&["call", &file, "ping", &flag], None, &[]);
        assert_eq!(status(&output), 1);
        assert!(stderr(&output).contains("the proxy wants credentials"));
        assert_no_secret(&output);
    }
}
