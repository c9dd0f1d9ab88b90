//! Redirects (`httptool::design::endpoints`, "Redirects") against loopback servers.

use std::net::{IpAddr, Ipv4Addr};

use httptool::http::{
    AddressClass, AddressPolicy, Client, Config, ErrorKind, Limit, Method, RedirectPolicy,
    RedirectStop, Request, RequestOptions, Transport,
};

use crate::support::{ok, Server};

fn redirect(status: u16, location: &str) -> Vec<u8> {
    format!("HTTP/1.1 {status} Redirect\r\nLocation: {location}\r\nContent-Length: 5\r\n\r\nmoved")
        .into_bytes()
}

fn loopback() -> IpAddr {
    IpAddr::V4(Ipv4Addr::LOCALHOST)
}

#[test]
fn relative_redirect_is_followed_on_the_same_connection() {
    let server = Server::replying(|r| match r.target.as_str() {
        "/a/b" => redirect(302, "../c?x=1"),
        _ => ok("here").into_bytes(),
    });
    let response = Client::new()
        .send(&Request::get(&server.url("/a/b")).unwrap())
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.body(), b"here");
    assert_eq!(response.url().as_str(), server.url("/c?x=1"));
    assert_eq!(server.requests()[1].target, "/c?x=1");
    assert_eq!(server.connections(), 1);
}

#[test]
fn see_other_turns_post_into_get_without_the_body() {
    let server = Server::replying(|r| match r.target.as_str() {
        "/form" => redirect(303, "/result"),
        _ => ok("done").into_bytes(),
    });
    let request = Request::post(&server.url("/form"))
        .unwrap()
        .with_header("Content-Type", "application/x-www-form-urlencoded")
        .unwrap()
        .with_header("X-Keep", "1")
        .unwrap()
        .with_body("a=1");
    let response = Client::new().send(&request).unwrap();
    assert_eq!(response.body(), b"done");
    let second = &server.requests()[1];
    assert_eq!(second.method, "GET");
    assert!(second.body.is_empty());
    assert_eq!(second.header("content-type"), None);
    assert_eq!(second.header("content-length"), None);
    assert_eq!(second.header("x-keep").as_deref(), Some("1"));
}

#[test]
fn temporary_redirect_keeps_get_and_head() {
    let server = Server::replying(|r| match r.target.as_str() {
        "/old" => redirect(307, "/new"),
        _ => ok("new").into_bytes(),
    });
    let client = Client::new();
    let response = client
        .send(&Request::head(&server.url("/old")).unwrap())
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(server.requests()[1].method, "HEAD");
}

#[test]
fn temporary_redirect_of_post_is_returned_not_followed() {
    let server = Server::fixed(&String::from_utf8(redirect(308, "/elsewhere")).unwrap());
    let request = Request::post(&server.url("/submit"))
        .unwrap()
        .with_body("data");
    let response = Client::new().send(&request).unwrap();
    assert_eq!(response.status(), 308);
    assert_eq!(response.header("location"), Some("/elsewhere"));
    assert_eq!(
        response.redirect_stop(),
        Some(RedirectStop::MethodNotRedirectable)
    );
    assert_eq!(response.body(), b"moved");
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn redirect_loop_is_an_error() {
    let server = Server::fixed(&String::from_utf8(redirect(302, "/loop")).unwrap());
    let err = Client::new()
        .send(&Request::get(&server.url("/loop")).unwrap())
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::RedirectLoop);
    let server = Server::replying(|r| match r.target.as_str() {
        "/a" => redirect(301, "/b"),
        _ => redirect(301, "/a"),
    });
    let err = Client::new()
        .send(&Request::get(&server.url("/a")).unwrap())
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::RedirectLoop);
    assert_eq!(server.requests().len(), 2);
}

