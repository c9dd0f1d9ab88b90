//! Retries (`httptool::design::endpoints`, "Retries"): idempotent requests once, when the
//! connection failed before any response byte; never POST or PATCH by themselves; the opt-in
//! 429/503 policy.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use httptool::http::{
    Client, Config, ErrorKind, ManualTime, Method, Request, RequestOptions, RetryPolicy, Transport,
};

use crate::support::steps::{steps, Test};
use crate::support::Server;

/// Answers one request per connection, then closes it without saying so (no
/// `Connection: close`): the client pools a connection the server has closed. The close
/// comes when the test says `go`, and the test's `go_and_wait` returns once it was made.
fn one_per_connection() -> (Server, Test) {
    let (steps, test) = steps();
    let server = Server::start(move |mut peer| {
        if peer.read_request().is_some() {
            peer.respond("200 OK", "", b"ok");
            steps.on_go(|| drop(peer));
        }
    });
    (server, test)
}

#[test]
fn pooled_connection_closed_by_the_server_get_succeeds() {
    let (server, mut test) = one_per_connection();
    let client = Client::new();
    for _ in 0..3 {
        let response = client
            .send(&Request::get(&server.url("/")).unwrap())
            .unwrap();
        assert_eq!(response.body(), b"ok");
        test.go_and_wait();
    }
    assert_eq!(server.requests().len(), 3);
    assert_eq!(server.connections(), 3);
}

#[test]
fn pooled_connection_closed_by_the_server_is_not_used_for_post() {
    // The client sees the closed connection before sending, so the POST goes on a new one
    // and is sent exactly once.
    let (server, mut test) = one_per_connection();
    let client = Client::new();
    client
        .send(&Request::get(&server.url("/")).unwrap())
        .unwrap();
    test.go_and_wait();
    let response = client
        .send(&Request::post(&server.url("/")).unwrap().with_body("x"))
        .unwrap();
    assert_eq!(response.body(), b"ok");
    let posts = server
        .requests()
        .iter()
        .filter(|r| r.method == "POST")
        .count();
    assert_eq!(posts, 1);
}

/// The first connection answers its first request, then reads the second and drops the
/// connection without a response byte (a server that closed an idle connection just as the
/// request arrived). Later connections answer everything.
fn drops_second_request() -> Server {
    Server::start(|mut peer| {
        let mut served = 0;
        while peer.read_request().is_some() {
            served += 1;
            if peer.index == 0 && served == 2 {
                return;
            }
            peer.respond("200 OK", "", b"ok");
        }
    })
}

#[test]
fn get_failing_before_any_response_byte_is_retried_once() {
    let server = drops_second_request();
    let client = Client::new();
    client
        .send(&Request::get(&server.url("/")).unwrap())
        .unwrap();
    let response = client
        .send(&Request::get(&server.url("/again")).unwrap())
        .unwrap();
    assert_eq!(response.body(), b"ok");
    let again: Vec<_> = server
        .requests()
        .into_iter()
        .filter(|r| r.target == "/again")
        .collect();
    assert_eq!(again.len(), 2);
    assert_ne!(again[0].connection, again[1].connection);
}

#[test]
fn idempotent_methods_are_retried() {
    for method in [Method::Put, Method::Delete, Method::Head, Method::Options] {
        let server = drops_second_request();
        let client = Client::new();
        client
            .send(&Request::get(&server.url("/")).unwrap())
            .unwrap();
        let response = client
            .send(&Request::new(method, &server.url("/again")).unwrap())
            .unwrap();
        assert_eq!(response.status(), 200, "{method}");
    }
}

#[test]
fn post_and_patch_failing_before_any_response_byte_are_not_retried() {
    for method in [Method::Post, Method::Patch] {
        let server = drops_second_request();
        let client = Client::new();
        client
            .send(&Request::get(&server.url("/")).unwrap())
            .unwrap();
        let request = Request::new(method, &server.url("/once"))
            .unwrap()
            .with_body("data");
        let err = client.send(&request).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::ConnectionClosed, "{method}");
        let sent = server
            .requests()
            .iter()
            .filter(|r| r.target == "/once")
            .count();
        assert_eq!(sent, 1, "{method}");
    }
}

#[test]
fn failure_after_response_bytes_is_not_retried() {
    let count = Arc::new(AtomicUsize::new(0));
    let seen = count.clone();
    let server = Server::start(move |mut peer| {
        peer.read_request();
        seen.fetch_add(1, Ordering::SeqCst);
        peer.send("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc");
    });
    let err = Client::new()
        .send(&Request::get(&server.url("/")).unwrap())
        .unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::IncompleteBody { .. }));
    assert_eq!(count.load(Ordering::SeqCst), 1);
}

/// Answers the first `failures` requests with `status` and `retry_after`, then 200.
fn overloaded(status: &'static str, retry_after: &'static str, failures: usize) -> Server {
    let count = Arc::new(AtomicUsize::new(0));
    Server::replying(move |_| {
        if count.fetch_add(1, Ordering::SeqCst) < failures {
            format!("HTTP/1.1 {status}\r\n{retry_after}Content-Length: 4\r\n\r\nbusy").into_bytes()
        } else {
            crate::support::ok("done").into_bytes()
        }
    })
}

