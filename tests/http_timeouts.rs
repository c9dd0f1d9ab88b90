//! Timeouts fire near their setting (generous upper bounds: the machine is shared). The
//! socket's timeouts are the operating system's timers and run in real time; the call's
//! deadline runs on the client's time source, moved by hand where a test can.

use std::time::{Duration, Instant};

use httptool::http::{
    Client, Config, ErrorKind, ManualTime, Request, RequestOptions, Timeout, Transport,
};

use crate::support::steps::steps;
use crate::support::Server;

const SHORT: Duration = Duration::from_millis(300);
const SLACK: Duration = Duration::from_millis(2500);

fn timed(client: &Client, request: &Request) -> (ErrorKind, Duration) {
    let start = Instant::now();
    let err = client.send(request).unwrap_err();
    (err.kind(), start.elapsed())
}

#[test]
fn headers_that_never_finish_hit_the_read_timeout() {
    let server = Server::start(|mut peer| {
        peer.read_request();
        peer.send("HTTP/1.1 200 OK\r\nX-Slow: ");
        peer.wait_for_close();
    });
    let request = Request::get(&server.url("/"))
        .unwrap()
        .with_options(RequestOptions::new().timeout_read(SHORT));
    let (kind, took) = timed(&Client::new(), &request);
    assert_eq!(
        kind,
        ErrorKind::Timeout {
            which: Timeout::Read,
            after: SHORT
        }
    );
    assert!(took >= SHORT && took < SHORT + SLACK, "{took:?}");
}

#[test]
fn a_silent_server_hits_the_read_timeout_set_on_the_client() {
    let server = Server::start(|mut peer| {
        peer.read_request();
        peer.wait_for_close();
    });
    let client = Client::with_config(Config::new().timeout_read(SHORT));
    let (kind, took) = timed(&client, &Request::get(&server.url("/")).unwrap());
    assert_eq!(
        kind,
        ErrorKind::Timeout {
            which: Timeout::Read,
            after: SHORT
        }
    );
    assert!(took < SHORT + SLACK, "{took:?}");
}

#[test]
fn a_trickling_body_hits_the_call_deadline() {
    // Each byte comes well within the read timeout, but the call's time runs out between
    // two of them. The server moves the client's time (a ManualTime) between its writes,
    // so the deadline passes mid-body without any real waiting.
    let time = ManualTime::new();
    let server_time = time.clone();
    let server = Server::start(move |mut peer| {
        peer.read_request();
        peer.stream.set_nodelay(true).unwrap();
        peer.send("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nxxxxxxxxxx");
        server_time.advance(Duration::from_millis(400));
        peer.send("x");
        peer.wait_for_close();
    });
    let options = RequestOptions::new()
        .timeout_read(Duration::from_secs(2))
        .timeout_call(Duration::from_millis(400));
    let request = Request::get(&server.url("/"))
        .unwrap()
        .with_options(options);
    let client = Client::with_config(Config::new().time_source(time));
    let err = client.send(&request).unwrap_err();
    assert_eq!(
        err.kind(),
        ErrorKind::Timeout {
            which: Timeout::Call,
            after: Duration::from_millis(400)
        }
    );
}

#[test]
fn the_call_deadline_bounds_a_long_read_timeout() {
    let server = Server::start(|mut peer| {
        peer.read_request();
        peer.wait_for_close();
    });
    let options = RequestOptions::new()
        .timeout_read(Duration::from_secs(30))
        .timeout_call(SHORT);
    let request = Request::get(&server.url("/"))
        .unwrap()
        .with_options(options);
    let (kind, took) = timed(&Client::new(), &request);
    assert_eq!(
        kind,
        ErrorKind::Timeout {
            which: Timeout::Call,
            after: SHORT
        }
    );
    assert!(took < SHORT + SLACK, "{took:?}");
}

#[test]
fn a_server_that_never_reads_hits_the_write_timeout() {
    let (steps, mut test) = steps();
    let server = Server::start(move |peer| {
        // Hold the connection open without reading from it, until the test is done.
        steps.on_go(|| drop(peer));
    });
    // Larger than what the kernel buffers on both ends, so the writes block.
    let body = vec![b'x'; 64 * 1024 * 1024];
    let request = Request::put(&server.url("/upload"))
        .unwrap()
        .with_body(body)
        .with_options(RequestOptions::new().timeout_write(SHORT));
    let (kind, took) = timed(&Client::new(), &request);
    assert_eq!(
        kind,
        ErrorKind::Timeout {
            which: Timeout::Write,
            after: SHORT
        }
    );
    assert!(took < SHORT + SLACK, "{took:?}");
    test.go_and_wait();
}

#[test]
fn timeout_message_names_the_setting() {
    let server = Server::start(|mut peer| {
        peer.read_request();
        peer.wait_for_close();
    });
    let request = Request::get(&server.url("/slow?key=s3cret"))
        .unwrap()
        .with_options(RequestOptions::new().timeout_read(Duration::from_millis(100)));
    let err = Client::new().send(&request).unwrap_err();
    assert!(err.is_timeout());
    assert_eq!(
        err.to_string(),
        format!(
            "waiting for the response timed out after 100ms (timeout_read) ({})",
            server.url("/slow")
        )
    );
}

#[test]
fn unreachable_port_is_a_connect_error() {
    // Bind then drop a listener: nothing listens on that port now.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let err = Client::new()
        .send(&Request::get(&format!("http://127.0.0.1:{port}/")).unwrap())
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Connect);
    assert!(
        err.to_string()
            .starts_with(&format!("could not connect to 127.0.0.1:{port}")),
        "{err}"
    );
}

#[test]
fn unresolvable_host_is_a_resolve_error() {
    let err = Client::new()
        .send(&Request::get("http://no-such-host.invalid/").unwrap())
        .unwrap_err();
    assert!(
        matches!(
            err.kind(),
            ErrorKind::Resolve
                | ErrorKind::Timeout {
                    which: Timeout::Connect,
                    ..
                }
        ),
        "{err}"
    );
}

#[test]
fn duration_max_means_no_timeout() {
    let server = Server::fixed(&crate::support::ok("fine"));
    let client = Client::with_config(
        Config::new()
            .timeout_connect(Duration::MAX)
            .timeout_read(Duration::MAX)
            .timeout_write(Duration::MAX)
            .timeout_call(Duration::MAX),
    );
    let response = client
        .send(&Request::get(&server.url("/")).unwrap())
        .unwrap();
    assert_eq!(response.body(), b"fine");
    let by_name =
        client.send(&Request::get(&format!("http://localhost:{}/", server.port())).unwrap());
    assert_eq!(by_name.unwrap().body(), b"fine");
}
