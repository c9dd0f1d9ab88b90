//! One client shared by many threads.

use httptool::http::{Client, Config, Request, Response, Transport};

use crate::support::Server;

fn assert_send_sync<T: Send + Sync>() {}

#[test]
fn public_types_are_send_and_sync() {
    assert_send_sync::<Client>();
    assert_send_sync::<Request>();
    assert_send_sync::<Response>();
    assert_send_sync::<Config>();
    assert_send_sync::<httptool::http::Error>();
    assert_send_sync::<httptool::url::Url>();
    assert_send_sync::<Box<dyn Transport>>();
}

#[test]
fn many_threads_share_one_client() {
    const THREADS: usize = 8;
    const EACH: usize = 50;
    let server = Server::replying(|r| {
        let body = r.target.as_bytes();
        let mut out =
            format!("HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n", body.len()).into_bytes();
        out.extend_from_slice(body);
        out
    });
    let client = Client::new();
    std::thread::scope(|s| {
        for t in 0..THREADS {
            let client = &client;
            let server = &server;
            s.spawn(move || {
                for i in 0..EACH {
                    let path = format!("/t{t}/r{i}");
                    let response = client
                        .send(&Request::get(&server.url(&path)).unwrap())
                        .unwrap();
                    assert_eq!(response.body(), path.as_bytes());
                }
            });
        }
    });
    assert_eq!(server.requests().len(), THREADS * EACH);
    // Connections were reused: far fewer than requests, and the pool stays bounded.
    assert!(
        server.connections() <= THREADS * 2,
        "{} connections",
        server.connections()
    );
    assert!(client.idle_connections() <= httptool::http::DEFAULT_MAX_IDLE_PER_ORIGIN);
}

#[test]
fn clones_share_the_pool() {
    let server = Server::fixed(&crate::support::ok("x"));
    let client = Client::new();
    let clone = client.clone();
    client
        .send(&Request::get(&server.url("/")).unwrap())
        .unwrap();
    clone
        .send(&Request::get(&server.url("/")).unwrap())
        .unwrap();
    assert_eq!(server.connections(), 1);
}
