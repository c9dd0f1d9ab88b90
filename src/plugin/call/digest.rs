//! HTTP Digest auth (RFC 7616) for the `digest` auth of a plugin: the server's challenge
//! read from `WWW-Authenticate`, the `Authorization` answering it, and the challenge a
//! plugin keeps so later calls answer it at once, counting their uses of its nonce.
//!
//! Supported: `qop=auth` (and a challenge without `qop`, RFC 2069's form), the algorithms
//! `MD5`, `MD5-sess`, `SHA-256` and `SHA-256-sess`. Not: `auth-int` (a hash of the body) and
//! `userhash`.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::hash::{constant_time_eq, hex, md5_legacy, sha256};

/// A hash function a challenge names (RFC 7616 section 3.3 and 6.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Algorithm {
    Md5,
    Sha256,
}

/// A Digest challenge the client can answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Challenge {
    pub realm: String,
    pub nonce: String,
    pub opaque: Option<String>,
    pub algorithm: Algorithm,
    /// `-sess`: the session key hashes in the nonces (section 3.4.2).
    pub session: bool,
    /// The server asked for `qop=auth`; `false` for a challenge without `qop`.
    pub qop_auth: bool,
    /// The server refused the previous nonce only because it is stale (section 3.3).
    pub stale: bool,
    /// The algorithm's name as the server wrote it, sent back as it was (absent: `MD5`).
    algorithm_name: Option<String>,
}

/// Why no challenge of a 401 can be answered, for the message the model reads.
pub(crate) type Unanswerable = String;

/// The first Digest challenge of the `WWW-Authenticate` fields that the client supports
/// (section 3.7: the server lists its preferred first). `Ok(None)` when none is a Digest
/// challenge; `Err` when the Digest ones all ask for what is not supported.
pub(crate) fn challenge<'a>(
    fields: impl Iterator<Item = &'a str>,
) -> Result<Option<Challenge>, Unanswerable> {
    let mut problem = None;
    for field in fields {
        for (scheme, params) in challenges(field) {
            if !scheme.eq_ignore_ascii_case("digest") {
                continue;
            }
            match read_challenge(&params) {
                Ok(challenge) => return Ok(Some(challenge)),
                Err(why) => problem = Some(why),
            }
        }
    }
    match problem {
        Some(why) => Err(why),
        None => Ok(None),
    }
}

fn read_challenge(params: &[(String, String)]) -> Result<Challenge, Unanswerable> {
    let get = |name: &str| {
        params
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    };
    let nonce = get("nonce").ok_or("the Digest challenge has no nonce")?;
    let algorithm_name = get("algorithm");
    let (algorithm, session) = match algorithm_name.map(str::to_ascii_uppercase).as_deref() {
        None | Some("MD5") => (Algorithm::Md5, false),
        Some("MD5-SESS") => (Algorithm::Md5, true),
        Some("SHA-256") => (Algorithm::Sha256, false),
        Some("SHA-256-SESS") => (Algorithm::Sha256, true),
        Some(_) => {
            return Err(String::from(
                "the Digest challenge asks for an algorithm other than MD5, SHA-256 and their -sess forms",
            ))
        }
    };
    let qop_auth = match get("qop") {
        None => false,
        Some(list)
            if list
                .split(',')
                .any(|q| q.trim().eq_ignore_ascii_case("auth")) =>
        {
            true
        }
        Some(_) => {
            return Err(String::from(
                "the Digest challenge offers only qop=auth-int, which is not supported",
            ))
        }
    };
    Ok(Challenge {
        realm: get("realm").unwrap_or("").to_string(),
        nonce: nonce.to_string(),
        opaque: get("opaque").map(str::to_string),
        algorithm,
        session,
        qop_auth,
        stale: get("stale").map_or(false, |s| s.eq_ignore_ascii_case("true")),
        algorithm_name: algorithm_name.map(str::to_string),
    })
}