#[test]
fn too_many_redirects_is_an_error() {
    // /1 -> /2 -> ... : five are followed, the sixth is over the limit.
    let server = Server::replying(|r| {
        let n: u32 = r.target[1..].parse().unwrap();
        redirect(302, &format!("/{}", n + 1))
    });
    let err = Client::new()
        .send(&Request::get(&server.url("/1")).unwrap())
        .unwrap_err();
    assert_eq!(
        err.kind(),
        ErrorKind::LimitExceeded {
            which: Limit::Redirects,
            max: 5,
            seen: 6
        }
    );
    assert_eq!(server.requests().len(), 6);
    let request = Request::get(&server.url("/1"))
        .unwrap()
        .with_options(RequestOptions::new().redirect(RedirectPolicy::any().max_redirects(2)));
    let err = Client::new().send(&request).unwrap_err();
    assert_eq!(
        err.kind(),
        ErrorKind::LimitExceeded {
            which: Limit::Redirects,
            max: 2,
            seen: 3
        }
    );
}

#[test]
fn five_redirects_are_followed() {
    let server = Server::replying(|r| {
        let n: u32 = r.target[1..].parse().unwrap();
        if n < 6 {
            redirect(302, &format!("/{}", n + 1))
        } else {
            ok("end").into_bytes()
        }
    });
    let response = Client::new()
        .send(&Request::get(&server.url("/1")).unwrap())
        .unwrap();
    assert_eq!(response.body(), b"end");
    assert_eq!(response.url().path(), "/6");
}

#[test]
fn cross_origin_redirect_drops_credentials() {
    let target = Server::fixed(&ok("landed"));
    let location = target.url("/landing?api_key=leaked&page=2");
    let origin = Server::replying(move |_| redirect(302, &location));
    let request = Request::get(&origin.url("/start?api_key=secret"))
        .unwrap()
        .with_header("Authorization", "Bearer token")
        .unwrap()
        .with_header("Cookie", "session=1")
        .unwrap()
        .with_header("Proxy-Authorization", "Basic x")
        .unwrap()
        .with_sensitive_header("X-Api-Key", "key")
        .unwrap()
        .with_header("Accept", "application/json")
        .unwrap()
        .with_secret_query("api_key");
    let response = Client::new().send(&request).unwrap();
    assert_eq!(response.body(), b"landed");
    let first = &origin.requests()[0];
    assert_eq!(
        first.header("authorization").as_deref(),
        Some("Bearer token")
    );
    let second = &target.requests()[0];
    for name in [
        "authorization",
        "cookie",
        "proxy-authorization",
        "x-api-key",
    ] {
        assert_eq!(
            second.header(name),
            None,
            "{name} reached the second server"
        );
    }
    assert_eq!(second.header("accept").as_deref(), Some("application/json"));
    assert_eq!(second.target, "/landing?page=2");
}

#[test]
fn same_origin_redirect_keeps_credentials() {
    let server = Server::replying(|r| match r.target.as_str() {
        "/a" => redirect(302, "/b"),
        _ => ok("b").into_bytes(),
    });
    let request = Request::get(&server.url("/a"))
        .unwrap()
        .with_header("Authorization", "Bearer t")
        .unwrap();
    Client::new().send(&request).unwrap();
    assert_eq!(
        server.requests()[1].header("authorization").as_deref(),
        Some("Bearer t")
    );
}

