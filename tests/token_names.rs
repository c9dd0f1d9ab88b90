//! One rule for HTTP tokens (RFC 9110 section 5.6.2, `token = 1*tchar`), asked by header
//! names, methods and the curl reader's `-X` and `-H` (one owner per rule: each once had its
//! own copy of the `tchar` set). The same names are accepted or refused everywhere.

use std::str::FromStr;

use httptool::curl;
use httptool::http::{Headers, Method};

/// Tokens: every `tchar` punctuation character appears.
const TOKENS: &[&str] = &["X-Custom_1.2", "A!#$%&'*+-.^_`|~Z", "PURGE"];

/// Not tokens: a separator, a space, a quote, a non-ASCII letter.
const NOT_TOKENS: &[&str] = &["X(Y", "X Y", "X\"Y", "X@Y", "X,Y", "Xé"];

/// Whether `curl::parse` accepts `option` (`-X` or `-H`) with `value`, given as one word.
fn curl_accepts(option: &str, value: &str) -> bool {
    let quoted = format!("'{}'", value.replace('\'', "'\\''"));
    curl::parse(&format!("curl https://a.example/ {} {}", option, quoted)).is_ok()
}

#[test]
fn tokens_are_names_and_methods_on_every_side() {
    for name in TOKENS {
        assert!(Headers::new().insert(name, "v").is_ok(), "{}", name);
        assert!(Method::from_str(name).is_ok(), "{}", name);
        assert!(curl_accepts("-X", name), "-X {}", name);
        assert!(curl_accepts("-H", &format!("{}: v", name)), "-H {}", name);
    }
}

#[test]
fn non_tokens_are_refused_on_every_side() {
    for name in NOT_TOKENS {
        assert!(Headers::new().insert(name, "v").is_err(), "{}", name);
        assert!(Method::from_str(name).is_err(), "{}", name);
        assert!(!curl_accepts("-X", name), "-X {}", name);
        assert!(!curl_accepts("-H", &format!("{}: v", name)), "-H {}", name);
    }
}
