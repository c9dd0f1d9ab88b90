//! curl's command-line options: every name curl 8 knows, what kind of argument each takes,
//! and what httptool does with it.
//!
//! The names, short letters and argument kinds follow curl's own option table
//! (`src/tool_getparam.c`, curl 8.x) and its manual. A name is matched exactly, else, as
//! curl does, by an unambiguous prefix (`--sil` is `--silent`; [`prefixed`]).
//! Options that do not change what the server receives and only change what curl prints
//! ([`Action::Ignore`]) are accepted silently; every other option httptool does not carry
//! over either leaves a note ([`Action::Note`]) or, when leaving it out would change the
//! request, is refused ([`Action::Refuse`]).

use super::command::DataKind;

/// What kind of argument an option takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Arg {
    /// Nothing, and it cannot be negated (`--http1.1`).
    None,
    /// Nothing; `--no-NAME` turns it off (`--location`, `--no-location`).
    Bool,
    /// A value: the rest of a short option's word, or the next argument.
    Value,
}

/// What the reader does when it meets an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Action {
    Request,
    Header,
    Data(DataKind),
    Form,
    FormString,
    Get,
    Head,
    User,
    Bearer,
    /// `--digest`: the `-u` credentials answer a Digest challenge.
    Digest,
    /// `--basic`: the `-u` credentials go as Basic (undoes `--digest`).
    Basic,
    /// `--aws-sigv4 PROVIDER1[:PROVIDER2[:REGION[:SERVICE]]]`: the `-u` credentials sign
    /// each request (AWS Signature Version 4).
    AwsSigV4,
    UserAgent,
    Referer,
    Cookie,
    Location,
    /// `--location-trusted`, `--follow`: follow redirects, with a note.
    LocationNote(&'static str),
    MaxRedirs,
    Insecure,
    Compressed,
    Globoff,
    MaxTime,
    ConnectTimeout,
    Proxy,
    Url,
    /// `--url-query` (curl 7.87): a pair added to the URL's query.
    UrlQuery,
    /// `-r/--range`: the `Range: bytes=...` header.
    Range,
    Upload,
    ProtoDefault,
    /// Only changes what curl prints; nothing to carry over.
    Ignore,
    /// Not carried over; the note says why.
    Note(&'static str),
    /// Refused with an [`ErrorKind::Unsupported`](super::ErrorKind::Unsupported) giving this reason.
    Refuse(&'static str),
}

/// One curl option.
#[derive(Debug)]
pub(crate) struct Spec {
    /// The long name, without the leading `--`.
    pub(crate) long: &'static str,
    /// The short letter, or 0.
    pub(crate) short: u8,
    pub(crate) arg: Arg,
    pub(crate) action: Action,
}

impl Spec {
    /// How errors and notes name the option: `-X/--request`, or `--json`.
    pub(crate) fn name(&self) -> String {
        if self.short == 0 {
            format!("--{}", self.long)
        } else {
            format!("-{}/--{}", char::from(self.short), self.long)
        }
    }

    pub(crate) fn takes_value(&self) -> bool {
        self.arg == Arg::Value
    }
}

/// The option with this long name (no leading `--`).
pub(crate) fn long(name: &str) -> Option<&'static Spec> {
    OPTIONS
        .binary_search_by(|spec| spec.long.cmp(name))
        .ok()
        .and_then(|at| OPTIONS.get(at))
}

/// The option with this short letter.
pub(crate) fn short(letter: u8) -> Option<&'static Spec> {
    if letter == 0 {
        return None;
    }
    OPTIONS.iter().find(|spec| spec.short == letter)
}

/// Every long name, in order.
pub(crate) fn names() -> impl Iterator<Item = &'static str> {
    OPTIONS.iter().map(|spec| spec.long)
}

