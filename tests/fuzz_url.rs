//! Deterministic fuzzing of `url::Url::parse` and `Url::join`: random and mutated inputs,
//! fixed seeds, no dependencies.
//!
//! Asserted for every input: parsing never panics; every accepted URL is a fixed point
//! (`parse(as_str())` gives the same URL), holds no userinfo, whitespace, control character,
//! backslash, non-ASCII byte or fragment, has a lower-case `http` or `https` scheme, and its
//! parts (scheme, host, port, path, query) put back together give `as_str()`.

use httptool::url::{Host, Scheme, Url};

use crate::support::rng::Rng;

/// Pieces a URL parser has to get right, and pieces that confuse parsers.
const PIECES: &[&str] = &[
    "http://",
    "https://",
    "HTTP://",
    "hTTps://",
    "http:/",
    "http:",
    "//",
    "/",
    "\\",
    "@",
    ":",
    "::",
    "[",
    "]",
    "[::1]",
    "[::ffff:127.0.0.1]",
    "[fe80::1%25eth0]",
    "%",
    "%2e",
    "%2E",
    "%2f",
    "%25",
    "%zz",
    "%0d%0a",
    ".",
    "..",
    "./",
    "../",
    "?",
    "#",
    "&",
    "=",
    ";",
    "+",
    "~",
    " ",
    "\t",
    "\r",
    "\n",
    "\0",
    "\u{7f}",
    "\u{85}",
    "\u{a0}",
    "\u{3000}",
    "\u{feff}",
    "é",
    "杭州",
    "\u{ff0e}",
    "example.com",
    "EXAMPLE.com.",
    "a.b.c",
    "127.0.0.1",
    "127.1",
    "0x7f.1",
    "0177.0.0.1",
    "2130706433",
    "4294967296",
    "1.2.3.256",
    "0",
    "0x",
    "localhost",
    "user",
    "user:pass@",
    "evil.com",
    "80",
    "443",
    "65535",
    "65536",
    "0000",
    "99999999999999999999",
    "-",
    "_",
    "xn--nxasmq6b",
    "a",
    "Z",
    "9",
];

const SEEDS: &[&str] = &[
    "http://example.com/",
    "https://api.example.com:8443/v1/users/42?q=a%20b&x=1#frag",
    "http://[::1]:8080/a/./b/../c",
    "http://127.1/path;params?x=../../y",
    "HTTPS://User@Example.COM:443//double//slash?",
    "http://h/%2e%2e/%2E./.%2e/x",
    "http://0x7f.0.0.1:80/",
    "https://xn--nxasmq6b.example./a?b#c",
];

/// Hosts, so that most random inputs get past the authority.
const HOSTS: &[&str] = &[
    "example.com",
    "Example.COM.",
    "127.1",
    "0x7f.1",
    "[::1]",
    "[::ffff:10.0.0.1]",
    "a.b",
    "localhost:8080",
    "h:65535",
    "h:0080",
    "1.2.3.4.",
    "x_y-z",
];

fn random_input(rng: &mut Rng) -> String {
    let mut s = String::new();
    if rng.below(4) != 0 {
        s.push_str(rng.pick(&["http://", "https://", "HTTP://"]));
        s.push_str(rng.pick(HOSTS));
    }
    for _ in 0..rng.below(12) {
        s.push_str(rng.pick(PIECES));
    }
    s
}

/// A seed with a few bytes changed, inserted or removed (at char boundaries).
fn mutated(rng: &mut Rng) -> String {
    let mut chars: Vec<char> = rng.pick(SEEDS).chars().collect();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(chars.len() + 1);
        match rng.below(4) {
            0 if at < chars.len() => {
                chars.remove(at);
            }
            1 => {
                let piece: Vec<char> = rng.pick(PIECES).chars().collect();
                chars.splice(at..at, piece);
            }
            2 if at < chars.len() => chars[at] = char::from(rng.below(128) as u8),
            _ => chars.insert(at, char::from(rng.below(256) as u8)),
        }
    }
    chars.into_iter().collect()
}

