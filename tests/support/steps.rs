//! Two signals between a test and its server thread, so a test about bytes that arrive
//! "later" does not race: the test says `go` when the server may write them (after the
//! client has read what came before), and the server says `done` once they are written
//! (so the client's next call starts after they reached its socket). No sleeps.
//!
//! For that the bytes must leave at once: the server's socket needs `set_nodelay(true)`, or
//! Nagle's algorithm holds a small write until the client acknowledges the one before it
//! (seen here: the client's check ran 70 us after the server's write returned, and found
//! nothing). And `done` travels over a loopback TCP connection of its own, written by the
//! server thread right after the bytes under test, so a busy machine that defers loopback
//! delivery delivers `done` after them, not before (a channel in memory would overtake them).
//!
//! Included with `#[path = "support/steps.rs"] mod steps;`.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The server's side. A handler is shared by the server's threads, and a channel's receiving
/// end is not `Sync`: hence the locks.
pub struct Steps {
    go: Mutex<Receiver<()>>,
    done: Mutex<TcpStream>,
}

/// The test's side.
pub struct Test {
    go: Sender<()>,
    done: TcpStream,
}

/// Both sides.
pub fn steps() -> (Arc<Steps>, Test) {
    let (go_tx, go_rx) = mpsc::channel();
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
    let sender = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
    sender.set_nodelay(true).unwrap();
    let (receiver, _) = listener.accept().unwrap();
    receiver
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let server = Steps {
        go: Mutex::new(go_rx),
        done: Mutex::new(sender),
    };
    let test = Test {
        go: go_tx,
        done: receiver,
    };
    (Arc::new(server), test)
}

impl Steps {
    /// Waits for the test's `go`, runs `write` (on a socket with `nodelay` set), and says
    /// `done`.
    pub fn on_go(&self, write: impl FnOnce()) {
        let go = self
            .go
            .lock()
            .unwrap()
            .recv_timeout(Duration::from_secs(10));
        if go.is_ok() {
            write();
            let _ = self.done.lock().unwrap().write_all(b"!");
        }
    }
}

impl Test {
    /// Lets the server write, and waits until it has.
    pub fn go_and_wait(&mut self) {
        self.go.send(()).unwrap();
        let mut byte = [0u8; 1];
        self.done
            .read_exact(&mut byte)
            .expect("the server wrote its bytes");
    }
}