/// The options whose long name starts with `prefix`, in name order: curl reads a long
/// option written as a prefix of exactly one name as that option (`tool_getparam.c`), and
/// an exact name always wins, so look that up first.
pub(crate) fn prefixed(prefix: &str) -> Vec<&'static Spec> {
    if prefix.is_empty() {
        return Vec::new();
    }
    // The table is sorted: the names with this prefix are one run.
    let start = OPTIONS.partition_point(|spec| spec.long < prefix);
    OPTIONS
        .get(start..)
        .unwrap_or(&[])
        .iter()
        .take_while(|spec| spec.long.starts_with(prefix))
        .collect()
}

const OUTPUT: &str = "curl would write a file here; httptool hands the response to the caller";
const PROTOCOL: &str = "httptool speaks HTTP/1.1; the protocol version is not carried over";
const CONNECTION: &str =
    "changes how curl connects; httptool connects to the URL's own host and port";
const TLS: &str = "TLS settings are not carried over; httptool checks certificates its own way";
const CLIENT_CERT: &str =
    "client certificates are not supported; a server that needs one will refuse the request";
const PROXY: &str = "proxy settings other than -x/--proxy are not carried over";
const OTHER_PROTOCOL: &str = "applies to protocols other than HTTP; left out";
const TRANSFER: &str = "transfer tuning (rates, sizes, timeouts) is not carried over";
const RETRY: &str = "retries are not carried over; httptool retries by its own policy";
const WRITE_OUT: &str = "the output format is not carried over; httptool returns the response";
const NETRC: &str =
    "curl would read credentials from a .netrc file; httptool reads no file, add -u instead";
const CACHE: &str = "curl would read and write a cache file here; httptool reads no file";
const ETAG: &str =
    "curl would send If-None-Match from this file; httptool reads no file, add -H instead";
const PATH_AS_IS: &str = "the URL is kept as written, `.` and `..` segments included";
const TR_ENCODING: &str = "a compressed transfer encoding is not asked for";
const POST_REDIRECT: &str = "which method a redirect uses follows httptool's own rules";
const PROTO: &str =
    "protocol restrictions are not carried over; httptool sends http and https only";
const FORM_ESCAPE: &str = "multipart field names are escaped the default way";
const EXPECT: &str = "the Expect: 100-continue timing is not carried over";
const LOCATION_TRUSTED: &str =
    "read as -L; httptool never sends credentials to another host on a redirect";
const FOLLOW: &str = "read as -L; which method a redirect uses follows httptool's own rules";

const AUTH: &str =
    "httptool sends basic (-u), digest (--digest -u) and bearer (--oauth2-bearer) credentials only";
const CONFIG: &str = "it reads options from a file, which httptool never does; put the options \
                      on the command line";
const NEXT: &str = "httptool reads one request per command; split the command in two";
const INFO: &str = "it prints information instead of sending a request";
const RANGE: &str = "write the range instead, such as -r 100- or -H 'Range: bytes=100-'";
const TIME_COND: &str = "write the header instead, such as -H 'If-Modified-Since: <date>'";
const REQUEST_TARGET: &str = "httptool sends the URL's own path and query";
const VARIABLE: &str = "curl variables are not supported; write the values out";

const fn none(long: &'static str, short: u8, action: Action) -> Spec {
    Spec {
        long,
        short,
        arg: Arg::None,
        action,
    }
}

const fn switch(long: &'static str, short: u8, action: Action) -> Spec {
    Spec {
        long,
        short,
        arg: Arg::Bool,
        action,
    }
}

const fn value(long: &'static str, short: u8, action: Action) -> Spec {
    Spec {
        long,
        short,
        arg: Arg::Value,
        action,
    }
}

use Action::{Ignore, Note, Refuse};