/// Everything an accepted URL must satisfy.
fn check_accepted(input: &str, url: &Url) {
    let s = url.as_str();
    let ctx = || format!("input {input:?} gave {s:?}");
    for b in s.bytes() {
        assert!(
            b.is_ascii_graphic(),
            "{}: byte {b:#x} is not visible ascii",
            ctx()
        );
        assert!(b != b'\\' && b != b'#', "{}", ctx());
    }
    let scheme = match url.scheme() {
        Scheme::Http => "http://",
        Scheme::Https => "https://",
    };
    assert!(s.starts_with(scheme), "{}", ctx());
    // No userinfo: nothing between the scheme and the path holds '@'.
    assert!(!url.authority().contains('@'), "{}", ctx());
    assert!(!url.host_str().is_empty(), "{}", ctx());
    assert_eq!(
        url.host_str(),
        url.host_str().to_ascii_lowercase(),
        "{}",
        ctx()
    );
    match url.host() {
        Host::Domain(d) => assert!(
            d.bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.')),
            "{}",
            ctx()
        ),
        Host::Ipv4(a) => assert_eq!(url.host_str(), a.to_string(), "{}", ctx()),
        Host::Ipv6(a) => assert_eq!(url.host_str(), format!("[{a}]"), "{}", ctx()),
    }
    if let Some(port) = url.port() {
        assert!(
            port != 0 && port != url.scheme().default_port(),
            "{}",
            ctx()
        );
    }
    assert!(url.path().starts_with('/'), "{}", ctx());
    let mut rebuilt = format!("{scheme}{}", url.authority());
    rebuilt.push_str(url.path());
    if let Some(q) = url.query() {
        rebuilt.push('?');
        rebuilt.push_str(q);
    }
    assert_eq!(rebuilt, s, "{}", ctx());
    // Every '%' starts a valid escape.
    let bytes = s.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'%' {
            let hex = bytes.get(i + 1..i + 3).unwrap_or(b"");
            assert!(
                hex.len() == 2 && hex.iter().all(u8::is_ascii_hexdigit),
                "{}",
                ctx()
            );
        }
    }
    // A fixed point.
    let again = Url::parse(s).unwrap_or_else(|e| panic!("{}: re-parse failed: {e}", ctx()));
    assert_eq!(again.as_str(), s, "{}", ctx());
    assert_eq!(&again, url, "{}", ctx());
}

fn run(rng: &mut Rng, input: &str, base: &Url) {
    if let Ok(url) = Url::parse(input) {
        check_accepted(input, &url);
    }
    // The same input as a reference resolved against a base (a Location header).
    if let Ok(joined) = base.join(input) {
        check_accepted(input, &joined);
    }
    // A path set on an accepted URL (what a Signer may do).
    let mut url = base.clone();
    if url.set_path(input).is_ok() {
        check_accepted(input, &url);
        assert_eq!(url.authority(), base.authority());
    }
    let _ = rng;
}

#[test]
fn random_inputs_never_panic_and_accepted_urls_are_fixed_points() {
    let mut rng = Rng::new(0x5eed_0001);
    let base = Url::parse("https://api.example.com:8443/v1/items/42?x=1").unwrap();
    for _ in 0..6_000 {
        let input = random_input(&mut rng);
        run(&mut rng, &input, &base);
    }
}

#[test]
fn mutated_urls_never_panic_and_accepted_urls_are_fixed_points() {
    let mut rng = Rng::new(0x5eed_0002);
    let base = Url::parse("http://[::1]/a/b/c").unwrap();
    for _ in 0..6_000 {
        let input = mutated(&mut rng);
        run(&mut rng, &input, &base);
    }
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Rng::new(0x5eed_0003);
    let base = Url::parse("http://h/").unwrap();
    for _ in 0..4_000 {
        let len = rng.below(40);
        let bytes: Vec<u8> = (0..len).map(|_| rng.below(256) as u8).collect();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let input = format!("{}{}", rng.pick(&["http://", "https://", ""]), text);
        run(&mut rng, &input, &base);
    }
}

#[test]
fn userinfo_never_lands_in_the_host() {
    // Every way of writing `user@host` is refused or keeps '@' out of the authority.
    let mut rng = Rng::new(0x5eed_0004);
    for _ in 0..3_000 {
        let input = format!(
            "http://{}{}{}{}",
            rng.pick(PIECES),
            rng.pick(&["@", "%40", "\\@", ":@", "@@"]),
            rng.pick(PIECES),
            rng.pick(&["", "/", "/x@y", "?a@b", "#@c"])
        );
        if let Ok(url) = Url::parse(&input) {
            check_accepted(&input, &url);
            assert!(!url.host_str().contains('@'), "{input:?}");
        }
    }
}
