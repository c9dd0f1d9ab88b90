//! https through rustls: trust roots, the handshake, and the encrypted stream. The only file
//! that names rustls types; none of them reach the public API.
//!
//! - Provider: ring, chosen here rather than taken from the process-wide default, so another
//!   crate enabling a second provider in rustls cannot change (or break) what this one uses.
//! - Versions: TLS 1.3 and 1.2, with rustls's default cipher suites for the provider.
//! - Trust: Mozilla's roots from webpki-roots (unless turned off) and the roots the caller
//!   adds from PEM. The platform's store is never read.
//! - Verification: rustls's webpki verifier, never switched off: chain to a trusted root,
//!   validity dates, and the name (a DNS name against DNS SANs, an address against IP SANs).
//! - ALPN offers `http/1.1` only; SNI is sent for names, never for addresses (RFC 6066
//!   section 3).

use std::fmt;
use std::io::{self, IoSlice, Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rustls::crypto::ring as provider;
use rustls::pki_types::pem::{self, PemObject};
use rustls::pki_types::{CertificateDer, ServerName};
use rustls::{CertificateError, ClientConfig, ClientConnection, RootCertStore};

use super::clock::Clock;
use super::error::{CertificateProblem, Error, ErrorKind, Timeout};
use crate::url::Host;

/// Whether https trusts Mozilla's root certificates (from webpki-roots). Defaults to `true`.
pub const DEFAULT_WEBPKI_ROOTS: bool = true;

/// Which roots https trusts: part of [`Config`](super::Config).
#[derive(Clone)]
pub(crate) struct Trust {
    /// Roots added from PEM, already parsed into trust anchors.
    added: RootCertStore,
    webpki_roots: bool,
}

impl Default for Trust {
    fn default() -> Trust {
        Trust {
            added: RootCertStore::empty(),
            webpki_roots: DEFAULT_WEBPKI_ROOTS,
        }
    }
}

impl fmt::Debug for Trust {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Trust")
            .field("added_roots", &self.added.len())
            .field("webpki_roots", &self.webpki_roots)
            .finish()
    }
}

impl Trust {
    /// Adds every `CERTIFICATE` section of `pem` as a root; other sections (keys) are skipped.
    /// Nothing is added unless every certificate is usable.
    pub fn add_pem(&mut self, pem: &[u8]) -> Result<(), Error> {
        let mut parsed = RootCertStore::empty();
        for (index, section) in CertificateDer::pem_slice_iter(pem).enumerate() {
            let cert = section.map_err(pem_error)?;
            parsed.add(cert).map_err(|e| {
                Error::new(ErrorKind::InvalidRootCertificate)
                    .with_detail(format!(
                        "certificate {} of the pem is not a usable root",
                        index + 1
                    ))
                    .with_source(e)
            })?;
        }
        if parsed.is_empty() {
            return Err(Error::new(ErrorKind::InvalidRootCertificate)
                .with_detail("the pem holds no `BEGIN CERTIFICATE` section"));
        }
        self.added.roots.extend(parsed.roots);
        Ok(())
    }

    pub fn set_webpki_roots(&mut self, enabled: bool) {
        self.webpki_roots = enabled;
    }
}

/// What a PEM syntax error says, without quoting the input (it may hold a key by mistake).
fn pem_error(e: pem::Error) -> Error {
    let detail = match e {
        pem::Error::MissingSectionEnd { .. } => "a section has no `END` line",
        pem::Error::IllegalSectionStart { .. } => "a `BEGIN` line is malformed",
        pem::Error::Base64Decode(_) => "a section is not valid base64",
        pem::Error::SectionTooLarge => "a section is too large",
        _ => "it could not be read",
    };
    Error::new(ErrorKind::InvalidRootCertificate).with_detail(format!("invalid pem: {detail}"))
}