/// Every option, sorted by long name (binary search relies on it; a test checks it).
static OPTIONS: &[Spec] = &[
    value("abstract-unix-socket", 0, Note(CONNECTION)),
    switch("alpn", 0, Note(TLS)),
    value("alt-svc", 0, Note(CACHE)),
    none("anyauth", 0, Refuse(AUTH)),
    switch("append", b'a', Note(OTHER_PROTOCOL)),
    value("aws-sigv4", 0, Action::AwsSigV4),
    switch("basic", 0, Action::Basic),
    // `-N` is `--no-buffer`: either way only output buffering changes.
    switch("buffer", b'N', Ignore),
    switch("ca-native", 0, Note(TLS)),
    value("cacert", 0, Note(TLS)),
    value("capath", 0, Note(TLS)),
    value("cert", b'E', Note(CLIENT_CERT)),
    switch("cert-status", 0, Note(TLS)),
    value("cert-type", 0, Note(CLIENT_CERT)),
    value("ciphers", 0, Note(TLS)),
    switch("clobber", 0, Ignore),
    switch("compressed", 0, Action::Compressed),
    switch("compressed-ssh", 0, Note(OTHER_PROTOCOL)),
    value("config", b'K', Refuse(CONFIG)),
    value("connect-timeout", 0, Action::ConnectTimeout),
    value("connect-to", 0, Note(CONNECTION)),
    value("continue-at", b'C', Refuse(RANGE)),
    value("cookie", b'b', Action::Cookie),
    value("cookie-jar", b'c', Note(OUTPUT)),
    switch("create-dirs", 0, Ignore),
    value("create-file-mode", 0, Ignore),
    switch("crlf", 0, Note(OTHER_PROTOCOL)),
    value("crlfile", 0, Note(TLS)),
    value("curves", 0, Note(TLS)),
    value("data", b'd', Action::Data(DataKind::Data)),
    value("data-ascii", 0, Action::Data(DataKind::Ascii)),
    value("data-binary", 0, Action::Data(DataKind::Binary)),
    value("data-raw", 0, Action::Data(DataKind::Raw)),
    value("data-urlencode", 0, Action::Data(DataKind::UrlEncode)),
    value("delegation", 0, Note(OTHER_PROTOCOL)),
    switch("digest", 0, Action::Digest),
    switch("disable", b'q', Ignore),
    switch("disable-eprt", 0, Note(OTHER_PROTOCOL)),
    switch("disable-epsv", 0, Note(OTHER_PROTOCOL)),
    switch("disallow-username-in-url", 0, Ignore),
    value("dns-interface", 0, Note(CONNECTION)),
    value("dns-ipv4-addr", 0, Note(CONNECTION)),
    value("dns-ipv6-addr", 0, Note(CONNECTION)),
    value("dns-servers", 0, Note(CONNECTION)),
    switch("doh-cert-status", 0, Note(CONNECTION)),
    switch("doh-insecure", 0, Note(CONNECTION)),
    value("doh-url", 0, Note(CONNECTION)),
    none("dump-ca-embed", 0, Refuse(INFO)),
    value("dump-header", b'D', Note(OUTPUT)),
    value("ech", 0, Note(TLS)),
    value("egd-file", 0, Note(TLS)),
    value("engine", 0, Note(TLS)),
    switch("eprt", 0, Note(OTHER_PROTOCOL)),
    switch("epsv", 0, Note(OTHER_PROTOCOL)),
    value("etag-compare", 0, Note(ETAG)),
    value("etag-save", 0, Note(OUTPUT)),
    value("expect100-timeout", 0, Note(EXPECT)),
    switch("fail", b'f', Ignore),
    switch("fail-early", 0, Ignore),
    switch("fail-with-body", 0, Ignore),
    switch("false-start", 0, Note(TLS)),
    switch("follow", 0, Action::LocationNote(FOLLOW)),
    value("form", b'F', Action::Form),
    switch("form-escape", 0, Note(FORM_ESCAPE)),
    value("form-string", 0, Action::FormString),
    value("ftp-account", 0, Note(OTHER_PROTOCOL)),
    value("ftp-alternative-to-user", 0, Note(OTHER_PROTOCOL)),
    switch("ftp-create-dirs", 0, Note(OTHER_PROTOCOL)),
    value("ftp-method", 0, Note(OTHER_PROTOCOL)),
    none("ftp-pasv", 0, Note(OTHER_PROTOCOL)),
    value("ftp-port", b'P', Note(OTHER_PROTOCOL)),
    switch("ftp-pret", 0, Note(OTHER_PROTOCOL)),
    switch("ftp-skip-pasv-ip", 0, Note(OTHER_PROTOCOL)),
    switch("ftp-ssl", 0, Note(OTHER_PROTOCOL)),
    switch("ftp-ssl-ccc", 0, Note(OTHER_PROTOCOL)),
    value("ftp-ssl-ccc-mode", 0, Note(OTHER_PROTOCOL)),
    switch("ftp-ssl-control", 0, Note(OTHER_PROTOCOL)),
    switch("ftp-ssl-reqd", 0, Note(OTHER_PROTOCOL)),
    switch("get", b'G', Action::Get),
    switch("globoff", b'g', Action::Globoff),
    value("happy-eyeballs-timeout-ms", 0, Note(CONNECTION)),
    value("haproxy-clientip", 0, Note(CONNECTION)),
    switch("haproxy-protocol", 0, Note(CONNECTION)),
    switch("head", b'I', Action::Head),
    value("header", b'H', Action::Header),
    // curl 8 takes an optional category after --help; it sends nothing either way.
    none("help", b'h', Refuse(INFO)),
    value("hostpubmd5", 0, Note(OTHER_PROTOCOL)),
    value("hostpubsha256", 0, Note(OTHER_PROTOCOL)),
    value("hsts", 0, Note(CACHE)),
    switch("http0.9", 0, Note(PROTOCOL)),
    none("http1.0", b'0', Note(PROTOCOL)),
    none("http1.1", 0, Ignore),
    none("http2", 0, Note(PROTOCOL)),
    none("http2-prior-knowledge", 0, Note(PROTOCOL)),
    none("http3", 0, Note(PROTOCOL)),
    none("http3-only", 0, Note(PROTOCOL)),
    switch("ignore-content-length", 0, Note(TRANSFER)),
    switch("include", 0, Ignore),
    switch("insecure", b'k', Action::Insecure),
    value("interface", 0, Note(CONNECTION)),
    value("ip-tos", 0, Note(CONNECTION)),
    value("ipfs-gateway", 0, Note(OTHER_PROTOCOL)),
    none("ipv4", b'4', Note(CONNECTION)),
    none("ipv6", b'6', Note(CONNECTION)),
    value("json", 0, Action::Data(DataKind::Json)),
    switch("junk-session-cookies", b'j', Ignore),
    switch("keepalive", 0, Ignore),
    value("keepalive-cnt", 0, Ignore),
    value("keepalive-time", 0, Ignore),
    value("key", 0, Note(CLIENT_CERT)),
    value("key-type", 0, Note(CLIENT_CERT)),
    value("knownhosts", 0, Note(OTHER_PROTOCOL)),
    value("krb", 0, Note(OTHER_PROTOCOL)),
    value("krb4", 0, Note(OTHER_PROTOCOL)),
    value("libcurl", 0, Note(OUTPUT)),
    value("limit-rate", 0, Note(TRANSFER)),
    switch("list-only", b'l', Note(OTHER_PROTOCOL)),
    value("local-port", 0, Note(CONNECTION)),
    switch("location", b'L', Action::Location),
    switch(
        "location-trusted",
        0,
        Action::LocationNote(LOCATION_TRUSTED),
    ),
    value("login-options", 0, Note(OTHER_PROTOCOL)),
    value("mail-auth", 0, Note(OTHER_PROTOCOL)),
    value("mail-from", 0, Note(OTHER_PROTOCOL)),
    value("mail-rcpt", 0, Note(OTHER_PROTOCOL)),
    switch("mail-rcpt-allowfails", 0, Note(OTHER_PROTOCOL)),
    switch("manual", b'M', Refuse(INFO)),
    value("max-filesize", 0, Note(TRANSFER)),
    value("max-redirs", 0, Action::MaxRedirs),
    value("max-time", b'm', Action::MaxTime),
    switch("metalink", 0, Note(OTHER_PROTOCOL)),
    switch("mptcp", 0, Note(CONNECTION)),
    switch("negotiate", 0, Refuse(AUTH)),
    switch("netrc", b'n', Note(NETRC)),
    value("netrc-file", 0, Note(NETRC)),
    switch("netrc-optional", 0, Note(NETRC)),
    none("next", b':', Refuse(NEXT)),
    value("noproxy", 0, Note(PROXY)),
    switch("npn", 0, Note(TLS)),
    switch("ntlm", 0, Refuse(AUTH)),
    switch("ntlm-wb", 0, Refuse(AUTH)),
    value("oauth2-bearer", 0, Action::Bearer),
    switch("out-null", 0, Ignore),
    value("output", b'o', Note(OUTPUT)),
    value("output-dir", 0, Note(OUTPUT)),
    switch("parallel", b'Z', Ignore),
    switch("parallel-immediate", 0, Ignore),
    value("parallel-max", 0, Ignore),
    value("parallel-max-host", 0, Ignore),
    value("pass", 0, Note(CLIENT_CERT)),
    switch("path-as-is", 0, Note(PATH_AS_IS)),
    value("pinnedpubkey", 0, Note(TLS)),
    switch("post301", 0, Note(POST_REDIRECT)),
    switch("post302", 0, Note(POST_REDIRECT)),
    switch("post303", 0, Note(POST_REDIRECT)),
    value("preproxy", 0, Note(PROXY)),
    switch("progress-bar", b'#', Ignore),
    switch("progress-meter", 0, Ignore),
    value("proto", 0, Note(PROTO)),
    value("proto-default", 0, Action::ProtoDefault),
    value("proto-redir", 0, Note(PROTO)),
    value("proxy", b'x', Action::Proxy),
    switch("proxy-anyauth", 0, Note(PROXY)),
    switch("proxy-basic", 0, Note(PROXY)),
    switch("proxy-ca-native", 0, Note(PROXY)),
    value("proxy-cacert", 0, Note(PROXY)),
    value("proxy-capath", 0, Note(PROXY)),
    value("proxy-cert", 0, Note(PROXY)),
    value("proxy-cert-type", 0, Note(PROXY)),
    value("proxy-ciphers", 0, Note(PROXY)),
    value("proxy-crlfile", 0, Note(PROXY)),
    switch("proxy-digest", 0, Note(PROXY)),
    value("proxy-header", 0, Note(PROXY)),
    switch("proxy-http2", 0, Note(PROXY)),
    switch("proxy-insecure", 0, Note(PROXY)),
    value("proxy-key", 0, Note(PROXY)),
    value("proxy-key-type", 0, Note(PROXY)),
    switch("proxy-negotiate", 0, Note(PROXY)),
    switch("proxy-ntlm", 0, Note(PROXY)),
    value("proxy-pass", 0, Note(PROXY)),
    value("proxy-pinnedpubkey", 0, Note(PROXY)),
    value("proxy-service-name", 0, Note(PROXY)),
    switch("proxy-ssl-allow-beast", 0, Note(PROXY)),
    switch("proxy-ssl-auto-client-cert", 0, Note(PROXY)),
    value("proxy-tls13-ciphers", 0, Note(PROXY)),
    value("proxy-tlsauthtype", 0, Note(PROXY)),
    value("proxy-tlspassword", 0, Note(PROXY)),
    value("proxy-tlsuser", 0, Note(PROXY)),
    none("proxy-tlsv1", 0, Note(PROXY)),
    value("proxy-user", b'U', Note(PROXY)),
    value("proxy1.0", 0, Note(PROXY)),
    switch("proxytunnel", b'p', Note(PROXY)),
    value("pubkey", 0, Note(OTHER_PROTOCOL)),
    value("quote", b'Q', Note(OTHER_PROTOCOL)),
    value("random-file", 0, Note(TLS)),
    value("range", b'r', Action::Range),
    value("rate", 0, Ignore),
    switch("raw", 0, Ignore),
    value("referer", b'e', Action::Referer),
    switch("remote-header-name", b'J', Note(OUTPUT)),
    switch("remote-name", b'O', Note(OUTPUT)),
    switch("remote-name-all", 0, Note(OUTPUT)),
    switch("remote-time", b'R', Ignore),
    switch("remove-on-error", 0, Ignore),
    value("request", b'X', Action::Request),
    value("request-target", 0, Refuse(REQUEST_TARGET)),
    value("resolve", 0, Note(CONNECTION)),
    value("retry", 0, Note(RETRY)),
    switch("retry-all-errors", 0, Note(RETRY)),
    switch("retry-connrefused", 0, Note(RETRY)),
    value("retry-delay", 0, Note(RETRY)),
    value("retry-max-time", 0, Note(RETRY)),
    value("sasl-authzid", 0, Note(OTHER_PROTOCOL)),
    switch("sasl-ir", 0, Note(OTHER_PROTOCOL)),
    value("service-name", 0, Note(OTHER_PROTOCOL)),
    switch("sessionid", 0, Ignore),
    switch("show-error", b'S', Ignore),
    switch("show-headers", b'i', Ignore),
    value("sigalgs", 0, Note(TLS)),
    switch("silent", b's', Ignore),
    switch("skip-existing", 0, Ignore),
    value("socks4", 0, Note(PROXY)),
    value("socks4a", 0, Note(PROXY)),
    value("socks5", 0, Note(PROXY)),
    switch("socks5-basic", 0, Note(PROXY)),
    switch("socks5-gssapi", 0, Note(PROXY)),
    switch("socks5-gssapi-nec", 0, Note(PROXY)),
    value("socks5-gssapi-service", 0, Note(PROXY)),
    value("socks5-hostname", 0, Note(PROXY)),
    value("speed-limit", b'Y', Note(TRANSFER)),
    value("speed-time", b'y', Note(TRANSFER)),
    switch("ssl", 0, Note(TLS)),
    switch("ssl-allow-beast", 0, Note(TLS)),
    switch("ssl-auto-client-cert", 0, Note(TLS)),
    switch("ssl-no-revoke", 0, Note(TLS)),
    switch("ssl-reqd", 0, Note(TLS)),
    switch("ssl-revoke-best-effort", 0, Note(TLS)),
    value("ssl-sessions", 0, Note(TLS)),
    none("sslv2", b'2', Note(TLS)),
    none("sslv3", b'3', Note(TLS)),
    value("stderr", 0, Ignore),
    switch("styled-output", 0, Ignore),
    switch("suppress-connect-headers", 0, Ignore),
    switch("tcp-fastopen", 0, Note(CONNECTION)),
    switch("tcp-nodelay", 0, Ignore),
    value("telnet-option", b't', Note(OTHER_PROTOCOL)),
    value("tftp-blksize", 0, Note(OTHER_PROTOCOL)),
    switch("tftp-no-options", 0, Note(OTHER_PROTOCOL)),
    value("time-cond", b'z', Refuse(TIME_COND)),
    switch("tls-earlydata", 0, Note(TLS)),
    value("tls-max", 0, Note(TLS)),
    value("tls13-ciphers", 0, Note(TLS)),
    value("tlsauthtype", 0, Note(TLS)),
    value("tlspassword", 0, Note(TLS)),
    value("tlsuser", 0, Note(TLS)),
    none("tlsv1", b'1', Note(TLS)),
    none("tlsv1.0", 0, Note(TLS)),
    none("tlsv1.1", 0, Note(TLS)),
    none("tlsv1.2", 0, Note(TLS)),
    none("tlsv1.3", 0, Note(TLS)),
    switch("tr-encoding", 0, Note(TR_ENCODING)),
    value("trace", 0, Note(OUTPUT)),
    value("trace-ascii", 0, Note(OUTPUT)),
    value("trace-config", 0, Ignore),
    switch("trace-ids", 0, Ignore),
    switch("trace-time", 0, Ignore),
    value("unix-socket", 0, Note(CONNECTION)),
    value("upload-file", b'T', Action::Upload),
    value("upload-flags", 0, Note(OTHER_PROTOCOL)),
    value("url", 0, Action::Url),
    value("url-query", 0, Action::UrlQuery),
    switch("use-ascii", b'B', Note(OTHER_PROTOCOL)),
    value("user", b'u', Action::User),
    value("user-agent", b'A', Action::UserAgent),
    value("variable", 0, Refuse(VARIABLE)),
    switch("verbose", b'v', Ignore),
    switch("version", b'V', Refuse(INFO)),
    value("vlan-priority", 0, Note(CONNECTION)),
    value("write-out", b'w', Note(WRITE_OUT)),
    switch("xattr", 0, Ignore),
];