fn with_retry(server: &Server, method: Method, policy: RetryPolicy) -> (u16, usize) {
    let (status, requests, _) = timed_retry(server, method, policy, ManualTime::new());
    (status, requests)
}

/// Sends with `policy` on a client whose time is `time`: the status, the requests the
/// server saw, and the waits the client took (on `time`, so none of them real).
fn timed_retry(
    server: &Server,
    method: Method,
    policy: RetryPolicy,
    time: ManualTime,
) -> (u16, usize, Vec<Duration>) {
    let request = Request::new(method, &server.url("/"))
        .unwrap()
        .with_options(RequestOptions::new().retry(policy));
    let client = Client::with_config(Config::new().time_source(time.clone()));
    let response = client.send(&request).unwrap();
    (response.status(), server.requests().len(), time.sleeps())
}

#[test]
fn retry_policy_is_off_by_default() {
    let server = overloaded("503 Service Unavailable", "Retry-After: 0\r\n", 1);
    let response = Client::new()
        .send(&Request::get(&server.url("/")).unwrap())
        .unwrap();
    assert_eq!(response.status(), 503);
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn retry_policy_retries_429_and_503_honouring_retry_after() {
    let server = overloaded("429 Too Many Requests", "Retry-After: 1\r\n", 1);
    let policy = RetryPolicy::overload_retries(2);
    assert_eq!(
        timed_retry(&server, Method::Get, policy.clone(), ManualTime::new()),
        (200, 2, vec![Duration::from_secs(1)])
    );
    // A date is measured from the client's time: 7 s after the 1 000 000th second.
    let server = overloaded(
        "503 Service Unavailable",
        "Retry-After: Mon, 12 Jan 1970 13:46:47 GMT\r\n",
        1,
    );
    let time = ManualTime::at_unix_time(Duration::from_secs(1_000_000));
    assert_eq!(
        timed_retry(&server, Method::Get, RetryPolicy::overload_retries(1), time),
        (200, 2, vec![Duration::from_secs(7)])
    );
    // A date already past is no wait at all.
    let server = overloaded(
        "503 Service Unavailable",
        "Retry-After: Thu, 01 Jan 1970 00:00:00 GMT\r\n",
        2,
    );
    assert_eq!(
        timed_retry(&server, Method::Get, policy, ManualTime::new()),
        (200, 3, vec![Duration::ZERO, Duration::ZERO])
    );
}

#[test]
fn retry_policy_caps_attempts_and_waits() {
    let server = overloaded("503 Service Unavailable", "Retry-After: 0\r\n", 5);
    assert_eq!(
        with_retry(&server, Method::Get, RetryPolicy::overload_retries(2)),
        (503, 3)
    );
    let server = overloaded("503 Service Unavailable", "Retry-After: 3600\r\n", 1);
    let policy = RetryPolicy::overload_retries(2).max_wait(Duration::from_secs(5));
    assert_eq!(with_retry(&server, Method::Get, policy), (503, 1));
    let server = overloaded("503 Service Unavailable", "", 1);
    let policy = RetryPolicy::overload_retries(1).default_wait(Duration::from_millis(10));
    assert_eq!(
        timed_retry(&server, Method::Get, policy, ManualTime::new()),
        (200, 2, vec![Duration::from_millis(10)])
    );
}

#[test]
fn retry_policy_never_waits_past_the_call_deadline() {
    let server = overloaded("503 Service Unavailable", "Retry-After: 5\r\n", 1);
    let request = Request::get(&server.url("/")).unwrap().with_options(
        RequestOptions::new()
            .retry(RetryPolicy::overload_retries(1))
            .timeout_call(Duration::from_secs(2)),
    );
    let time = ManualTime::new();
    let client = Client::with_config(Config::new().time_source(time.clone()));
    assert_eq!(client.send(&request).unwrap().status(), 503);
    assert_eq!(time.sleeps(), vec![]);
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn retry_policy_leaves_post_alone_unless_allowed() {
    let server = overloaded("503 Service Unavailable", "Retry-After: 0\r\n", 1);
    assert_eq!(
        with_retry(&server, Method::Post, RetryPolicy::overload_retries(1)),
        (503, 1)
    );
    let server = overloaded("503 Service Unavailable", "Retry-After: 0\r\n", 1);
    let policy = RetryPolicy::overload_retries(1).allow_non_idempotent(true);
    assert_eq!(with_retry(&server, Method::Post, policy), (200, 2));
}

#[test]
fn retry_waits_count_against_the_call_deadline() {
    // Each wait moves the call's clock: after one 1 s wait, 1 s of the 2 s call is left,
    // and a second 1 s wait would end at the deadline, so it is not taken.
    let server = overloaded("503 Service Unavailable", "Retry-After: 1\r\n", 5);
    let request = Request::get(&server.url("/")).unwrap().with_options(
        RequestOptions::new()
            .retry(RetryPolicy::overload_retries(5))
            .timeout_call(Duration::from_secs(2)),
    );
    let time = ManualTime::new();
    let client = Client::with_config(Config::new().time_source(time.clone()));
    assert_eq!(client.send(&request).unwrap().status(), 503);
    assert_eq!(time.sleeps(), vec![Duration::from_secs(1)]);
    assert_eq!(server.requests().len(), 2);
}