/// The challenges of one `WWW-Authenticate` field value (RFC 9110 section 11.6.1):
/// `scheme param=value, param="quoted", Other param=...`, each scheme with its parameters.
/// A token68 (Basic's or Bearer's) is skipped.
fn challenges(field: &str) -> Vec<(String, Vec<(String, String)>)> {
    let bytes = field.as_bytes();
    let mut out: Vec<(String, Vec<(String, String)>)> = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        while at < bytes.len() && matches!(bytes[at], b' ' | b'\t' | b',') {
            at += 1;
        }
        let start = at;
        while at < bytes.len() && !matches!(bytes[at], b' ' | b'\t' | b',' | b'=') {
            at += 1;
        }
        if start == at {
            // A stray `=`: skip it.
            at += 1;
            continue;
        }
        let word = field.get(start..at).unwrap_or("");
        let mut after = at;
        while after < bytes.len() && matches!(bytes[after], b' ' | b'\t') {
            after += 1;
        }
        let is_param = bytes.get(after) == Some(&b'=') && bytes.get(after + 1) != Some(&b'=');
        if !is_param {
            out.push((word.to_string(), Vec::new()));
            continue;
        }
        at = after + 1;
        while at < bytes.len() && matches!(bytes[at], b' ' | b'\t') {
            at += 1;
        }
        let mut value = String::new();
        if bytes.get(at) == Some(&b'"') {
            at += 1;
            let mut chars = field.get(at..).unwrap_or("").char_indices();
            let mut end = field.len();
            while let Some((i, c)) = chars.next() {
                match c {
                    '"' => {
                        end = at + i + 1;
                        break;
                    }
                    '\\' => value.extend(chars.next().map(|(_, c)| c)),
                    c => value.push(c),
                }
            }
            at = end;
        } else {
            let start = at;
            while at < bytes.len() && !matches!(bytes[at], b',' | b' ' | b'\t') {
                at += 1;
            }
            value.push_str(field.get(start..at).unwrap_or(""));
        }
        if let Some((_, params)) = out.last_mut() {
            params.push((word.to_string(), value));
        }
    }
    out
}

/// The hash of `text` as lowercase hex, with the challenge's algorithm.
fn h(algorithm: Algorithm, text: &str) -> String {
    match algorithm {
        Algorithm::Md5 => hex(&md5_legacy(text.as_bytes())),
        Algorithm::Sha256 => hex(&sha256(text.as_bytes())),
    }
}

/// What one answer is made of besides the challenge.
pub(crate) struct Answer<'a> {
    pub username: &'a str,
    pub password: &'a str,
    pub method: &'a str,
    /// The request target, as the request line sends it.
    pub uri: &'a str,
    /// The nonce count: how many requests this one is that used the nonce, from 1.
    pub count: u64,
    pub cnonce: &'a str,
}

/// `H(A1)` (section 3.4.2), the session form hashing in the nonces.
fn ha1(challenge: &Challenge, answer: &Answer<'_>) -> String {
    let a1 = h(
        challenge.algorithm,
        &format!(
            "{}:{}:{}",
            answer.username, challenge.realm, answer.password
        ),
    );
    if challenge.session {
        h(
            challenge.algorithm,
            &format!("{}:{}:{}", a1, challenge.nonce, answer.cnonce),
        )
    } else {
        a1
    }
}

/// The `response` (section 3.4.1) for `a2` (`method:uri` for a request, `:uri` for the
/// server's `rspauth`).
fn digest(challenge: &Challenge, answer: &Answer<'_>, a2: &str) -> String {
    let ha1 = ha1(challenge, answer);
    let ha2 = h(challenge.algorithm, a2);
    let text = if challenge.qop_auth {
        format!(
            "{}:{}:{:08x}:{}:auth:{}",
            ha1, challenge.nonce, answer.count, answer.cnonce, ha2
        )
    } else {
        format!("{}:{}:{}", ha1, challenge.nonce, ha2)
    };
    h(challenge.algorithm, &text)
}

/// The `Authorization` value answering `challenge` (section 3.4).
pub(crate) fn authorization(challenge: &Challenge, answer: &Answer<'_>) -> String {
    let response = digest(
        challenge,
        answer,
        &format!("{}:{}", answer.method, answer.uri),
    );
    let mut value = format!(
        "Digest username=\"{}\", realm=\"{}\", nonce=\"{}\", uri=\"{}\"",
        quoted(answer.username),
        quoted(&challenge.realm),
        quoted(&challenge.nonce),
        quoted(answer.uri)
    );
    if let Some(name) = &challenge.algorithm_name {
        value.push_str(&format!(", algorithm={}", name));
    }
    value.push_str(&format!(", response=\"{}\"", response));
    if challenge.qop_auth {
        value.push_str(&format!(
            ", qop=auth, nc={:08x}, cnonce=\"{}\"",
            answer.count,
            quoted(answer.cnonce)
        ));
    }
    if let Some(opaque) = &challenge.opaque {
        value.push_str(&format!(", opaque=\"{}\"", quoted(opaque)));
    }
    value
}

