//! A loopback HTTPS test server: `std::net::TcpListener` on 127.0.0.1 with rustls's server
//! side (from the crate's own `tls` feature), serving the certificates in `tests/data`.
//!
//! `TlsServer::start(cert, handler)` runs the TLS handshake for each accepted connection and
//! hands the handler a [`TlsPeer`]; handshakes the client aborts are recorded instead.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread;
use std::time::Duration;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::{ServerConfig, ServerConnection, StreamOwned};

/// The test root that signed `localhost.pem`, `other-host.pem` and `expired.pem`.
pub const CA: &[u8] = include_bytes!("../data/ca.pem");
/// For localhost, 127.0.0.1 and ::1, signed by the test root.
pub const LOCALHOST: &[u8] = include_bytes!("../data/localhost.pem");
/// For other.test only, signed by the test root.
pub const OTHER_HOST: &[u8] = include_bytes!("../data/other-host.pem");
/// For localhost, valid in 2000 only, signed by the test root.
pub const EXPIRED: &[u8] = include_bytes!("../data/expired.pem");
/// For localhost, signed by its own key.
pub const SELF_SIGNED: &[u8] = include_bytes!("../data/self-signed.pem");
/// The key of every leaf certificate above.
pub const SERVER_KEY: &[u8] = include_bytes!("../data/server.key");

/// A rustls server configuration presenting `cert_pem` (ring provider, TLS 1.2 and 1.3,
/// ALPN `http/1.1`).
pub fn server_config(cert_pem: &[u8]) -> Arc<ServerConfig> {
    let certs = CertificateDer::pem_slice_iter(cert_pem)
        .collect::<Result<Vec<_>, _>>()
        .expect("test certificate");
    let key = PrivateKeyDer::from_pem_slice(SERVER_KEY).expect("test key");
    // ring, as the library uses (rustls 0.23.48 deprecates it for lacking post-quantum key exchange).
    #[allow(deprecated)]
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("protocol versions")
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .expect("certificate and key");
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Arc::new(config)
}

/// A request as the server read it.
#[derive(Clone, Debug)]
pub struct Received {
    pub method: String,
    pub target: String,
    /// The head, request line and fields, as sent.
    pub head: String,
    /// Which connection it came on (0 for the first accepted).
    pub connection: usize,
    /// The SNI the client sent.
    pub sni: Option<String>,
    /// The protocol ALPN settled on.
    pub alpn: Option<Vec<u8>>,
}

impl Received {
    /// The first value of header `name`.
    pub fn header(&self, name: &str) -> Option<String> {
        self.head.split("\r\n").skip(1).find_map(|line| {
            let (n, v) = line.split_once(':')?;
            n.eq_ignore_ascii_case(name).then(|| v.trim().to_string())
        })
    }
}

#[derive(Default)]
struct Shared {
    requests: Mutex<Vec<Received>>,
    handshake_errors: Mutex<Vec<String>>,
    /// Signalled when a handshake error is recorded.
    handshake_failed: Condvar,
    connections: AtomicUsize,
    stop: AtomicBool,
}

/// One connection after its handshake, handed to the handler.
pub struct TlsPeer {
    pub stream: StreamOwned<ServerConnection, TcpStream>,
    pub index: usize,
    buf: Vec<u8>,
    shared: Arc<Shared>,
}

impl TlsPeer {
    /// Reads one request head (these tests send no bodies); `None` when the client closed
    /// the connection.
    pub fn read_request(&mut self) -> Option<Received> {
        let end = loop {
            if let Some(i) = self.buf.windows(4).position(|w| w == b"\r\n\r\n") {
                break i + 4;
            }
            let mut chunk = [0u8; 8192];
            match self.stream.read(&mut chunk) {
                Ok(0) | Err(_) => return None,
                Ok(n) => self.buf.extend_from_slice(&chunk[..n]),
            }
        };
        let head = String::from_utf8(self.buf[..end].to_vec()).ok()?;
        self.buf.drain(..end);
        let mut line = head.split("\r\n").next()?.split(' ');
        let received = Received {
            method: line.next()?.to_string(),
            target: line.next()?.to_string(),
            head: head.clone(),
            connection: self.index,
            sni: self.stream.conn.server_name().map(str::to_string),
            alpn: self.stream.conn.alpn_protocol().map(<[u8]>::to_vec),
        };
        self.shared.requests.lock().unwrap().push(received.clone());
        Some(received)
    }