/// The client side of TLS, built once per [`Client`](super::Client): the roots and the
/// session cache are shared by its connections.
pub(crate) struct Connector {
    /// The build cannot fail with the ring provider and both versions; should it, every
    /// https request reports why instead of the program panicking.
    config: Result<Arc<ClientConfig>, rustls::Error>,
}

/// rustls's ring provider: TLS 1.3 and 1.2 with classical key exchange (X25519, P-256, P-384).
///
/// rustls 0.23.48 deprecates it for lacking post-quantum key exchange, which only its aws-lc-rs
/// provider has; that provider brings a C library and its build, which this feature keeps out.
#[allow(deprecated)]
fn ring_provider() -> rustls::crypto::CryptoProvider {
    provider::default_provider()
}

impl Connector {
    pub fn new(trust: &Trust) -> Connector {
        let mut roots = trust.added.clone();
        if trust.webpki_roots {
            roots
                .roots
                .extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
        }
        let config = ClientConfig::builder_with_provider(Arc::new(ring_provider()))
            .with_protocol_versions(&[&rustls::version::TLS13, &rustls::version::TLS12])
            .map(|builder| {
                let mut config = builder.with_root_certificates(roots).with_no_client_auth();
                // RFC 7301: this client speaks HTTP/1.1 only.
                config.alpn_protocols = vec![b"http/1.1".to_vec()];
                Arc::new(config)
            });
        Connector { config }
    }

    /// Runs the handshake on `sock` for `host`. The handshake is part of connecting: all of
    /// it fits in one `timeout_connect` (and the call's deadline).
    pub fn handshake(
        &self,
        sock: TcpStream,
        host: Host<'_>,
        clock: &Clock,
    ) -> Result<TlsStream, Error> {
        let config = match &self.config {
            Ok(config) => config.clone(),
            Err(e) => return Err(handshake_failed("tls setup failed").with_source(e.clone())),
        };
        let conn = ClientConnection::new(config, server_name(host)?)
            .map_err(|e| handshake_failed("tls setup failed").with_source(e))?;
        let mut stream = TlsStream {
            conn,
            sock,
            records: Records::default(),
            read_wait: Wait::default(),
            write_wait: Wait::default(),
        };
        let (budget, which) = clock.budget(Timeout::Connect)?;
        // The budget is spread over several socket waits, whose timeouts are the operating
        // system's timers: what is left of it is measured in real time, like them, not on
        // the client's time source.
        let deadline = Instant::now().checked_add(budget);
        stream.complete_handshake(deadline).map_err(|e| match e {
            Step::TimedOut => clock.timeout_error(which),
            Step::Failed(e) => e,
        })?;
        Ok(stream)
    }
}