/// Whether an `Authentication-Info` field proves the server knows the password: its
/// `rspauth` (section 3.5) matches, compared in constant time. `None` when it has none.
pub(crate) fn server_proof(
    field: &str,
    challenge: &Challenge,
    answer: &Answer<'_>,
) -> Option<bool> {
    // The field is a list of parameters with no scheme: read it as one after a dummy.
    let parsed = challenges(&format!("Info {}", field));
    let params = &parsed.first()?.1;
    let rspauth = params
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("rspauth"))?;
    if !challenge.qop_auth {
        return None;
    }
    let expected = digest(challenge, answer, &format!(":{}", answer.uri));
    Some(constant_time_eq(expected.as_bytes(), rspauth.1.as_bytes()))
}

/// `text` inside a quoted-string (RFC 9110 section 5.6.4): `\` and `"` escaped.
fn quoted(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

/// A client nonce: 16 bytes no one can predict, as hex (the process's random hash keys, the
/// time and a counter, through SHA-256).
pub(crate) fn cnonce() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut hasher = RandomState::new().build_hasher();
    hasher.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    hasher.write_u128(nanos);
    let seed = format!("{:x}{:x}", hasher.finish(), nanos);
    hex(&sha256(seed.as_bytes())[..16])
}

/// The challenge a plugin answers and how many requests used its nonce: shared by every
/// clone of the plugin, so calls after the first answer at once (no 401 round trip).
#[derive(Default)]
pub(crate) struct DigestSession {
    current: Mutex<Option<(Challenge, u64)>>,
}

impl DigestSession {
    /// The challenge to answer and the next nonce count, counted as used.
    pub(crate) fn next(&self) -> Option<(Challenge, u64)> {
        let mut current = self.current.lock().unwrap_or_else(PoisonError::into_inner);
        let (challenge, count) = current.as_mut()?;
        *count += 1;
        Some((challenge.clone(), *count))
    }

    /// Starts answering `challenge`, its nonce count from zero.
    pub(crate) fn start(&self, challenge: Challenge) {
        let mut current = self.current.lock().unwrap_or_else(PoisonError::into_inner);
        *current = Some((challenge, 0));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer<'a>(method: &'a str, uri: &'a str, count: u64, cnonce: &'a str) -> Answer<'a> {
        Answer {
            username: "Mufasa",
            password: "Circle of Life",
            method,
            uri,
            count,
            cnonce,
        }
    }

    #[test]
    fn rfc_7616_section_3_9_1_md5_and_sha_256() {
        // The example of RFC 7616 section 3.9.1, both algorithms.
        let field = r#"Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=SHA-256, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS""#;
        let challenge = challenge(std::iter::once(field)).unwrap().unwrap();
        assert_eq!(challenge.algorithm, Algorithm::Sha256);
        assert!(challenge.qop_auth && !challenge.session && !challenge.stale);
        let cnonce = "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ";
        let value = authorization(&challenge, &answer("GET", "/dir/index.html", 1, cnonce));
        assert!(
            value.contains(
                r#"response="753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1""#
            ),
            "{}",
            value
        );
        assert!(value.contains("qop=auth, nc=00000001"), "{}", value);
        let md5 = Challenge {
            algorithm: Algorithm::Md5,
            algorithm_name: Some(String::from("MD5")),
            ..challenge
        };
        let value = authorization(&md5, &answer("GET", "/dir/index.html", 1, cnonce));
        assert!(
            value.contains(r#"response="8ca523f5e9506fed4657c9700eebdbec""#),
            "{}",
            value
        );
    }

    #[test]
    fn challenges_are_read_among_others() {
        let fields = [
            r#"Basic realm="x", Digest realm="r\"q", nonce=abc, qop="auth-int,auth", algorithm=MD5-sess, stale=TRUE"#,
        ];
        let challenge = challenge(fields.iter().copied()).unwrap().unwrap();
        assert_eq!(challenge.realm, "r\"q");
        assert_eq!(challenge.nonce, "abc");
        assert!(challenge.session && challenge.qop_auth && challenge.stale);
        assert_eq!(super::challenge(["Bearer abc=="].iter().copied()), Ok(None));
        assert!(super::challenge([r#"Digest nonce="n", qop="auth-int""#].iter().copied()).is_err());
        assert!(super::challenge(
            [r#"Digest nonce="n", algorithm=SHA-512-256"#]
                .iter()
                .copied()
        )
        .is_err());
    }

    #[test]
    fn cnonces_differ() {
        assert_ne!(cnonce(), cnonce());
        assert_eq!(cnonce().len(), 32);
    }
}