    /// Writes bytes and flushes them, ignoring errors (the client may have gone).
    pub fn write(&mut self, bytes: &[u8]) {
        let _ = self.stream.write_all(bytes);
        let _ = self.stream.flush();
    }

    /// Writes a response with a `Content-Length` body.
    pub fn respond(&mut self, status: &str, extra_headers: &str, body: &str) {
        let head = format!(
            "HTTP/1.1 {status}\r\n{extra_headers}Content-Length: {}\r\n\r\n{body}",
            body.len()
        );
        self.write(head.as_bytes());
    }

    /// Ends the TLS session properly (`close_notify`), then the connection.
    pub fn close(mut self) {
        self.stream.conn.send_close_notify();
        let _ = self.stream.flush();
    }
}

/// A test server; stops accepting when dropped.
pub struct TlsServer {
    pub addr: SocketAddr,
    shared: Arc<Shared>,
}

impl TlsServer {
    /// Serves `cert_pem` and runs `handler` for each connection whose handshake succeeds.
    pub fn start<F>(cert_pem: &[u8], handler: F) -> TlsServer
    where
        F: Fn(TlsPeer) + Send + Sync + 'static,
    {
        let config = server_config(cert_pem);
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        let addr = listener.local_addr().unwrap();
        let shared = Arc::new(Shared::default());
        let handler = Arc::new(handler);
        let accept_shared = shared.clone();
        thread::spawn(move || {
            for tcp in listener.incoming() {
                if accept_shared.stop.load(Ordering::SeqCst) {
                    break;
                }
                let tcp = match tcp {
                    Ok(s) => s,
                    Err(_) => continue,
                };
                let index = accept_shared.connections.fetch_add(1, Ordering::SeqCst);
                let (config, shared, handler) =
                    (config.clone(), accept_shared.clone(), handler.clone());
                thread::spawn(move || {
                    let _ = tcp.set_read_timeout(Some(Duration::from_secs(10)));
                    let conn = ServerConnection::new(config).expect("server connection");
                    let mut stream = StreamOwned::new(conn, tcp);
                    while stream.conn.is_handshaking() {
                        if let Err(e) = stream.conn.complete_io(&mut stream.sock) {
                            shared.handshake_errors.lock().unwrap().push(e.to_string());
                            shared.handshake_failed.notify_all();
                            return;
                        }
                    }
                    handler(TlsPeer {
                        stream,
                        index,
                        buf: Vec::new(),
                        shared,
                    });
                });
            }
        });
        TlsServer { addr, shared }
    }

    /// A keep-alive server answering every request with `200 OK` and `body`.
    pub fn ok(cert_pem: &[u8], body: &'static str) -> TlsServer {
        TlsServer::start(cert_pem, move |mut peer| {
            while peer.read_request().is_some() {
                peer.respond("200 OK", "", body);
            }
        })
    }

    /// `https://localhost:port` followed by `path`.
    pub fn url(&self, path: &str) -> String {
        format!("https://localhost:{}{}", self.addr.port(), path)
    }

    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    /// The requests read so far.
    pub fn requests(&self) -> Vec<Received> {
        self.shared.requests.lock().unwrap().clone()
    }

    /// Why handshakes failed on the server's side (the client's alert), so far.
    pub fn handshake_errors(&self) -> Vec<String> {
        self.shared.handshake_errors.lock().unwrap().clone()
    }

    /// Waits until a handshake has failed on the server's side (at most 10 s, so a broken
    /// test cannot hang), then returns why, as [`handshake_errors`](Self::handshake_errors).
    pub fn wait_for_handshake_error(&self) -> Vec<String> {
        let errors = self.shared.handshake_errors.lock().unwrap();
        let (errors, _) = self
            .shared
            .handshake_failed
            .wait_timeout_while(errors, Duration::from_secs(10), |e| e.is_empty())
            .unwrap();
        errors.clone()
    }

    /// Connections accepted so far.
    pub fn connections(&self) -> usize {
        self.shared.connections.load(Ordering::SeqCst)
    }
}

impl Drop for TlsServer {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop so it sees the flag.
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_millis(200));
    }
}
