//! HTTP Digest auth (`"type": "digest"`, RFC 7616) on the wire: a loopback server in each
//! test issues real challenges (its own nonces, `qop=auth`, each algorithm) and checks every
//! answer with hashes written here again from FIPS 180-4 and RFC 1321, so it trusts nothing
//! of the code under test. The challenge is answered once; a second 401 is the answer.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use httptool::json;
use httptool::plugin::{Auth, HttpPlugin};
use httptool::tool::{CallContext, ErrorKind, ToolCall, ToolOutput, ToolRegistry};

use crate::support::plugin::{Received, Server};

// ------------------------------------------------------------------ the server's hashes

fn sha256_hex(data: &[u8]) -> String {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];
    let mut h: [u32; 8] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
        0x5be0cd19,
    ];
    let mut message = data.to_vec();
    message.push(0x80);
    while message.len() % 64 != 56 {
        message.push(0);
    }
    message.extend_from_slice(&((data.len() as u64) * 8).to_be_bytes());
    for block in message.chunks(64) {
        let mut w = [0u32; 64];
        for i in 0..16 {
            w[i] = u32::from_be_bytes([
                block[4 * i],
                block[4 * i + 1],
                block[4 * i + 2],
                block[4 * i + 3],
            ]);
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16]
                .wrapping_add(s0)
                .wrapping_add(w[i - 7])
                .wrapping_add(s1);
        }
        let mut v = h;
        for i in 0..64 {
            let s1 = v[4].rotate_right(6) ^ v[4].rotate_right(11) ^ v[4].rotate_right(25);
            let ch = (v[4] & v[5]) ^ (!v[4] & v[6]);
            let t1 = v[7]
                .wrapping_add(s1)
                .wrapping_add(ch)
                .wrapping_add(K[i])
                .wrapping_add(w[i]);
            let s0 = v[0].rotate_right(2) ^ v[0].rotate_right(13) ^ v[0].rotate_right(22);
            let maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
            let t2 = s0.wrapping_add(maj);
            v = [
                t1.wrapping_add(t2),
                v[0],
                v[1],
                v[2],
                v[3].wrapping_add(t1),
                v[4],
                v[5],
                v[6],
            ];
        }
        for i in 0..8 {
            h[i] = h[i].wrapping_add(v[i]);
        }
    }
    h.iter().map(|word| format!("{:08x}", word)).collect()
}

fn md5_hex(data: &[u8]) -> String {
    let s: [u32; 16] = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21];
    let k: Vec<u32> = (0..64)
        .map(|i| ((i as f64 + 1.0).sin().abs() * 4294967296.0) as u32)
        .collect();
    let mut h: [u32; 4] = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476];
    let mut message = data.to_vec();
    message.push(0x80);
    while message.len() % 64 != 56 {
        message.push(0);
    }
    message.extend_from_slice(&((data.len() as u64) * 8).to_le_bytes());
    for block in message.chunks(64) {
        let x: Vec<u32> = block
            .chunks(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        let (mut a, mut b, mut c, mut d) = (h[0], h[1], h[2], h[3]);
        for i in 0..64 {
            let (f, g) = match i / 16 {
                0 => ((b & c) | (!b & d), i),
                1 => ((d & b) | (!d & c), (5 * i + 1) % 16),
                2 => (b ^ c ^ d, (3 * i + 5) % 16),
                _ => (c ^ (b | !d), (7 * i) % 16),
            };
            let rotated = a
                .wrapping_add(f)
                .wrapping_add(k[i])
                .wrapping_add(x[g])
                .rotate_left(s[(i / 16) * 4 + i % 4]);
            a = d;
            d = c;
            c = b;
            b = b.wrapping_add(rotated);
        }
        h = [
            h[0].wrapping_add(a),
            h[1].wrapping_add(b),
            h[2].wrapping_add(c),
            h[3].wrapping_add(d),
        ];
    }
    h.iter()
        .flat_map(|word| word.to_le_bytes())
        .map(|b| format!("{:02x}", b))
        .collect()
}

