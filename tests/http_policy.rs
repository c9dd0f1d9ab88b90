//! The address policy and proxies, against loopback servers.

use std::net::{IpAddr, Ipv4Addr};

use httptool::http::{
    AddressClass, AddressPolicy, Client, Config, ErrorKind, Proxy, ProxyConfig, Request,
    RequestOptions, Secrets, Transport,
};

use crate::support::steps::steps;
use crate::support::{ok, Server};

fn loopback() -> IpAddr {
    IpAddr::V4(Ipv4Addr::LOCALHOST)
}

fn with_policy(url: &str, policy: AddressPolicy) -> Request {
    Request::get(url)
        .unwrap()
        .with_options(RequestOptions::new().address_policy(policy))
}

#[test]
fn strict_policy_refuses_loopback_before_connecting() {
    let server = Server::fixed(&ok(""));
    let err = Client::new()
        .send(&with_policy(&server.url("/?k=v"), AddressPolicy::strict()))
        .unwrap_err();
    assert_eq!(
        err.kind(),
        ErrorKind::AddressRefused(AddressClass::Loopback)
    );
    assert_eq!(
        err.to_string(),
        format!(
            "address 127.0.0.1 of host '127.0.0.1' is a loopback address and the address policy refuses it ({})",
            server.url("/")
        )
    );
    assert_eq!(server.connections(), 0);
}

#[test]
fn strict_policy_checks_resolved_addresses() {
    // `localhost` resolves to loopback addresses only: all refused, none connected to.
    let server = Server::fixed(&ok(""));
    let url = format!("http://localhost:{}/", server.port());
    let err = Client::new()
        .send(&with_policy(&url, AddressPolicy::strict()))
        .unwrap_err();
    assert_eq!(
        err.kind(),
        ErrorKind::AddressRefused(AddressClass::Loopback)
    );
    assert!(err.to_string().contains("of host 'localhost'"), "{err}");
    assert_eq!(server.connections(), 0);
}

#[test]
fn legacy_numeric_hosts_are_checked_as_the_address_they_denote() {
    let server = Server::fixed(&ok(""));
    for host in ["127.1", "0x7f.0.0.1", "0177.0.0.1", "2130706433"] {
        let url = format!("http://{host}:{}/", server.port());
        let err = Client::new()
            .send(&with_policy(&url, AddressPolicy::strict()))
            .unwrap_err();
        assert_eq!(
            err.kind(),
            ErrorKind::AddressRefused(AddressClass::Loopback),
            "{host}"
        );
        // Without the policy they reach the loopback server.
        assert_eq!(
            Client::new()
                .send(&Request::get(&url).unwrap())
                .unwrap()
                .status(),
            200
        );
    }
}

#[test]
fn exempt_network_is_reachable_under_the_strict_policy() {
    let server = Server::fixed(&ok("in"));
    let policy = AddressPolicy::strict().exempt_network(loopback(), 8);
    let response = Client::new()
        .send(&with_policy(&server.url("/"), policy))
        .unwrap();
    assert_eq!(response.body(), b"in");
}

#[test]
fn host_allowlist() {
    let server = Server::fixed(&ok("in"));
    let client = Client::with_config(
        Config::new().address_policy(AddressPolicy::allow_all().allow_host("127.0.0.1")),
    );
    assert!(client
        .send(&Request::get(&server.url("/")).unwrap())
        .is_ok());
    let url = format!("http://localhost:{}/", server.port());
    let err = client.send(&Request::get(&url).unwrap()).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::HostNotAllowed);
}

#[test]
fn pooled_connection_is_checked_again_under_a_stricter_policy() {
    let server = Server::fixed(&ok("x"));
    let client = Client::new();
    client
        .send(&Request::get(&server.url("/")).unwrap())
        .unwrap();
    assert_eq!(client.idle_connections(), 1);
    let err = client
        .send(&with_policy(&server.url("/"), AddressPolicy::strict()))
        .unwrap_err();
    assert_eq!(
        err.kind(),
        ErrorKind::AddressRefused(AddressClass::Loopback)
    );
    assert_eq!(server.requests().len(), 1);
}

/// A proxy that answers every request itself and records it.
fn fake_proxy() -> Server {
    Server::fixed(&ok("via proxy"))
}