/// The name the certificate must hold: an address for an IP host (checked against IP SANs),
/// else the DNS name without a trailing dot.
fn server_name(host: Host<'_>) -> Result<ServerName<'static>, Error> {
    match host {
        Host::Ipv4(ip) => Ok(ServerName::from(std::net::IpAddr::V4(ip))),
        Host::Ipv6(ip) => Ok(ServerName::from(std::net::IpAddr::V6(ip))),
        Host::Domain(name) => {
            let name = name.strip_suffix('.').unwrap_or(name);
            ServerName::try_from(name.to_string()).map_err(|_| {
                handshake_failed(&format!(
                    "'{name}' is not a dns name a certificate can be checked against"
                ))
            })
        }
    }
}

fn handshake_failed(detail: &str) -> Error {
    Error::new(ErrorKind::TlsHandshake).with_detail(detail)
}

/// How a handshake step ended, when it did not succeed.
enum Step {
    TimedOut,
    Failed(Error),
}

/// A TLS connection over TCP. Reads and writes go through rustls; waits are bounded by the
/// socket timeouts the connection sets.
pub(crate) struct TlsStream {
    conn: ClientConnection,
    sock: TcpStream,
    /// Where the bytes read so far stand in the record layer.
    records: Records,
    read_wait: Wait,
    write_wait: Wait,
}

/// Where the bytes read from the socket stand in the record layer (RFC 8446 section 5.1,
/// RFC 5246 section 6.2: a 5-byte header of type, version and a 16-bit length, then that
/// many bytes). rustls keeps a record until it is whole and tells nothing of one begun;
/// this does, for the idle check: a record begun on an idle connection is bytes nobody asked
/// for, and the next response read would start with them.
#[derive(Clone, Copy, Debug, Default)]
struct Records {
    /// Bytes of the current header seen: 0 (none: between records) to 4.
    header_seen: u8,
    /// The high byte of the current header's length, once seen.
    length_high: u8,
    /// Bytes of the current record still to come after its header.
    body_left: usize,
}

impl Records {
    fn feed(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() {
            if self.body_left > 0 {
                let skip = self.body_left.min(bytes.len());
                self.body_left -= skip;
                bytes = &bytes[skip..];
                continue;
            }
            let (&byte, rest) = match bytes.split_first() {
                Some(split) => split,
                None => return,
            };
            bytes = rest;
            match self.header_seen {
                3 => {
                    self.length_high = byte;
                    self.header_seen = 4;
                }
                4 => {
                    self.body_left = usize::from(u16::from_be_bytes([self.length_high, byte]));
                    self.header_seen = 0;
                }
                seen => self.header_seen = seen + 1,
            }
        }
    }

    /// Whether a record has begun and not ended.
    fn pending(&self) -> bool {
        self.header_seen > 0 || self.body_left > 0
    }
}

/// The socket as rustls reads it, every byte also fed to [`Records`].
struct Framed<'a> {
    sock: &'a mut TcpStream,
    records: &'a mut Records,
}

impl Read for Framed<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.sock.read(buf)?;
        if let Some(read) = buf.get(..n) {
            self.records.feed(read);
        }
        Ok(n)
    }
}

/// How many reads the idle check makes at most: records that mean nothing to the
/// application (session tickets, a key update) are few; more than this is not idle.
const IDLE_READS: usize = 4;

/// The timeout the connection set for one direction: it bounds a whole `read` (or
/// `write_vectored`) call, however many socket waits the records of that call take. Without
/// this, a server trickling one record a byte at a time, each byte within the socket's
/// timeout, would hold a call past its own timeout and the call's deadline.
#[derive(Clone, Copy, Debug, Default)]
struct Wait {
    timeout: Option<Duration>,
    /// The socket's timeout is lower than `timeout` now: the end of a call came near.
    lowered: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Direction {
    Read,
    Write,
}

impl fmt::Debug for TlsStream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TlsStream")
            .field("sock", &self.sock)
            .field("version", &self.conn.protocol_version())
            .finish()
    }
}

impl TlsStream {
    /// Reads TLS bytes from the socket into rustls, keeping track of the records.
    fn read_tls(&mut self) -> io::Result<usize> {
        let mut framed = Framed {
            sock: &mut self.sock,
            records: &mut self.records,
        };
        self.conn.read_tls(&mut framed)
    }

    /// Drives the handshake to its end, writing what rustls queues and reading what it asks
    /// for, each wait bounded by what is left before `deadline`.
    fn complete_handshake(&mut self, deadline: Option<Instant>) -> Result<(), Step> {
        loop {
            while self.conn.wants_write() {
                self.arm(deadline)?;
                match self.conn.write_tls(&mut self.sock) {
                    Ok(_) => {}
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(self.io_failure(e)),
                }
            }
            if !self.conn.is_handshaking() {
                return Ok(());
            }
            self.arm(deadline)?;
            match self.read_tls() {
                Ok(0) => {
                    return Err(Step::Failed(handshake_failed(
                        "the server closed the connection during the handshake",
                    )))
                }
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(self.io_failure(e)),
            }
            if let Err(e) = self.conn.process_new_packets() {
                // Tell the server why, best effort: rustls queued the alert.
                let _ = self.conn.write_tls(&mut self.sock);
                return Err(Step::Failed(handshake_error(e)));
            }
        }
    }