#[test]
fn the_servers_hashes_are_right() {
    assert_eq!(md5_hex(b"abc"), "900150983cd24fb0d6963f7d28e17f72");
    assert_eq!(
        sha256_hex(b"abc"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
}

// ------------------------------------------------------------------ the server

const USER: &str = "Mufasa";
const PASSWORD: &str = "Circle of Life";
const REALM: &str = "http-auth@example.org";

/// What the Digest server does and has seen.
struct Digest {
    /// The algorithm it challenges with, as written (`MD5`, `SHA-256-sess`).
    algorithm: &'static str,
    /// Nonces issued, each with the last nonce count the client used with it.
    nonces: HashMap<String, u32>,
    issued: usize,
    /// The nonce to declare stale at its next use, if any.
    stale: Option<String>,
    /// Whether to send `Authentication-Info` with `rspauth`, and whether to spoil it.
    rspauth: Option<bool>,
    /// Answers that checked out, and answers refused.
    accepted: usize,
    refused: usize,
    /// Requests that came with no Authorization.
    bare: usize,
}

type Shared = Arc<Mutex<Digest>>;

fn params(value: &str) -> HashMap<String, String> {
    let rest = value.strip_prefix("Digest ").expect("a Digest answer");
    let mut out = HashMap::new();
    let mut chars = rest.chars().peekable();
    loop {
        while chars.peek().map_or(false, |c| *c == ',' || *c == ' ') {
            chars.next();
        }
        let name: String = std::iter::from_fn(|| chars.next_if(|c| *c != '=')).collect();
        if name.is_empty() || chars.next().is_none() {
            break;
        }
        let mut value = String::new();
        if chars.peek() == Some(&'"') {
            chars.next();
            while let Some(c) = chars.next() {
                match c {
                    '"' => break,
                    '\\' => value.extend(chars.next()),
                    c => value.push(c),
                }
            }
        } else {
            value = std::iter::from_fn(|| chars.next_if(|c| *c != ',')).collect();
        }
        out.insert(name, value);
    }
    out
}

fn h(algorithm: &str, text: &str) -> String {
    if algorithm.to_ascii_uppercase().starts_with("SHA-256") {
        sha256_hex(text.as_bytes())
    } else {
        md5_hex(text.as_bytes())
    }
}

/// RFC 7616 section 3.4.1, `a2` being `method:uri` (or `:uri` for rspauth).
fn expected(algorithm: &str, p: &HashMap<String, String>, password: &str, a2: &str) -> String {
    let get = |k: &str| p.get(k).cloned().unwrap_or_default();
    let mut ha1 = h(
        algorithm,
        &format!("{}:{}:{}", get("username"), REALM, password),
    );
    if algorithm.to_ascii_lowercase().ends_with("-sess") {
        ha1 = h(
            algorithm,
            &format!("{}:{}:{}", ha1, get("nonce"), get("cnonce")),
        );
    }
    let ha2 = h(algorithm, a2);
    h(
        algorithm,
        &format!(
            "{}:{}:{}:{}:{}:{}",
            ha1,
            get("nonce"),
            get("nc"),
            get("cnonce"),
            get("qop"),
            ha2
        ),
    )
}

fn challenge(state: &mut Digest, stale: bool) -> (String, String, Vec<u8>) {
    state.issued += 1;
    let nonce = format!("nonce-{}-{}", state.issued, state.algorithm);
    state.nonces.insert(nonce.clone(), 0);
    let header = format!(
        "WWW-Authenticate: Basic realm=\"{}\"\r\nWWW-Authenticate: Digest realm=\"{}\", qop=\"auth, auth-int\", algorithm={}, nonce=\"{}\", opaque=\"opaque-1\"{}\r\n",
        REALM,
        REALM,
        state.algorithm,
        nonce,
        if stale { ", stale=true" } else { "" }
    );
    (
        String::from("401 Unauthorized"),
        header,
        b"{\"error\":\"unauthorized\"}".to_vec(),
    )
}

fn digest_server(algorithm: &'static str) -> (Shared, Server) {
    let state = Arc::new(Mutex::new(Digest {
        algorithm,
        nonces: HashMap::new(),
        issued: 0,
        stale: None,
        rspauth: None,
        accepted: 0,
        refused: 0,
        bare: 0,
    }));
    let shared = state.clone();
    let server = Server::responding(move |request: &Received| {
        let mut state = shared.lock().unwrap();
        let value = match request.header("authorization") {
            Some(value) => value,
            None => {
                state.bare += 1;
                return challenge(&mut state, false);
            }
        };
        let p = params(&value);
        let get = |k: &str| p.get(k).cloned().unwrap_or_default();
        let nonce = get("nonce");
        let count = u32::from_str_radix(&get("nc"), 16).unwrap_or(0);
        let known = state.nonces.get(&nonce).copied();
        let fresh_count = known.map_or(false, |last| count == last + 1);
        let algorithm = state.algorithm;
        let right = get("username") == USER
            && get("realm") == REALM
            && get("uri") == request.target
            && get("qop") == "auth"
            && get("opaque") == "opaque-1"
            && get("algorithm") == algorithm
            && get("cnonce").len() >= 16
            && get("response")
                == expected(
                    algorithm,
                    &p,
                    PASSWORD,
                    &format!("{}:{}", request.method, request.target),
                );
        if !(right && fresh_count) {
            state.refused += 1;
            return challenge(&mut state, false);
        }
        state.nonces.insert(nonce.clone(), count);
        if state.stale.as_deref() == Some(nonce.as_str()) {
            state.stale = None;
            return challenge(&mut state, true);
        }
        state.accepted += 1;
        let mut headers = String::from("Content-Type: application/json\r\n");
        if let Some(spoil) = state.rspauth {
            let mut proof = expected(algorithm, &p, PASSWORD, &format!(":{}", request.target));
            if spoil {
                let first = if proof.starts_with('a') { "b" } else { "a" };
                proof.replace_range(..1, first);
            }
            headers.push_str(&format!(
                "Authentication-Info: rspauth=\"{}\", qop=auth, nc={}, cnonce=\"{}\"\r\n",
                proof,
                get("nc"),
                get("cnonce")
            ));
        }
        let echo = if request.target.contains("echo") {
            PASSWORD
        } else {
            ""
        };
        (
            String::from("200 OK"),
            headers,
            format!(r#"{{"ok":true,"nc":"{}","echo":"{}"}}"#, get("nc"), echo).into_bytes(),
        )
    });
    (state, server)
}

fn plugin_file(server: &Server, password: &str) -> String {
    format!(
        r#"{{"name": "camera", "base_url": "{}",
            "auth": {{"type": "digest", "username": "{}", "password": "{}"}},
            "endpoints": [
              {{"name": "status", "method": "GET", "path": "/cgi-bin/status",
                "params": [{{"name": "channel", "in": "query", "type": "integer"}}]}},
              {{"name": "echo", "method": "GET", "path": "/echo"}},
              {{"name": "rename", "method": "POST", "path": "/cgi-bin/name",
                "params": [{{"name": "name", "in": "body"}}]}}
            ]}}"#,
        server.base(),
        USER,
        password
    )
}

fn registry(server: &Server, password: &str) -> ToolRegistry {
    let plugin = HttpPlugin::from_json(&plugin_file(server, password)).unwrap();
    let mut registry = ToolRegistry::new();
    registry.add_plugin(&plugin).unwrap();
    registry
}

fn call(registry: &ToolRegistry, tool: &str, arguments: &str) -> ToolOutput {
    registry.call(&ToolCall::new("c", tool, arguments))
}

macro_rules! algorithms {
    ($($name:ident: $algorithm:expr;)*) => {$(
        #[test]
        fn $name() {
            let (state, server) = digest_server($algorithm);
            let registry = registry(&server, PASSWORD);
            // The first call: a bare request, the challenge, the answer.
            let out = call(&registry, "status", r#"{"channel": 2}"#);
            assert_eq!(out.text(), r#"{"ok":true,"nc":"00000001","echo":""}"#);
            // Later calls answer the same challenge at once, counting its nonce's uses.
            let out = call(&registry, "rename", r#"{"name": "porch"}"#);
            assert_eq!(out.text(), r#"{"ok":true,"nc":"00000002","echo":""}"#);
            let out = call(&registry, "status", "{}");
            assert_eq!(out.text(), r#"{"ok":true,"nc":"00000003","echo":""}"#);
            let state = state.lock().unwrap();
            assert_eq!((state.bare, state.accepted, state.refused, state.issued), (1, 3, 0, 1));
            assert_eq!(server.requests().len(), 4);
        }
    )*};
}

algorithms! {
    md5_challenges_are_answered_and_reused: "MD5";
    md5_sess_challenges_are_answered_and_reused: "MD5-sess";
    sha_256_challenges_are_answered_and_reused: "SHA-256";
    sha_256_sess_challenges_are_answered_and_reused: "SHA-256-sess";
}

#[test]
fn a_wrong_password_is_answered_once_and_the_second_401_is_the_answer() {
    let (state, server) = digest_server("SHA-256");
    let registry = registry(&server, "wrong password");
    let out = call(&registry, "status", "{}");
    assert!(out.is_error());
    assert_eq!(out.error_kind(), Some(ErrorKind::HttpStatus));
    assert!(
        out.text()
            .starts_with("the API refused the HTTP Digest credentials (HTTP 401)"),
        "{}",
        out.text()
    );
    assert_eq!(server.requests().len(), 2);
    // The next call answers the challenge it has at once, once, and stops again.
    let out = call(&registry, "status", "{}");
    assert!(out.is_error());
    assert_eq!(server.requests().len(), 3);
    assert_eq!(state.lock().unwrap().refused, 2);
}

#[test]
fn a_stale_nonce_is_answered_again_with_the_new_one() {
    let (state, server) = digest_server("MD5");
    let registry = registry(&server, PASSWORD);
    assert!(!call(&registry, "status", "{}").is_error());
    let first = state.lock().unwrap().nonces.keys().next().cloned().unwrap();
    state.lock().unwrap().stale = Some(first);
    let out = call(&registry, "status", "{}");
    // The fresh nonce's count starts again at 1.
    assert_eq!(out.text(), r#"{"ok":true,"nc":"00000001","echo":""}"#);
    assert_eq!(server.requests().len(), 4);
    assert_eq!(state.lock().unwrap().issued, 2);
}

#[test]
fn the_servers_rspauth_is_checked() {
    let (state, server) = digest_server("SHA-256");
    state.lock().unwrap().rspauth = Some(false);
    let registry = registry(&server, PASSWORD);
    assert!(!call(&registry, "status", "{}").is_error());
    state.lock().unwrap().rspauth = Some(true);
    let out = call(&registry, "status", "{}");
    assert_eq!(out.error_kind(), Some(ErrorKind::AuthFailed));
    assert!(
        out.text().contains("rspauth does not match"),
        "{}",
        out.text()
    );
}

#[test]
fn the_password_never_reaches_the_model_a_dry_run_or_debug() {
    let (_, server) = digest_server("MD5");
    let plugin = HttpPlugin::from_json(&plugin_file(&server, PASSWORD)).unwrap();
    let mut registry = ToolRegistry::new();
    registry.add_plugin(&plugin).unwrap();
    let out = call(&registry, "echo", "{}");
    assert_eq!(out.text(), r#"{"ok":true,"nc":"00000001","echo":"***"}"#);
    let dry = plugin.dry_run("status", "{}", &CallContext::new()).unwrap();
    for shown in [
        dry.to_string(),
        format!("{:?}", dry),
        format!("{:?}", plugin),
    ] {
        assert!(!shown.contains(PASSWORD), "{}", shown);
    }
    let wrong = registry_output_for_missing_context(&server);
    assert!(!wrong.text().contains(PASSWORD));
}

fn registry_output_for_missing_context(server: &Server) -> ToolOutput {
    let text = plugin_file(server, PASSWORD).replace(
        &format!(r#""password": "{}""#, PASSWORD),
        r#""password": {"context": "camera_password"}"#,
    );
    let plugin = HttpPlugin::from_json(&text).unwrap();
    let mut registry = ToolRegistry::new();
    registry.add_plugin(&plugin).unwrap();
    let out = call(&registry, "status", "{}");
    assert_eq!(out.error_kind(), Some(ErrorKind::MissingParameter));
    assert!(out.text().contains("'camera_password'"), "{}", out.text());
    out
}

#[test]
fn digest_auth_round_trips_through_the_plugin_file() {
    let text = r#"{"name": "cam", "base_url": "http://192.0.2.1",
        "auth": {"type": "digest", "username": "admin", "password": "${CAM_PASSWORD}"},
        "endpoints": [{"name": "status", "path": "/status"}]}"#;
    let lookup = |_: &str| Some(String::from("pw"));
    let plugin = HttpPlugin::from_json_with(text, lookup).unwrap();
    assert_eq!(plugin.auth().map(Auth::type_name), Some("digest"));
    let written = plugin.to_json();
    assert_eq!(
        written.get("auth").unwrap(),
        &json::parse(r#"{"type": "digest", "username": "admin", "password": "${CAM_PASSWORD}"}"#)
            .unwrap()
    );
    let again = HttpPlugin::from_json_with(&written.to_string(), lookup).unwrap();
    assert_eq!(again.auth(), plugin.auth());
}

#[cfg(feature = "curl")]
#[test]
fn curls_digest_option_imports_as_digest_auth_and_exports_back() {
    use httptool::curl;
    let (state, server) = digest_server("MD5");
    let line = format!(
        "curl --digest -u '{}:{}' '{}/cgi-bin/status?channel=1'",
        USER,
        PASSWORD,
        server.base()
    );
    let plugin = curl::to_plugin(&curl::parse(&line).unwrap()).unwrap();
    assert_eq!(plugin.auth().map(Auth::type_name), Some("digest"));
    let mut registry = ToolRegistry::new();
    registry.add_plugin(&plugin).unwrap();
    let name = plugin.endpoints().next().unwrap().name().to_string();
    let out = registry.call(&ToolCall::new("c", &name, r#"{"channel": 1}"#));
    assert!(!out.is_error(), "{}", out.text());
    assert_eq!(state.lock().unwrap().accepted, 1);
    // Back to curl: curl answers the challenge itself; the password is masked.
    let exported = curl::to_curl(&plugin, name.as_str()).unwrap();
    assert!(exported.ends_with(" --digest -u '***:***'"), "{}", exported);
    assert!(!exported.contains(PASSWORD));
    // `--basic` after `--digest` sends Basic, as curl does.
    let basic = curl::parse("curl --digest --basic -u a:b https://x.test/").unwrap();
    assert_eq!(
        curl::to_plugin(&basic).unwrap().auth().map(Auth::type_name),
        Some("basic")
    );
}

// ------------------------------------------------------------------ a real httpbin

/// httpbin (PyPI, run by `.ci/run` under gunicorn on 127.0.0.1) checks the answers with its
/// own Digest code: `/digest-auth/auth/USER/PASS/ALGORITHM` answers 200 only to a right one.
/// (httpbin hashes the decoded path, so a password with a `%`-escape in the path fails there
/// for curl too: the password here has none.)
#[test]
#[ignore = "needs HTTPTOOL_HTTPBIN, the URL of an httpbin: .ci/run starts one"]
fn httpbin_accepts_the_md5_and_sha_256_answers_and_refuses_a_wrong_password() {
    let base = std::env::var("HTTPTOOL_HTTPBIN").expect("HTTPTOOL_HTTPBIN names an httpbin");
    for algorithm in ["MD5", "SHA-256"] {
        for (password, accepted) in [("s3cret-pass_2", true), ("wrong", false)] {
            let text = format!(
                r#"{{"name": "hb", "base_url": "{}",
                    "auth": {{"type": "digest", "username": "ann", "password": "{}"}},
                    "endpoints": [{{"name": "check",
                        "path": "/digest-auth/auth/ann/s3cret-pass_2/{}"}}]}}"#,
                base, password, algorithm
            );
            let plugin = HttpPlugin::from_json(&text).unwrap();
            let mut registry = ToolRegistry::new();
            registry.add_plugin(&plugin).unwrap();
            for _ in 0..2 {
                let out = registry.call(&ToolCall::new("c", "check", "{}"));
                if accepted {
                    let body = json::parse(out.text()).unwrap();
                    assert_eq!(
                        body.get("authenticated").and_then(json::Json::as_bool),
                        Some(true),
                        "{}: {}",
                        algorithm,
                        out.text()
                    );
                } else {
                    assert_eq!(
                        out.error_kind(),
                        Some(ErrorKind::HttpStatus),
                        "{}",
                        out.text()
                    );
                    assert!(out.text().contains("refused the HTTP Digest credentials"));
                }
            }
        }
    }
}

#[test]
fn an_observer_sees_the_challenge_and_the_answer_and_no_secret() {
    use httptool::plugin::Exchange;
    let (_, server) = digest_server("SHA-256");
    let seen: Arc<Mutex<Vec<String>>> = Arc::default();
    let sink = seen.clone();
    let plugin = HttpPlugin::from_json(&plugin_file(&server, PASSWORD))
        .unwrap()
        .with_observer(Arc::new(move |e: &Exchange<'_>| {
            sink.lock().unwrap().push(format!("{:?}", e));
        }));
    let mut registry = ToolRegistry::new();
    registry.add_plugin(&plugin).unwrap();
    assert!(!call(&registry, "status", "{}").is_error());
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 2, "{:?}", seen);
    assert!(
        seen[0].contains("401") && seen[1].contains("200"),
        "{:?}",
        seen
    );
    assert!(seen.iter().all(|e| !e.contains(PASSWORD)), "{:?}", seen);
}