#[test]
fn redirect_policies_return_the_redirect_when_they_refuse() {
    let other = Server::fixed(&ok("other"));
    let location = other.url("/x");
    let origin = Server::replying(move |r| match r.target.as_str() {
        "/same" => redirect(302, "/final"),
        "/final" => ok("final").into_bytes(),
        _ => redirect(302, &location),
    });
    let send = |path: &str, policy: RedirectPolicy| {
        let request = Request::get(&origin.url(path))
            .unwrap()
            .with_options(RequestOptions::new().redirect(policy));
        Client::new().send(&request).unwrap()
    };
    let r = send("/cross", RedirectPolicy::none());
    assert_eq!(
        (r.status(), r.redirect_stop()),
        (302, Some(RedirectStop::Disabled))
    );
    let r = send("/cross", RedirectPolicy::same_origin());
    assert_eq!(
        (r.status(), r.redirect_stop()),
        (302, Some(RedirectStop::CrossOrigin))
    );
    assert_eq!(r.header("location"), Some(other.url("/x").as_str()));
    assert_eq!(
        send("/same", RedirectPolicy::same_origin()).body(),
        b"final"
    );
    // Both servers are 127.0.0.1, on different ports: a host list allows the other port.
    assert_eq!(
        send("/cross", RedirectPolicy::redirect_hosts(["127.0.0.1"])).body(),
        b"other"
    );
    let r = send("/cross", RedirectPolicy::redirect_hosts(["example.com"]));
    assert_eq!(r.redirect_stop(), Some(RedirectStop::HostNotAllowed));
    assert_eq!(other.requests().len(), 1);
}

#[test]
fn unusable_location_returns_the_redirect() {
    let server = Server::replying(|r| match r.target.as_str() {
        "/ftp" => redirect(301, "ftp://example.com/file"),
        "/userinfo" => redirect(301, "http://user:pw@example.com/"),
        _ => b"HTTP/1.1 302 Found\r\nContent-Length: 0\r\n\r\n".to_vec(),
    });
    let client = Client::new();
    let r = client
        .send(&Request::get(&server.url("/ftp")).unwrap())
        .unwrap();
    assert_eq!(r.redirect_stop(), Some(RedirectStop::InvalidLocation));
    let r = client
        .send(&Request::get(&server.url("/userinfo")).unwrap())
        .unwrap();
    assert_eq!(r.redirect_stop(), Some(RedirectStop::InvalidLocation));
    let r = client
        .send(&Request::get(&server.url("/none")).unwrap())
        .unwrap();
    assert_eq!(r.redirect_stop(), Some(RedirectStop::MissingLocation));
}

#[test]
fn redirect_to_a_refused_address_is_an_error() {
    let strict = AddressPolicy::strict().exempt_network(loopback(), 32);
    let locations = [
        (
            "http://169.254.169.254/latest/meta-data/",
            AddressClass::Metadata,
        ),
        ("http://127.0.0.2:1/", AddressClass::Loopback),
        ("http://0x7f.0.0.2:1/", AddressClass::Loopback),
        ("http://2852039166/", AddressClass::Metadata),
        ("http://[::ffff:10.0.0.1]/", AddressClass::Private),
        ("http://10.1.2.3/", AddressClass::Private),
    ];
    for (location, class) in locations {
        let server = Server::replying(move |_| redirect(302, location));
        let request = Request::get(&server.url("/"))
            .unwrap()
            .with_options(RequestOptions::new().address_policy(strict.clone()));
        let err = Client::new().send(&request).unwrap_err();
        assert_eq!(
            err.kind(),
            ErrorKind::AddressRefused(class),
            "{location}: {err}"
        );
    }
}

#[test]
fn redirect_to_a_host_outside_the_allowlist_is_an_error() {
    let server = Server::replying(|_| redirect(302, "http://localhost.invalid/"));
    let policy = AddressPolicy::allow_all().allow_host("127.0.0.1");
    let client = Client::with_config(Config::new().address_policy(policy));
    let err = client
        .send(&Request::get(&server.url("/")).unwrap())
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::HostNotAllowed);
    assert!(
        err.to_string()
            .starts_with("host 'localhost.invalid' is not in the address policy's host allowlist"),
        "{err}"
    );
}

#[test]
fn redirected_delete_becomes_get_for_301() {
    let server = Server::replying(|r| match r.target.as_str() {
        "/x" => redirect(301, "/y"),
        _ => ok("").into_bytes(),
    });
    Client::new()
        .send(&Request::new(Method::Delete, &server.url("/x")).unwrap())
        .unwrap();
    assert_eq!(server.requests()[1].method, "GET");
}