#[test]
fn http_through_a_proxy_uses_absolute_form_and_proxy_credentials() {
    let proxy = fake_proxy();
    let proxies =
        ProxyConfig::all(Proxy::new(&format!("http://user:p%40ss@{}", proxy.addr)).unwrap());
    let client = Client::with_config(Config::new().proxy(proxies));
    let request = Request::get("http://api.example.test:8080/v1/x?q=1").unwrap();
    for _ in 0..2 {
        let response = client.send(&request).unwrap();
        assert_eq!(response.body(), b"via proxy");
    }
    let seen = &proxy.requests()[0];
    assert_eq!(seen.target, "http://api.example.test:8080/v1/x?q=1");
    assert_eq!(
        seen.header("host").as_deref(),
        Some("api.example.test:8080")
    );
    assert_eq!(
        seen.header("proxy-authorization").as_deref(),
        Some("Basic dXNlcjpwQHNz")
    );
    assert_eq!(proxy.connections(), 1);
    let masked = String::from_utf8(client.render(&request, Secrets::Mask).unwrap()).unwrap();
    assert!(
        masked.starts_with("GET http://api.example.test:8080/v1/x?q=1 HTTP/1.1\r\n"),
        "{masked}"
    );
    assert!(masked.contains("Proxy-Authorization: ***\r\n"), "{masked}");
}

#[test]
fn no_proxy_hosts_bypass_the_proxy() {
    let proxy = fake_proxy();
    let direct = Server::fixed(&ok("direct"));
    let proxies =
        ProxyConfig::all(Proxy::new(&proxy.addr.to_string()).unwrap()).no_proxy("127.0.0.1");
    let client = Client::with_config(Config::new().proxy(proxies));
    let response = client
        .send(&Request::get(&direct.url("/")).unwrap())
        .unwrap();
    assert_eq!(response.body(), b"direct");
    assert_eq!(proxy.connections(), 0);
}

#[test]
fn strict_policy_through_a_proxy_needs_a_host_allowlist() {
    let proxy = fake_proxy();
    let config = Config::new().proxy(ProxyConfig::all(
        Proxy::new(&proxy.addr.to_string()).unwrap(),
    ));
    let client = Client::with_config(config);
    let err = client
        .send(&with_policy(
            "http://api.example.test/",
            AddressPolicy::strict(),
        ))
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::ProxyNeedsAllowlist);
    let allowed = AddressPolicy::strict().allow_host("api.example.test");
    let response = client
        .send(&with_policy("http://api.example.test/", allowed.clone()))
        .unwrap();
    assert_eq!(response.body(), b"via proxy");
    // An address in the URL is still checked.
    let err = client
        .send(&with_policy(
            "http://169.254.169.254/",
            allowed.allow_host("169.254.169.254"),
        ))
        .unwrap_err();
    assert_eq!(
        err.kind(),
        ErrorKind::AddressRefused(AddressClass::Metadata)
    );
    assert_eq!(proxy.requests().len(), 1);
}

#[test]
fn proxy_environment_is_read_only_when_asked() {
    // Client::new never reads http_proxy; from_vars shows what from_env would do.
    let proxy = fake_proxy();
    let addr = proxy.addr.to_string();
    let vars = move |name: &str| (name == "http_proxy").then(|| addr.clone());
    let client = Client::with_config(Config::new().proxy(ProxyConfig::from_vars(vars).unwrap()));
    let response = client
        .send(&Request::get("http://example.test/").unwrap())
        .unwrap();
    assert_eq!(response.body(), b"via proxy");
}

#[test]
fn a_proxy_connection_with_stray_bytes_is_not_reused() {
    // The first answer through the proxy is followed, a moment later, by bytes nobody asked
    // for. A connection to a forwarding proxy serves many origins, so the next request must
    // not take those bytes for its answer, however recently the connection was used.
    let (steps, mut test) = steps();
    let proxy = Server::start(move |mut peer| {
        if peer.index == 0 && peer.read_request().is_some() {
            peer.stream.set_nodelay(true).unwrap();
            peer.respond("200 OK", "", b"first");
            steps.on_go(|| peer.send("HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nforged"));
        }
        while peer.read_request().is_some() {
            peer.respond("200 OK", "", b"second");
        }
    });
    let client = Client::with_config(Config::new().proxy(ProxyConfig::all(
        Proxy::new(&proxy.addr.to_string()).unwrap(),
    )));
    let first = client
        .send(&Request::get("http://a.example.test/").unwrap())
        .unwrap();
    assert_eq!(first.body(), b"first");
    test.go_and_wait();
    let second = client
        .send(&Request::get("http://b.example.test/").unwrap())
        .unwrap();
    assert_eq!(second.body(), b"second");
    assert_eq!(proxy.connections(), 2);
}
