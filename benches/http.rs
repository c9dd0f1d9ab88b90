//! Loopback keep-alive benchmark of the HTTP client: requests per second and p50/p99 latency
//! for a ~60-byte JSON body, a 100 KB body and the same 100 KB body chunked (4 KiB chunks).
//! With the `tls` feature, the same over https (`https.get.*`): a rustls server in this
//! process presenting `tests/data/localhost.pem`, the client trusting the test root. One
//! handshake, then every request on the same TLS connection.
//!
//! The server runs in this process (std only, a thread per connection, responses built once)
//! so it is not the bottleneck. One client sends one request at a time, as a tool call does.
//!
//! ```sh
//! cargo bench --bench http                 # about 10 seconds
//! cargo bench --bench http -- --quick      # about 2 seconds
//! cargo bench --bench http --features tls  # http, then https: about 20 seconds
//! taskset -c 1 cargo bench --bench http    # steadier on a small VM: client and server on one CPU
//! ```
//!
//! Prints `<name> <value> <unit>` lines: the median of the rounds' rates, and latency
//! percentiles over every timed request.

use httptool::http::{Client, Request, Transport};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

const SMALL: &str = r#"{"city":"Hangzhou","temp_c":21.5,"condition":"cloudy","days":3}"#;
const LARGE_LEN: usize = 100_000;
const CHUNK: usize = 4096;

struct Variant {
    name: &'static str,
    path: &'static str,
    body: Vec<u8>,
}

