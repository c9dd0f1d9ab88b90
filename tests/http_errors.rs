//! The exact message of each error kind, once, and that none holds a secret.

use httptool::http::{
    AddressPolicy, Client, Config, Error, Headers, Method, Proxy, ProxyConfig, Request,
    RequestOptions, Transport,
};

use crate::support::Server;

fn send_err(request: &Request) -> Error {
    Client::new().send(request).unwrap_err()
}

fn closing(reply: &'static str) -> (Server, Error) {
    let server = Server::start(move |mut peer| {
        peer.read_request();
        peer.send(reply);
    });
    let err = send_err(&Request::get(&server.url("/p?token=s3cret")).unwrap());
    (server, err)
}

#[test]
fn request_building_messages() {
    assert_eq!(
        "GET /".parse::<Method>().unwrap_err().to_string(),
        "invalid http method: a method is a token of at most 32 letters, digits and !#$%&'*+-.^_`|~"
    );
    assert_eq!(
        Headers::new().append("X Y", "v").unwrap_err().to_string(),
        "invalid header name 'X Y': a name is one or more of the letters, digits and !#$%&'*+-.^_`|~"
    );
    // The crate's one quoting rule: controls escaped, 64 characters at most.
    let long = format!("X\r\n{}", "a".repeat(70));
    let shown = Headers::new().append(&long, "v").unwrap_err().to_string();
    assert!(
        shown.starts_with(&format!(
            "invalid header name 'X\\r\\n{}...': ",
            "a".repeat(61)
        )),
        "{shown}"
    );
    assert_eq!(
        Headers::new().append("X-Key", "s3cret\r\n").unwrap_err().to_string(),
        "invalid value for header 'X-Key': it holds a control character (cr, lf, nul or another; only tab is allowed)"
    );
    assert_eq!(
        Request::get("http://h/?k=s3cret value")
            .unwrap_err()
            .to_string(),
        "invalid url: whitespace is not accepted in a url: percent-encode it (at byte 18)"
    );
    let managed = Request::get("http://127.0.0.1:9/")
        .unwrap()
        .with_header("Host", "x")
        .unwrap();
    assert_eq!(
        send_err(&managed).to_string(),
        "header 'Host' is written by the client from the url and body: remove it from the request (http://127.0.0.1:9/)"
    );
}

#[test]
fn proxy_messages() {
    assert_eq!(
        Proxy::new("socks5://user:s3cret@p:1080")
            .unwrap_err()
            .to_string(),
        "invalid proxy setting: only http:// proxies are supported"
    );
    let err = Proxy::new("http://user:s3cret@p:99999").unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid proxy setting: the proxy address is not usable: invalid url: the port must be between 1 and 65535 (at byte 9)"
    );
    let client = Client::with_config(
        Config::new().proxy(ProxyConfig::all(Proxy::new("127.0.0.1:9").unwrap())),
    );
    let request = Request::get("http://api.example.test/x?k=s3cret")
        .unwrap()
        .with_options(RequestOptions::new().address_policy(AddressPolicy::strict()));
    assert_eq!(
        client.send(&request).unwrap_err().to_string(),
        "the strict address policy needs a host allowlist when a proxy is used (http://api.example.test/x): the proxy resolves names, so their addresses cannot be checked here"
    );
}

#[test]
fn connection_messages() {
    let err = send_err(&Request::get("https://127.0.0.1:9/x?k=s3cret").unwrap());
    #[cfg(not(feature = "tls"))]
    assert_eq!(
        err.to_string(),
        "https needs tls, and httptool was built without its `tls` feature: enable the `tls` feature (https://127.0.0.1:9/x)"
    );
    #[cfg(feature = "tls")]
    assert_eq!(err.kind(), httptool::http::ErrorKind::Connect);
    let err = send_err(&Request::get("http://no-such-host.invalid/").unwrap());
    if err.kind() == httptool::http::ErrorKind::Resolve {
        assert!(
            err.to_string()
                .starts_with("could not resolve host 'no-such-host.invalid'"),
            "{err}"
        );
    }
}

#[test]
fn response_messages() {
    let (server, err) = closing("");
    assert!(
        err.to_string().starts_with(&format!(
            "the connection closed before a response arrived ({})",
            server.url("/p")
        )),
        "{err}"
    );
    let (server, err) = closing("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc");
    assert_eq!(
        err.to_string(),
        format!(
            "the connection closed after 3 of 10 body bytes ({})",
            server.url("/p")
        )
    );
    let (server, err) =
        closing("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n");
    assert_eq!(
        err.to_string(),
        format!(
            "the connection closed before the last chunk, after 3 body bytes ({})",
            server.url("/p")
        )
    );
    let (server, err) =
        closing("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n");
    assert_eq!(
        err.to_string(),
        format!(
            "malformed response: two different content-length values ({})",
            server.url("/p")
        )
    );
}

#[test]
fn redirect_loop_message() {
    let server = Server::fixed(
        "HTTP/1.1 302 Found\r\nLocation: /p?token=s3cret\r\nContent-Length: 0\r\n\r\n",
    );
    let err = send_err(&Request::get(&server.url("/p?token=s3cret")).unwrap());
    assert_eq!(
        err.to_string(),
        format!(
            "redirect loop: a redirect led back to a url already visited ({})",
            server.url("/p")
        )
    );
}

#[test]
fn errors_expose_the_url_without_its_query() {
    let (server, err) = closing("garbage\r\n\r\n");
    assert_eq!(err.url(), Some(server.url("/p").as_str()));
    assert!(!format!("{err:?}").contains("s3cret"));
}

#[test]
fn limit_messages() {
    let server = Server::fixed("HTTP/1.1 200 OK\r\nA: 1\r\nB: 2\r\nContent-Length: 0\r\n\r\n");
    let request = Request::get(&server.url("/p"))
        .unwrap()
        .with_options(RequestOptions::new().max_headers(1));
    assert_eq!(
        send_err(&request).to_string(),
        format!(
            "the number of header fields exceeds max_headers of 1 fields: 2 fields seen ({})",
            server.url("/p")
        )
    );
    let redirecting = Server::replying(|r| {
        let n: u32 = r.target[1..].parse().unwrap_or(0);
        format!(
            "HTTP/1.1 302 Found\r\nLocation: /{}\r\nContent-Length: 0\r\n\r\n",
            n + 1
        )
        .into_bytes()
    });
    let err = send_err(&Request::get(&redirecting.url("/1")).unwrap());
    assert_eq!(
        err.to_string(),
        format!(
            "the number of redirects exceeds max_redirects of 5 redirects: 6 redirects seen ({})",
            redirecting.url("/6")
        )
    );
}
