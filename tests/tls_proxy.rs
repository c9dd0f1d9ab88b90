//! https through a proxy: a `CONNECT` tunnel to a loopback proxy (tests/support), which
//! records what it was asked and copies bytes both ways, or refuses.

use httptool::http::{Client, Config, ErrorKind, Proxy, ProxyConfig, Request, Secrets, Transport};

use crate::support::connect_proxy::ConnectProxy;
use crate::support::tls::{TlsServer, CA, LOCALHOST};

fn header<'h>(head: &'h str, name: &str) -> Option<&'h str> {
    head.split("\r\n").skip(1).find_map(|line| {
        let (n, v) = line.split_once(':')?;
        n.eq_ignore_ascii_case(name).then(|| v.trim())
    })
}

fn client_through(proxies: ProxyConfig) -> Client {
    Client::with_config(
        Config::new()
            .add_root_certificates_pem(CA)
            .unwrap()
            .webpki_roots(false)
            .proxy(proxies),
    )
}

#[test]
fn https_goes_through_a_connect_tunnel_from_https_proxy() {
    let server = TlsServer::ok(LOCALHOST, "through the tunnel");
    let proxy = ConnectProxy::start("HTTP/1.1 200 Connection established\r\n\r\n");
    let proxy_url = proxy.url();
    let vars = move |name: &str| (name == "HTTPS_PROXY").then(|| proxy_url.clone());
    let client = client_through(ProxyConfig::from_vars(vars).unwrap());
    for _ in 0..2 {
        let response = client
            .send(&Request::get(&server.url("/x?q=1")).unwrap())
            .unwrap();
        assert_eq!(response.body(), b"through the tunnel");
    }
    // One tunnel, kept alive under the https origin and reused.
    let heads = proxy.heads();
    assert_eq!(heads.len(), 1, "{heads:?}");
    let authority = format!("localhost:{}", server.port());
    assert!(
        heads[0].starts_with(&format!("CONNECT {authority} HTTP/1.1\r\n")),
        "{}",
        heads[0]
    );
    assert_eq!(header(&heads[0], "host"), Some(authority.as_str()));
    assert_eq!(header(&heads[0], "proxy-authorization"), None);
    // Inside the tunnel the server gets an ordinary request, both times on one connection.
    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    assert!(requests
        .iter()
        .all(|r| r.target == "/x?q=1" && r.connection == 0));
    assert_eq!(requests[0].sni.as_deref(), Some("localhost"));
}

#[test]
fn proxy_credentials_go_to_the_proxy_only() {
    let server = TlsServer::ok(LOCALHOST, "ok");
    let proxy = ConnectProxy::start("HTTP/1.1 200 OK\r\n\r\n");
    let settings = Proxy::new(&proxy.url())
        .unwrap()
        .basic_auth("user", "s3cret");
    let client = client_through(ProxyConfig::none().https(Some(settings)));
    client
        .send(&Request::get(&server.url("/")).unwrap())
        .unwrap();
    // RFC 7617: base64("user:s3cret").
    assert_eq!(
        header(&proxy.heads()[0], "proxy-authorization"),
        Some("Basic dXNlcjpzM2NyZXQ=")
    );
    assert_eq!(server.requests()[0].header("proxy-authorization"), None);
}

#[test]
fn lower_case_https_proxy_is_read_too() {
    let server = TlsServer::ok(LOCALHOST, "ok");
    let proxy = ConnectProxy::start("HTTP/1.1 200 OK\r\n\r\n");
    let proxy_url = proxy.url();
    let vars = move |name: &str| (name == "https_proxy").then(|| proxy_url.clone());
    let client = client_through(ProxyConfig::from_vars(vars).unwrap());
    assert_eq!(
        client
            .send(&Request::get(&server.url("/")).unwrap())
            .unwrap()
            .body(),
        b"ok"
    );
    assert_eq!(proxy.heads().len(), 1);
}

#[test]
fn a_407_from_the_proxy_is_a_clear_error() {
    let proxy = ConnectProxy::start(
        "HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"p\"\r\nContent-Length: 0\r\n\r\n",
    );
    let client = client_through(ProxyConfig::all(Proxy::new(&proxy.url()).unwrap()));
    let err = client
        .send(&Request::get("https://localhost:9/secret?token=t0p").unwrap())
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::TunnelRefused { status: 407 });
    assert_eq!(
        err.to_string(),
        "the proxy refused to open a tunnel to localhost:9 with status 407: it wants credentials, \
         or refused those given (set them in the proxy url or with `Proxy::basic_auth`) \
         (https://localhost:9/secret)"
    );
}

#[test]
fn another_refusal_names_the_proxy_status() {
    let proxy = ConnectProxy::start("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n");
    let client = client_through(ProxyConfig::all(Proxy::new(&proxy.url()).unwrap()));
    let err = client
        .send(&Request::get("https://localhost:9/").unwrap())
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::TunnelRefused { status: 403 });
    assert_eq!(
        err.to_string(),
        "the proxy refused to open a tunnel to localhost:9 with status 403 (https://localhost:9/)"
    );
}

#[test]
fn a_proxy_answer_over_max_head_is_the_head_limit() {
    let proxy = ConnectProxy::start(Box::leak(
        format!("HTTP/1.1 200 OK\r\nX-Pad: {}\r\n\r\n", "a".repeat(70_000)).into_boxed_str(),
    ));
    let client = client_through(ProxyConfig::all(Proxy::new(&proxy.url()).unwrap()));
    let err = client
        .send(&Request::get("https://localhost:9/").unwrap())
        .unwrap_err();
    assert!(
        matches!(
            err.kind(),
            ErrorKind::LimitExceeded {
                which: httptool::http::Limit::Head,
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn a_dry_run_of_an_https_request_shows_what_goes_inside_the_tunnel() {
    let proxies = ProxyConfig::all(Proxy::new("http://u:p@proxy.internal:3128").unwrap());
    let client = client_through(proxies);
    let request = Request::get("https://api.example.com/v1/x?q=1").unwrap();
    let bytes = client.render(&request, Secrets::Reveal).unwrap();
    let text = String::from_utf8(bytes).unwrap();
    assert!(
        text.starts_with("GET /v1/x?q=1 HTTP/1.1\r\nHost: api.example.com\r\n"),
        "{text}"
    );
    assert!(!text.contains("Proxy-Authorization"), "{text}");
    // An http request still goes to the proxy in absolute form, with its credentials.
    let request = Request::get("http://api.example.com/v1/x").unwrap();
    let text = String::from_utf8(client.render(&request, Secrets::Reveal).unwrap()).unwrap();
    assert!(
        text.starts_with("GET http://api.example.com/v1/x HTTP/1.1\r\n"),
        "{text}"
    );
    assert!(
        text.contains("Proxy-Authorization: Basic dTpw\r\n"),
        "{text}"
    );
}
