//! The network options of the commands that send (`call`, `serve`): the roots https trusts,
//! the proxies, and the whole-call deadline; and what a failed call's error means for the
//! person at the command line (the option or the install command that fixes it).
//!
//! The library reads nothing from the environment on its own (`httptool::design::architecture`,
//! "What touches the outside world"): here the
//! binary asks for it, through `ProxyConfig::from_env` (the library's reading, curl's rules)
//! and `HTTPTOOL_CA_FILE`.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use httptool::http::{
    CertificateProblem, Client, Config, Error, ErrorKind, Proxy, ProxyConfig, Request, Response,
    Transport,
};
use httptool::plugin::HttpPlugin;

use crate::args::Args;
use crate::error::CliError;

/// How to get a binary with https, as every message that needs it says it.
pub const INSTALL_TLS: &str = "cargo install httptool --features tls";

/// The options below, as the help of `call` and `serve` lists them.
pub const HELP: &str = "\
network (call and serve):
  --timeout SECONDS  the deadline of each whole call (connecting, sending, reading,
                     redirects), over the plugin's own timeout_call_ms; decimals allowed
  --ca-file PATH     also trust the CA certificates (PEM) in PATH for https: a company CA,
                     a development server's certificate; repeatable. Without it, the paths
                     in HTTPTOOL_CA_FILE (separated by ':', ';' on Windows) are used
  --no-default-roots trust only the --ca-file certificates, not Mozilla's roots
  --proxy URL        send every request through the http proxy URL
                     (http://[user:password@]host[:port]), whatever the environment says
  --no-proxy         send every request directly, whatever the environment says

Without --proxy or --no-proxy the proxies come from the environment, as curl reads it:
http_proxy for http URLs (lower case only: HTTP_PROXY can be set by a request to a CGI
program), https_proxy or HTTPS_PROXY for https URLs (a CONNECT tunnel), all_proxy or
ALL_PROXY for both when those are unset, and NO_PROXY or no_proxy: hosts, domains and
networks (10.0.0.0/8) reached directly, separated by commas, or `*` for all. NO_PROXY also
applies to --proxy. Proxy credentials are secrets: never shown, *** in a dry run
(unless --reveal-secrets).";

/// The variable `--ca-file` falls back to.
#[cfg(feature = "tls")]
const CA_FILE_VAR: &str = "HTTPTOOL_CA_FILE";

/// The longest `--timeout`: a little over 31 years, far beyond any call, and small enough
/// that the conversion to a `Duration` cannot overflow.
const MAX_TIMEOUT_SECONDS: f64 = 1e9;

/// Certificate files are read up to this many bytes: a bundle of every public root is
/// about 250 KB.
#[cfg(feature = "tls")]
const MAX_CA_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// `--version`'s line: the version, and whether this build speaks https.
pub fn version() -> String {
    if cfg!(feature = "tls") {
        format!(
            "httptool {} (https: yes, rustls with Mozilla's roots)",
            env!("CARGO_PKG_VERSION")
        )
    } else {
        format!(
            "httptool {} (http only, no https: install with https by `{}`)",
            env!("CARGO_PKG_VERSION"),
            INSTALL_TLS
        )
    }
}

/// The network settings of one command, read from its words and the environment.
pub struct Network {
    client: Client,
    timeout: Option<Duration>,
    /// The kind of the last transport error, for [`Network::explain`].
    last_error: Arc<Mutex<Option<ErrorKind>>>,
    /// The hints already written to standard error, shared by every plugin of a server.
    announced: Arc<Mutex<Vec<String>>>,
}

impl Network {
    /// Takes `--timeout`, `--ca-file`, `--no-default-roots`, `--proxy` and `--no-proxy`
    /// from `args`, and reads `HTTPTOOL_CA_FILE` and the proxy variables when the options
    /// leave them a say.
    ///
    /// # Errors
    ///
    /// A usage error for a value that cannot be read or options that contradict each other;
    /// a failure naming the file for a certificate file that cannot be read or used, and
    /// naming the variable for a proxy variable that cannot be used.
    pub fn from_args(args: &mut Args) -> Result<Network, CliError> {
        let timeout = match args.value("--timeout")? {
            Some(word) => Some(seconds(&word)?),
            None => None,
        };
        let ca_files = args.values("--ca-file")?;
        let no_default_roots = args.flag("--no-default-roots");
        let proxy = args.value("--proxy")?;
        let no_proxy = args.flag("--no-proxy");
        let config = roots(Config::new(), ca_files, no_default_roots)?;
        let proxies = match (proxy, no_proxy) {
            (Some(_), true) => {
                return Err(CliError::Usage(
                    "--proxy and --no-proxy contradict each other: give one".to_string(),
                ))
            }
            (Some(url), false) => {
                let proxy =
                    Proxy::new(&url).map_err(|e| CliError::Usage(format!("--proxy: {}", e)))?;
                ProxyConfig::all(proxy).no_proxy(&no_proxy_var())
            }
            (None, true) => ProxyConfig::none(),
            (None, false) => proxies_from_env()?,
        };
        Ok(Network {
            client: Client::with_config(config.proxy(proxies)),
            timeout,
            last_error: Arc::new(Mutex::new(None)),
            announced: Arc::new(Mutex::new(Vec::new())),
        })
    }

    /// `plugin`, sending through this command's client. A dry run renders with the client
    /// itself (the absolute form through an http proxy, its credentials as `***`); a real
    /// call goes through a transport that applies `--timeout` and remembers the error for
    /// [`explain`](Network::explain). With `announce`, each hint is also written to standard
    /// error the first time it applies (a server has no one else to tell).
    pub fn install(&self, plugin: HttpPlugin, dry_run: bool, announce: bool) -> HttpPlugin {
        if dry_run {
            return plugin.with_client(self.client.clone());
        }
        plugin.with_transport(Arc::new(Sender {
            client: self.client.clone(),
            timeout: self.timeout,
            last_error: self.last_error.clone(),
            announced: announce.then(|| self.announced.clone()),
        }))
    }

    /// `message` with what the person at the command line can do about the last transport
    /// error, when there is something to say.
    pub fn explain(&self, message: String) -> String {
        let kind = match self.last_error.lock() {
            Ok(last) => *last,
            Err(_) => None,
        };
        match kind.and_then(hint) {
            Some(hint) => format!("{}\nhttptool: {}", message, hint),
            None => message,
        }
    }
}

/// The transport of a real call: the command's client, with `--timeout` over the request's
/// own deadline.
struct Sender {
    client: Client,
    timeout: Option<Duration>,
    last_error: Arc<Mutex<Option<ErrorKind>>>,
    /// The hints already written to standard error, when they are written there.
    announced: Option<Arc<Mutex<Vec<String>>>>,
}

impl Transport for Sender {
    fn send(&self, request: &Request) -> Result<Response, Error> {
        let result = match self.timeout {
            None => self.client.send(request),
            Some(timeout) => {
                let mut request = request.clone();
                let options = request.options().clone().timeout_call(timeout);
                request.set_options(options);
                self.client.send(&request)
            }
        };
        if let Err(err) = &result {
            // Only the kind is kept: the message may quote a path the plugin redacts later.
            if let Ok(mut last) = self.last_error.lock() {
                *last = Some(err.kind());
            }
            self.announce(err.kind());
        }
        result
    }
}

impl Sender {
    fn announce(&self, kind: ErrorKind) {
        let (announced, hint) = match (&self.announced, hint(kind)) {
            (Some(announced), Some(hint)) => (announced, hint),
            _ => return,
        };
        if let Ok(mut announced) = announced.lock() {
            if !announced.contains(&hint) {
                eprintln!("httptool: {}", hint);
                announced.push(hint);
            }
        }
    }
}

/// What fixes a transport error from the command line, for the errors whose fix is an
/// option of this program or another build of it.
fn hint(kind: ErrorKind) -> Option<String> {
    let text = match kind {
        ErrorKind::TlsUnavailable => format!(
            "this httptool was built without https: install one with https by `{}` (from a clone of the repository: `cargo build --release --features tls`)",
            INSTALL_TLS
        ),
        ErrorKind::Certificate(problem) => certificate_hint(problem),
        ErrorKind::ProxyNeedsAllowlist => "the plugin's address_policy is strict, and a strict plugin through a proxy needs a host allowlist: the proxy resolves the names, so the addresses cannot be checked here; reach the API without the proxy (--no-proxy, or its host in NO_PROXY) or leave the strict policy out".to_string(),
        ErrorKind::TunnelRefused { status: 407 } => "the proxy wants credentials: give them in its URL (http://user:password@host:port, percent-encoded) in --proxy or HTTPS_PROXY".to_string(),
        ErrorKind::Timeout { .. } => "the API did not answer in time: --timeout SECONDS sets a longer deadline for the whole call".to_string(),
        _ => return None,
    };
    Some(text)
}

/// Which certificate check failed, and for an unknown issuer how to trust it.
fn certificate_hint(problem: CertificateProblem) -> String {
    let check = match problem {
        CertificateProblem::UnknownIssuer => {
            return "the server's certificate failed the issuer check: no trusted root issued it (a company CA, a self-signed certificate); trust its CA with --ca-file PATH (PEM) or HTTPTOOL_CA_FILE".to_string()
        }
        CertificateProblem::HostnameMismatch => "the host name check: it is not valid for the URL's host",
        CertificateProblem::Expired => "the validity check: it has expired (or this machine's clock is wrong)",
        CertificateProblem::NotYetValid => "the validity check: it is not valid yet (or this machine's clock is wrong)",
        _ => "its signature or encoding check",
    };
    format!("the server's certificate failed {}", check)
}

/// `--timeout`'s value: seconds above 0, decimals allowed.
fn seconds(word: &str) -> Result<Duration, CliError> {
    match word.parse::<f64>() {
        Ok(s) if s > 0.0 && s <= MAX_TIMEOUT_SECONDS => Ok(Duration::from_secs_f64(s)),
        _ => Err(CliError::Usage(format!(
            "--timeout takes a number of seconds above 0 (such as 30 or 2.5), got '{}'",
            word
        ))),
    }
}

/// The roots https trusts: the `--ca-file`s (or `HTTPTOOL_CA_FILE`'s) besides, or with
/// `--no-default-roots` instead of, Mozilla's.
#[cfg(feature = "tls")]
fn roots(
    mut config: Config,
    ca_files: Vec<String>,
    no_default_roots: bool,
) -> Result<Config, CliError> {
    let files = if ca_files.is_empty() {
        ca_files_from_env()
    } else {
        ca_files
    };
    if no_default_roots && files.is_empty() {
        return Err(CliError::Usage(
            "--no-default-roots needs --ca-file PATH (or HTTPTOOL_CA_FILE): with no root, no https server can be trusted".to_string(),
        ));
    }
    for path in &files {
        let pem = read_ca_file(path)?;
        config = config
            .add_root_certificates_pem(&pem)
            .map_err(|e| CliError::Failed(format!("{}: {}", path, e)))?;
    }
    Ok(config.webpki_roots(!no_default_roots))
}

/// Without https there are no roots to add: asking for them is an error that says how to
/// get https. `HTTPTOOL_CA_FILE` is left alone, as it may be set for every program.
#[cfg(not(feature = "tls"))]
fn roots(
    config: Config,
    ca_files: Vec<String>,
    no_default_roots: bool,
) -> Result<Config, CliError> {
    if !ca_files.is_empty() || no_default_roots {
        let option = if ca_files.is_empty() {
            "--no-default-roots"
        } else {
            "--ca-file"
        };
        return Err(CliError::Usage(format!(
            "{} is for https, and this httptool was built without it: install one with https by `{}`",
            option, INSTALL_TLS
        )));
    }
    Ok(config)
}

/// The paths in `HTTPTOOL_CA_FILE`, separated as `PATH` is (`:`, or `;` on Windows).
#[cfg(feature = "tls")]
fn ca_files_from_env() -> Vec<String> {
    match std::env::var_os(CA_FILE_VAR) {
        Some(value) => std::env::split_paths(&value)
            .filter(|p| !p.as_os_str().is_empty())
            .map(|p| p.to_string_lossy().into_owned())
            .collect(),
        None => Vec::new(),
    }
}

/// A certificate file's bytes, at most [`MAX_CA_FILE_BYTES`].
#[cfg(feature = "tls")]
fn read_ca_file(path: &str) -> Result<Vec<u8>, CliError> {
    let cannot =
        |e: std::io::Error| CliError::Failed(format!("cannot read the CA file {}: {}", path, e));
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(cannot)?;
    let mut bytes = Vec::new();
    file.take(MAX_CA_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    if bytes.len() as u64 > MAX_CA_FILE_BYTES {
        return Err(CliError::Failed(format!(
            "the CA file {} is larger than {} bytes: it is not a certificate bundle",
            path, MAX_CA_FILE_BYTES
        )));
    }
    Ok(bytes)
}

/// The proxies of the environment, read by the library as curl reads them. A variable that
/// holds an unusable proxy is named (its value is not shown: it may hold credentials).
fn proxies_from_env() -> Result<ProxyConfig, CliError> {
    ProxyConfig::from_env().map_err(|e| {
        let culprit = PROXY_VARS
            .iter()
            .find(|name| match std::env::var(name) {
                Ok(value) => !value.trim().is_empty() && Proxy::new(&value).is_err(),
                Err(_) => false,
            })
            .copied()
            .unwrap_or("a proxy variable");
        CliError::Failed(format!(
            "{}: {}; fix it, or pass --no-proxy or --proxy URL",
            culprit, e
        ))
    })
}

/// The variables `ProxyConfig::from_env` reads a proxy from, in its order.
const PROXY_VARS: [&str; 5] = [
    "http_proxy",
    "https_proxy",
    "HTTPS_PROXY",
    "all_proxy",
    "ALL_PROXY",
];

/// `NO_PROXY` (or `no_proxy`), as `ProxyConfig::from_env` reads it, for `--proxy`.
fn no_proxy_var() -> String {
    ["no_proxy", "NO_PROXY"]
        .iter()
        .filter_map(|name| std::env::var(name).ok())
        .find(|value| !value.trim().is_empty())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timeouts_are_positive_seconds() {
        assert_eq!(seconds("2.5").unwrap(), Duration::from_millis(2500));
        for bad in ["0", "-1", "NaN", "inf", "1e300", "ten", ""] {
            assert_eq!(
                seconds(bad).unwrap_err().to_string(),
                format!(
                    "--timeout takes a number of seconds above 0 (such as 30 or 2.5), got '{}'",
                    bad
                )
            );
        }
    }

    #[test]
    fn hints_name_the_fix() {
        let issuer = hint(ErrorKind::Certificate(CertificateProblem::UnknownIssuer)).unwrap();
        assert!(issuer.contains("--ca-file"), "{}", issuer);
        let host = hint(ErrorKind::Certificate(CertificateProblem::HostnameMismatch)).unwrap();
        assert!(host.contains("host name check"), "{}", host);
        let tls = hint(ErrorKind::TlsUnavailable).unwrap();
        assert!(tls.contains(INSTALL_TLS), "{}", tls);
        assert!(hint(ErrorKind::ProxyNeedsAllowlist)
            .unwrap()
            .contains("host allowlist"));
        assert_eq!(hint(ErrorKind::Resolve), None);
    }
}