/// Options curl 8.3 and later read with `--expand-NAME`, substituting `{{variables}}`.
pub(crate) const EXPAND_PREFIX: &str = "expand-";

/// Why `--expand-NAME` is refused.
pub(crate) const EXPAND_REASON: &str = VARIABLE;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_sorted_and_unique() {
        for pair in OPTIONS.windows(2) {
            assert!(
                pair[0].long < pair[1].long,
                "{} must sort before {}",
                pair[0].long,
                pair[1].long
            );
        }
    }

    #[test]
    fn short_letters_are_unique() {
        for (at, spec) in OPTIONS.iter().enumerate() {
            if spec.short != 0 {
                let again = OPTIONS[at + 1..].iter().find(|o| o.short == spec.short);
                assert!(again.is_none(), "-{} is used twice", char::from(spec.short));
            }
        }
    }

    #[test]
    fn every_name_is_found() {
        for spec in OPTIONS {
            assert_eq!(long(spec.long).map(|s| s.long), Some(spec.long));
            if spec.short != 0 {
                assert_eq!(short(spec.short).map(|s| s.long), Some(spec.long));
            }
        }
    }

    #[test]
    fn unknown_names_are_not_found() {
        assert!(long("nonsense").is_none());
        assert!(long("").is_none());
        assert!(long("data=x").is_none());
        assert!(short(b'W').is_none());
        assert!(short(0).is_none());
    }

    #[test]
    fn short_letters_match_curl() {
        let letters: &[(u8, &str)] = &[
            (b'X', "request"),
            (b'H', "header"),
            (b'd', "data"),
            (b'F', "form"),
            (b'G', "get"),
            (b'I', "head"),
            (b'u', "user"),
            (b'A', "user-agent"),
            (b'e', "referer"),
            (b'b', "cookie"),
            (b'L', "location"),
            (b'k', "insecure"),
            (b'm', "max-time"),
            (b'x', "proxy"),
            (b's', "silent"),
            (b'S', "show-error"),
            (b'v', "verbose"),
            (b'i', "show-headers"),
            (b'#', "progress-bar"),
            (b'f', "fail"),
            (b'g', "globoff"),
            (b'N', "buffer"),
            (b'w', "write-out"),
            (b'o', "output"),
            (b'O', "remote-name"),
            (b'T', "upload-file"),
            (b'K', "config"),
        ];
        for &(letter, name) in letters {
            assert_eq!(short(letter).map(|s| s.long), Some(name));
        }
    }

    #[test]
    fn value_options_take_values() {
        for name in [
            "request",
            "header",
            "data",
            "json",
            "form",
            "url",
            "max-redirs",
        ] {
            assert!(long(name).map_or(false, Spec::takes_value), "{}", name);
        }
        for name in ["silent", "location", "http1.1", "get", "head", "compressed"] {
            assert!(!long(name).map_or(true, Spec::takes_value), "{}", name);
        }
    }

    #[test]
    fn names_read_as_curl_writes_them() {
        assert_eq!(
            long("request").map(Spec::name).as_deref(),
            Some("-X/--request")
        );
        assert_eq!(long("json").map(Spec::name).as_deref(), Some("--json"));
    }

    #[test]
    fn prefixes_find_every_option_they_start() {
        let names =
            |prefix: &str| -> Vec<&str> { prefixed(prefix).iter().map(|spec| spec.long).collect() };
        assert_eq!(names("insec"), ["insecure"]);
        assert_eq!(names("sil"), ["silent"]);
        assert_eq!(names("data-u"), ["data-urlencode"]);
        assert!(names("data").len() > 1);
        assert_eq!(names("compressed"), ["compressed", "compressed-ssh"]);
        assert!(names("zzz").is_empty());
        assert!(names("").is_empty());
    }
}