/// A ~100 KB JSON array of hourly records.
fn large_body() -> Vec<u8> {
    let mut s = String::from(r#"{"city":"Hangzhou","hourly":["#);
    let mut i = 0u32;
    while s.len() < LARGE_LEN - 120 {
        if i > 0 {
            s.push(',');
        }
        s.push_str(&format!(
            r#"{{"hour":{},"temp_c":{}.{},"humidity":{},"condition":"partly cloudy"}}"#,
            i % 24,
            i % 35,
            i % 10,
            40 + i % 50
        ));
        i += 1;
    }
    s.push_str("]}");
    s.into_bytes()
}

fn with_length(body: &[u8]) -> Vec<u8> {
    let mut out = format!(
        "HTTP/1.1 200 OK\r\nServer: bench\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    out.extend_from_slice(body);
    out
}

fn chunked(body: &[u8]) -> Vec<u8> {
    let mut out = b"HTTP/1.1 200 OK\r\nServer: bench\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec();
    for piece in body.chunks(CHUNK) {
        out.extend_from_slice(format!("{:x}\r\n", piece.len()).as_bytes());
        out.extend_from_slice(piece);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(b"0\r\n\r\n");
    out
}

type Routes = Arc<Vec<(&'static str, Vec<u8>)>>;

/// Serves keep-alive connections until the process ends; `wrap` turns each accepted socket
/// into the stream served (itself, or a TLS stream).
fn start_server<S, W>(routes: Routes, wrap: W) -> SocketAddr
where
    S: Read + Write,
    W: Fn(TcpStream) -> S + Send + Sync + 'static,
{
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().expect("address");
    let wrap = Arc::new(wrap);
    thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let (routes, wrap) = (routes.clone(), wrap.clone());
            let _ = stream.set_nodelay(true);
            thread::spawn(move || serve(wrap(stream), &routes));
        }
    });
    addr
}

fn serve<S: Read + Write>(mut stream: S, routes: &[(&'static str, Vec<u8>)]) {
    let mut buf = vec![0u8; 16 * 1024];
    let mut filled = 0;
    loop {
        let end = match buf[..filled].windows(4).position(|w| w == b"\r\n\r\n") {
            Some(i) => i + 4,
            None => {
                if filled == buf.len() {
                    return;
                }
                match stream.read(&mut buf[filled..]) {
                    Ok(0) | Err(_) => return,
                    Ok(n) => filled += n,
                }
                continue;
            }
        };
        let target = buf[..end].split(|&b| b == b' ').nth(1).unwrap_or(b"");
        let path = target.split(|&b| b == b'?').next().unwrap_or(b"");
        let reply = routes
            .iter()
            .find(|(p, _)| p.as_bytes() == path)
            .map(|(_, r)| r);
        let reply: &[u8] = match reply {
            Some(r) => r,
            None => b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n",
        };
        if stream
            .write_all(reply)
            .and_then(|_| stream.flush())
            .is_err()
        {
            return;
        }
        buf.copy_within(end..filled, 0);
        filled -= end;
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    values[values.len() / 2]
}

/// Timed rounds of GETs for each variant; prints `<scheme>.get.<variant>.{rps,p50,p99}`.
fn measure(
    scheme: &str,
    client: &Client,
    base: &str,
    variants: &[Variant],
    timing: (usize, Duration),
) {
    let (rounds, round) = timing;
    for v in variants {
        let url = format!("{base}{}?q=Hangzhou&days=3", v.path);
        let get = || {
            let response = client
                .send(&Request::get(&url).expect("url"))
                .expect("request");
            assert_eq!(response.status(), 200);
            response.into_body()
        };
        assert!(get() == v.body, "{}: wrong body", v.name);
        let warm = Instant::now();
        while warm.elapsed() < round / 2 {
            get();
        }
        let mut rates = Vec::with_capacity(rounds);
        let mut latencies = Vec::new();
        for _ in 0..rounds {
            let start = Instant::now();
            let mut count = 0u32;
            while start.elapsed() < round {
                let t = Instant::now();
                let body = get();
                latencies.push(t.elapsed());
                assert_eq!(body.len(), v.body.len());
                count += 1;
            }
            rates.push(f64::from(count) / start.elapsed().as_secs_f64());
        }
        latencies.sort();
        let us = |d: Duration| d.as_secs_f64() * 1e6;
        let name = format!("{scheme}.get.{}", v.name);
        println!("{name}.rps {:.0} req/s", median(&mut rates));
        println!("{name}.p50 {:.1} us", us(percentile(&latencies, 50.0)));
        println!("{name}.p99 {:.1} us", us(percentile(&latencies, 99.0)));
    }
}

/// The https side: a rustls server presenting the test certificate, and a client that
/// trusts the test root only.
#[cfg(feature = "tls")]
mod tls {
    use super::{start_server, Routes};
    use httptool::http::{Client, Config};
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::{CertificateDer, PrivateKeyDer};
    use rustls::{ServerConfig, ServerConnection, StreamOwned};
    use std::sync::Arc;

    const CA: &[u8] = include_bytes!("../tests/data/ca.pem");
    const CERT: &[u8] = include_bytes!("../tests/data/localhost.pem");
    const KEY: &[u8] = include_bytes!("../tests/data/server.key");

    /// Starts the server; returns the base URL and the client.
    pub fn start(routes: Routes) -> (String, Client) {
        let certs = CertificateDer::pem_slice_iter(CERT)
            .collect::<Result<Vec<_>, _>>()
            .expect("certificate");
        let key = PrivateKeyDer::from_pem_slice(KEY).expect("key");
        // ring, as the library uses (rustls 0.23.48 deprecates it for lacking post-quantum key exchange).
        #[allow(deprecated)]
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let config = Arc::new(
            ServerConfig::builder_with_provider(provider)
                .with_safe_default_protocol_versions()
                .expect("versions")
                .with_no_client_auth()
                .with_single_cert(certs, key)
                .expect("certificate and key"),
        );
        let addr = start_server(routes, move |sock| {
            let conn = ServerConnection::new(config.clone()).expect("server connection");
            StreamOwned::new(conn, sock)
        });
        let client = Client::with_config(
            Config::new()
                .add_root_certificates_pem(CA)
                .expect("test root")
                .webpki_roots(false),
        );
        (format!("https://localhost:{}", addr.port()), client)
    }
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let (rounds, round) = if quick {
        (3, Duration::from_millis(200))
    } else {
        (7, Duration::from_millis(1000))
    };
    let large = large_body();
    let variants = [
        Variant {
            name: "small",
            path: "/small",
            body: SMALL.as_bytes().to_vec(),
        },
        Variant {
            name: "large",
            path: "/large",
            body: large.clone(),
        },
        Variant {
            name: "chunked",
            path: "/chunked",
            body: large.clone(),
        },
    ];
    let routes: Routes = Arc::new(vec![
        ("/small", with_length(SMALL.as_bytes())),
        ("/large", with_length(&large)),
        ("/chunked", chunked(&large)),
    ]);
    let timing = (rounds, round);
    let addr = start_server(routes.clone(), |sock| sock);
    measure(
        "http",
        &Client::new(),
        &format!("http://{addr}"),
        &variants,
        timing,
    );
    #[cfg(feature = "tls")]
    {
        let (base, client) = tls::start(routes);
        measure("https", &client, &base, &variants, timing);
    }
}