    /// Sets both socket timeouts to what is left before `deadline`.
    fn arm(&self, deadline: Option<Instant>) -> Result<(), Step> {
        let left = match deadline {
            Some(d) => d.saturating_duration_since(Instant::now()),
            None => Duration::from_secs(u64::from(u32::MAX)),
        };
        if left.is_zero() {
            return Err(Step::TimedOut);
        }
        self.sock
            .set_read_timeout(Some(left))
            .and_then(|_| self.sock.set_write_timeout(Some(left)))
            .map_err(|e| Step::Failed(Error::io(ErrorKind::Io, e)))
    }

    fn io_failure(&self, e: io::Error) -> Step {
        match e.kind() {
            io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut => Step::TimedOut,
            io::ErrorKind::ConnectionReset
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::BrokenPipe
            | io::ErrorKind::UnexpectedEof => Step::Failed(handshake_failed(
                "the server closed the connection during the handshake",
            )),
            _ => Step::Failed(Error::io(ErrorKind::Io, e)),
        }
    }

    /// Reads plaintext. `Ok(0)` is a clean close (the server sent `close_notify`); a close
    /// without it is an `UnexpectedEof` error, since the response may have been cut short
    /// (RFC 8446 section 6.1, RFC 9112 section 9.8).
    pub fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let deadline = self.begin_wait(Direction::Read)?;
        let mut waited = false;
        loop {
            match self.conn.reader().read(buf) {
                Ok(n) => return Ok(n),
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => {
                    return Err(io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        "the server closed the tls connection without close_notify",
                    ))
                }
                Err(e) => return Err(e),
            }
            // Nothing decrypted yet: send what rustls owes the server (a key update
            // answer), then read more records.
            self.flush_tls()?;
            if waited {
                self.wait_again(Direction::Read, deadline)?;
            }
            waited = true;
            if self.read_tls()? == 0 {
                // rustls now knows the transport ended; the next `reader()` call says how.
                continue;
            }
            self.conn
                .process_new_packets()
                .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
        }
    }

    /// Encrypts as much of `bufs` as rustls takes and writes it out; returns the plaintext
    /// bytes taken. A socket error is returned here, never swallowed.
    pub fn write_vectored(&mut self, bufs: &[IoSlice<'_>]) -> io::Result<usize> {
        let taken = self.conn.writer().write_vectored(bufs)?;
        self.flush_tls()?;
        Ok(taken)
    }

    fn flush_tls(&mut self) -> io::Result<()> {
        let mut deadline = None;
        let mut waited = false;
        while self.conn.wants_write() {
            if waited {
                self.wait_again(Direction::Write, deadline)?;
            } else {
                deadline = self.begin_wait(Direction::Write)?;
                waited = true;
            }
            match self.conn.write_tls(&mut self.sock) {
                Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    pub fn set_read_timeout(&mut self, timeout: Duration) -> io::Result<()> {
        self.sock.set_read_timeout(Some(timeout))?;
        self.read_wait = Wait {
            timeout: Some(timeout),
            lowered: false,
        };
        Ok(())
    }

    pub fn set_write_timeout(&mut self, timeout: Duration) -> io::Result<()> {
        self.sock.set_write_timeout(Some(timeout))?;
        self.write_wait = Wait {
            timeout: Some(timeout),
            lowered: false,
        };
        Ok(())
    }

    fn wait_of(&mut self, direction: Direction) -> &mut Wait {
        match direction {
            Direction::Read => &mut self.read_wait,
            Direction::Write => &mut self.write_wait,
        }
    }

    fn set_socket_timeout(
        &self,
        direction: Direction,
        timeout: Option<Duration>,
    ) -> io::Result<()> {
        match direction {
            Direction::Read => self.sock.set_read_timeout(timeout),
            Direction::Write => self.sock.set_write_timeout(timeout),
        }
    }

    /// Starts a call's waits in `direction`: the socket's timeout back to the one set, and
    /// the instant the call must be done by.
    fn begin_wait(&mut self, direction: Direction) -> io::Result<Option<Instant>> {
        let wait = *self.wait_of(direction);
        if wait.lowered {
            self.set_socket_timeout(direction, wait.timeout)?;
            self.wait_of(direction).lowered = false;
        }
        // The socket's timeout, spread over the waits of one read or write: real time, as
        // the operating system measures it.
        Ok(wait.timeout.and_then(|t| Instant::now().checked_add(t)))
    }

    /// Before another socket wait in the same call: the socket's timeout lowered to what is
    /// left before `deadline`, or a timeout error once nothing is.
    fn wait_again(&mut self, direction: Direction, deadline: Option<Instant>) -> io::Result<()> {
        let deadline = match deadline {
            Some(deadline) => deadline,
            None => return Ok(()),
        };
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the tls records of one read or write took longer than its timeout",
            ));
        }
        self.set_socket_timeout(direction, Some(left))?;
        self.wait_of(direction).lowered = true;
        Ok(())
    }

    /// Whether an idle connection can no longer carry a request. Records that arrived while
    /// it was idle are read without waiting: session tickets or a key update leave it usable;
    /// `close_notify`, the end of the stream, an error, decrypted bytes nobody asked for (now
    /// or left from before), or a record begun and not ended do not.
    pub fn is_stale(&mut self) -> bool {
        if self.sock.set_nonblocking(true).is_err() {
            return true;
        }
        let stale = self.poll_idle();
        self.sock.set_nonblocking(false).is_err() || stale
    }

    fn poll_idle(&mut self) -> bool {
        for _ in 0..IDLE_READS {
            let more = match self.read_tls() {
                Ok(0) => return true,
                Ok(_) => true,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => false,
                Err(_) => return true,
            };
            match self.conn.process_new_packets() {
                Ok(state) if state.plaintext_bytes_to_read() > 0 || state.peer_has_closed() => {
                    return true
                }
                Ok(_) => {}
                Err(_) => return true,
            }
            if !more {
                return self.records.pending();
            }
        }
        true
    }
}

