//! A loopback proxy for https: it answers `CONNECT` with the answer it was started with and,
//! on a 2xx, copies bytes both ways between the client and the port asked for on 127.0.0.1
//! (every test origin is local). It records each request head it reads.

use std::io::{Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread;

/// The proxy; it runs until the test process ends.
pub struct ConnectProxy {
    pub addr: SocketAddr,
    heads: Arc<Mutex<Vec<String>>>,
}

impl ConnectProxy {
    /// Starts a proxy that answers every `CONNECT` with `answer` (a whole response head).
    pub fn start(answer: &'static str) -> ConnectProxy {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        let addr = listener.local_addr().unwrap();
        let heads = Arc::new(Mutex::new(Vec::new()));
        let seen = heads.clone();
        thread::spawn(move || {
            for client in listener.incoming().flatten() {
                let seen = seen.clone();
                thread::spawn(move || tunnel(client, answer, &seen));
            }
        });
        ConnectProxy { addr, heads }
    }

    /// `http://127.0.0.1:port`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The request heads read so far.
    pub fn heads(&self) -> Vec<String> {
        self.heads.lock().unwrap().clone()
    }
}

fn tunnel(mut client: TcpStream, answer: &str, seen: &Mutex<Vec<String>>) {
    // One byte at a time, so the TLS bytes after the head (the ClientHello) stay in the
    // socket for the upstream.
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        if client.read(&mut byte).map_or(true, |n| n == 0) {
            return;
        }
        head.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&head).into_owned();
    seen.lock().unwrap().push(head.clone());
    let _ = client.write_all(answer.as_bytes());
    if !answer.starts_with("HTTP/1.1 2") {
        return;
    }
    let authority = head.split(' ').nth(1).unwrap_or("");
    let port = authority.rsplit(':').next().unwrap_or("");
    let upstream = match TcpStream::connect(format!("127.0.0.1:{}", port)) {
        Ok(stream) => stream,
        Err(_) => return,
    };
    let (mut from_up, mut to_client) = (upstream.try_clone().unwrap(), client.try_clone().unwrap());
    let back = thread::spawn(move || {
        let _ = std::io::copy(&mut from_up, &mut to_client);
        let _ = to_client.shutdown(Shutdown::Write);
    });
    let mut to_up = upstream;
    let _ = std::io::copy(&mut client, &mut to_up);
    let _ = to_up.shutdown(Shutdown::Write);
    let _ = back.join();
}