impl Drop for TlsStream {
    /// Says goodbye (`close_notify`) when the socket can take it at once; never waits.
    fn drop(&mut self) {
        if self.conn.is_handshaking() || self.sock.set_nonblocking(true).is_err() {
            return;
        }
        self.conn.send_close_notify();
        let _ = self.conn.write_tls(&mut self.sock);
    }
}

/// Maps a handshake failure to the kind that says what happened.
fn handshake_error(e: rustls::Error) -> Error {
    let problem = match &e {
        rustls::Error::InvalidCertificate(cert) => match cert {
            CertificateError::UnknownIssuer => CertificateProblem::UnknownIssuer,
            CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. } => {
                CertificateProblem::HostnameMismatch
            }
            CertificateError::Expired | CertificateError::ExpiredContext { .. } => {
                CertificateProblem::Expired
            }
            CertificateError::NotValidYet | CertificateError::NotValidYetContext { .. } => {
                CertificateProblem::NotYetValid
            }
            _ => CertificateProblem::Invalid,
        },
        rustls::Error::AlertReceived(alert) => {
            return handshake_failed(&format!("the server sent the alert {alert:?}"))
        }
        rustls::Error::NoCertificatesPresented => CertificateProblem::Invalid,
        _ => return Error::new(ErrorKind::TlsHandshake).with_source(e),
    };
    let error = Error::new(ErrorKind::Certificate(problem));
    match problem {
        CertificateProblem::Invalid => error.with_source(e),
        _ => error,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustls::pki_types::UnixTime;
    use rustls::{AlertDescription, PeerIncompatible};

    fn at(secs: u64) -> UnixTime {
        UnixTime::since_unix_epoch(Duration::from_secs(secs))
    }

    #[test]
    fn records_are_followed_across_reads() {
        let mut records = Records::default();
        assert!(!records.pending());
        // A whole record with a 3-byte body, then a header split over three reads.
        records.feed(&[0x17, 0x03, 0x03, 0x00, 0x03, 1, 2, 3]);
        assert!(!records.pending());
        records.feed(&[0x17, 0x03]);
        assert!(records.pending());
        records.feed(&[0x03, 0x01]);
        assert!(records.pending());
        records.feed(&[0x00]);
        assert_eq!(records.body_left, 256);
        records.feed(&[0u8; 255]);
        assert!(records.pending());
        // The last body byte, and a record with an empty body.
        records.feed(&[0, 0x15, 0x03, 0x03, 0x00, 0x00]);
        assert!(!records.pending());
    }

    #[test]
    fn handshake_errors_map_to_what_happened() {
        use CertificateProblem as P;
        let cert = |e: CertificateError| rustls::Error::InvalidCertificate(e);
        let cases: Vec<(&str, rustls::Error, ErrorKind)> = vec![
            (
                "unknown issuer",
                cert(CertificateError::UnknownIssuer),
                ErrorKind::Certificate(P::UnknownIssuer),
            ),
            (
                "name",
                cert(CertificateError::NotValidForName),
                ErrorKind::Certificate(P::HostnameMismatch),
            ),
            (
                "expired",
                cert(CertificateError::Expired),
                ErrorKind::Certificate(P::Expired),
            ),
            (
                "expired, with dates",
                cert(CertificateError::ExpiredContext {
                    time: at(2),
                    not_after: at(1),
                }),
                ErrorKind::Certificate(P::Expired),
            ),
            (
                "not yet valid",
                cert(CertificateError::NotValidYet),
                ErrorKind::Certificate(P::NotYetValid),
            ),
            (
                "not yet valid, with dates",
                cert(CertificateError::NotValidYetContext {
                    time: at(1),
                    not_before: at(2),
                }),
                ErrorKind::Certificate(P::NotYetValid),
            ),
            (
                "bad signature",
                cert(CertificateError::BadSignature),
                ErrorKind::Certificate(P::Invalid),
            ),
            (
                "no certificate",
                rustls::Error::NoCertificatesPresented,
                ErrorKind::Certificate(P::Invalid),
            ),
            (
                "alert",
                rustls::Error::AlertReceived(AlertDescription::HandshakeFailure),
                ErrorKind::TlsHandshake,
            ),
            (
                "nothing in common",
                rustls::Error::PeerIncompatible(PeerIncompatible::NoCipherSuitesInCommon),
                ErrorKind::TlsHandshake,
            ),
        ];
        for (name, error, kind) in cases {
            assert_eq!(handshake_error(error).kind(), kind, "{name}");
        }
    }

    #[test]
    fn handshake_messages() {
        let cases = [
            (
                rustls::Error::InvalidCertificate(CertificateError::NotValidYet),
                "certificate not yet valid: the server's certificate's validity period has not started (or this machine's clock is wrong)",
            ),
            (
                rustls::Error::AlertReceived(AlertDescription::ProtocolVersion),
                "tls handshake failed: the server sent the alert ProtocolVersion",
            ),
        ];
        for (error, want) in cases {
            assert_eq!(handshake_error(error).to_string(), want);
        }
        // The rest of this one is rustls's own words.
        let invalid = rustls::Error::InvalidCertificate(CertificateError::BadSignature);
        let message = handshake_error(invalid).to_string();
        assert!(message.starts_with("invalid certificate: "), "{message}");
    }

    #[test]
    fn names_checked_against_the_certificate() {
        let ip = std::net::Ipv4Addr::new(127, 0, 0, 1);
        assert_eq!(
            server_name(Host::Ipv4(ip)).unwrap(),
            ServerName::from(std::net::IpAddr::V4(ip))
        );
        let ip6 = std::net::Ipv6Addr::LOCALHOST;
        assert_eq!(
            server_name(Host::Ipv6(ip6)).unwrap(),
            ServerName::from(std::net::IpAddr::V6(ip6))
        );
        let name = server_name(Host::Domain("api.example.com.")).unwrap();
        assert_eq!(name.to_str(), "api.example.com");
        let err = server_name(Host::Domain("a..b")).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::TlsHandshake);
        assert_eq!(
            err.to_string(),
            "tls handshake failed: 'a..b' is not a dns name a certificate can be checked against"
        );
    }

    #[test]
    fn roots_from_pem_are_all_or_nothing() {
        let ca = include_bytes!("../../tests/data/ca.pem");
        let mut trust = Trust::default();
        trust.add_pem(ca).unwrap();
        let mut bad = ca.to_vec();
        bad.extend_from_slice(b"-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n");
        assert!(trust.add_pem(&bad).is_err());
        assert_eq!(
            format!("{trust:?}"),
            "Trust { added_roots: 1, webpki_roots: true }"
        );
    }

    /// A server that answers the handshake, reads the request, then sends the first bytes
    /// of a TLS record one by one, each well within the read timeout.
    fn trickling_server() -> u16 {
        use rustls::pki_types::PrivateKeyDer;
        use rustls::{ServerConfig, ServerConnection};
        let certs =
            CertificateDer::pem_slice_iter(include_bytes!("../../tests/data/localhost.pem"))
                .collect::<Result<Vec<_>, _>>()
                .unwrap();
        let key =
            PrivateKeyDer::from_pem_slice(include_bytes!("../../tests/data/server.key")).unwrap();
        let config = ServerConfig::builder_with_provider(Arc::new(super::ring_provider()))
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(certs, key)
            .unwrap();
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        std::thread::spawn(move || {
            let (mut sock, _) = listener.accept().unwrap();
            sock.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
            let mut conn = ServerConnection::new(Arc::new(config)).unwrap();
            let mut request = Vec::new();
            while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                if conn.complete_io(&mut sock).is_err() {
                    return;
                }
                let mut chunk = [0u8; 1024];
                while let Ok(n) = conn.reader().read(&mut chunk) {
                    if n == 0 {
                        break;
                    }
                    request.extend_from_slice(&chunk[..n]);
                }
            }
            // An application-data record of 16 KiB, arriving a byte every 100 ms. A real
            // sleep: the read loop under test measures one socket timeout across several
            // waits in real time (the operating system's timers), which a ManualTime does not
            // move.
            let record = [0x17u8, 0x03, 0x03, 0x40, 0x00].iter().chain(&[0u8; 60]);
            for &b in record {
                if sock.write_all(&[b]).is_err() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(100));
            }
        });
        port
    }

    #[test]
    fn a_server_trickling_tls_records_is_cut_by_timeout_call() {
        // Regression: one read looped over socket waits until a whole record arrived, each
        // wait within the socket's timeout, so the call went on past `timeout_call`.
        use crate::http::{Client, Config, Request, Transport};
        let port = trickling_server();
        let config = Config::new()
            .add_root_certificates_pem(include_bytes!("../../tests/data/ca.pem"))
            .unwrap()
            .timeout_read(Duration::from_secs(2))
            .timeout_call(Duration::from_millis(1500));
        let client = Client::with_config(config);
        let start = Instant::now();
        let request = Request::get(&format!("https://localhost:{port}/")).unwrap();
        let err = client.send(&request).unwrap_err();
        let elapsed = start.elapsed();
        assert_eq!(
            err.kind(),
            ErrorKind::Timeout {
                which: Timeout::Call,
                after: Duration::from_millis(1500)
            },
            "{err}"
        );
        assert!(elapsed < Duration::from_secs(4), "{elapsed:?}");
    }
}
