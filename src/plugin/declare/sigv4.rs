//! AWS Signature Version 4: the `aws_sigv4` auth of a plugin, declared here and applied to
//! each request just before it is sent. The steps and their names follow AWS's "Create a
//! signed AWS API request" (canonical request, string to sign, signing key, signature), and
//! every choice the document leaves to the client is botocore's, which the tests compare
//! against.

use std::fmt;
use std::time::Duration;

use crate::hash::{hex, hmac_sha256, sha256};
use crate::http::Request;
use crate::plugin::declare::config_value::{resolve, ConfigValue};
use crate::tool::{CallContext, ErrorKind, ToolOutput};
use crate::url::{self, encode_bytes_into, UNRESERVED};

/// The signing algorithm's name, in the string to sign and the `Authorization` header.
const ALGORITHM: &str = "AWS4-HMAC-SHA256";

/// Headers never signed: hop-by-hop fields and those set or changed on the way (by the
/// client, a proxy, a tracer), so a signature over them would break in transit; botocore's
/// list. `Host` is signed, from the URL, and `Content-Length` is the client's to write.
const UNSIGNED_HEADERS: [&str; 17] = [
    "authorization",
    "baggage",
    "connection",
    "content-length",
    "expect",
    "host",
    "keep-alive",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "traceparent",
    "tracestate",
    "trailer",
    "transfer-encoding",
    "upgrade",
    "user-agent",
    "x-amzn-trace-id",
];

/// AWS Signature Version 4 auth: every request is signed with the secret access key for one
/// region and service, at the time the client's [`TimeSource`](crate::http::TimeSource)
/// reads, and carries `X-Amz-Date`, the `Authorization` header and, with temporary
/// credentials, `X-Amz-Security-Token`.
///
/// What is signed: the method, the canonical path (S3's path as sent; every other service's
/// path with dot segments and repeated slashes removed, encoded a second time), the query
/// sorted by name and value, `Host` and every header of the request but those the client or
/// the network may change (`User-Agent`, `Content-Length`, `Expect`, `Transfer-Encoding`),
/// and the SHA-256 of the body. S3 also gets the body's hash as `X-Amz-Content-Sha256`, as it
/// requires.
///
/// The plugin file writes it `{"type": "aws_sigv4", "region": "eu-west-1", "service":
/// "execute-api", "access_key_id": "${AWS_ACCESS_KEY_ID}", "secret_access_key":
/// "${AWS_SECRET_ACCESS_KEY}", "session_token": "${AWS_SESSION_TOKEN}"}` (the session token
/// is optional). Any value may come from the environment or the call context.
///
/// # Security
///
/// The secret access key and the signing key derived from it never leave the signing step;
/// the `Authorization` header and the session token are `***` in dry runs, `Debug`, logs,
/// observers and exported curl commands, and an API echoing the secret key or the token is
/// answered to the model with `***`.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use httptool::http::Request;
/// use httptool::plugin::AwsSigV4;
/// use httptool::tool::CallContext;
///
/// // AWS's published test suite: get-vanilla.
/// let auth = AwsSigV4::new(
///     "us-east-1",
///     "service",
///     "AKIDEXAMPLE",
///     "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
/// );
/// let mut request = Request::get("https://example.amazonaws.com/")?;
/// let at = Duration::from_secs(1_440_938_160); // 2015-08-30T12:36:00Z
/// auth.sign(&mut request, at, &CallContext::new()).unwrap();
/// assert_eq!(request.headers().get("x-amz-date"), Some("20150830T123600Z"));
/// assert!(request.headers().get("authorization").unwrap().ends_with(
///     "SignedHeaders=host;x-amz-date, \
///      Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"
/// ));
/// assert!(!format!("{:?}", auth).contains("EXAMPLEKEY"));
/// # Ok::<(), httptool::http::Error>(())
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct AwsSigV4 {
    pub(crate) region: ConfigValue,
    pub(crate) service: ConfigValue,
    pub(crate) access_key_id: ConfigValue,
    pub(crate) secret_access_key: ConfigValue,
    pub(crate) session_token: Option<ConfigValue>,
}

impl AwsSigV4 {
    /// Signing for `service` (`execute-api` for API Gateway, `s3`, `dynamodb`, ...) in
    /// `region` with long-term credentials.
    pub fn new(
        region: impl Into<ConfigValue>,
        service: impl Into<ConfigValue>,
        access_key_id: impl Into<ConfigValue>,
        secret_access_key: impl Into<ConfigValue>,
    ) -> AwsSigV4 {
        AwsSigV4 {
            region: region.into(),
            service: service.into(),
            access_key_id: access_key_id.into(),
            secret_access_key: secret_access_key.into(),
            session_token: None,
        }
    }

    /// Adds the session token of temporary credentials (STS), sent as
    /// `X-Amz-Security-Token`.
    #[must_use]
    pub fn with_session_token(mut self, token: impl Into<ConfigValue>) -> AwsSigV4 {
        self.session_token = Some(token.into());
        self
    }

    /// The region.
    pub fn region(&self) -> &ConfigValue {
        &self.region
    }

    /// The service.
    pub fn service(&self) -> &ConfigValue {
        &self.service
    }

    /// The access key id.
    pub fn access_key_id(&self) -> &ConfigValue {
        &self.access_key_id
    }

    /// The secret access key.
    pub fn secret_access_key(&self) -> &ConfigValue {
        &self.secret_access_key
    }

    /// The session token, if there is one.
    pub fn session_token(&self) -> Option<&ConfigValue> {
        self.session_token.as_ref()
    }

    /// Every value of the declaration, for the context keys it needs.
    pub(crate) fn values(&self) -> Vec<&ConfigValue> {
        let mut values = vec![
            &self.region,
            &self.service,
            &self.access_key_id,
            &self.secret_access_key,
        ];
        values.extend(self.session_token.as_ref());
        values
    }

    /// The values that are secrets, for one call: the secret access key and the session
    /// token.
    pub(crate) fn secrets<'a>(&'a self, context: &'a CallContext) -> Vec<&'a str> {
        let mut secrets: Vec<&str> = self
            .secret_access_key
            .resolve(context)
            .into_iter()
            .collect();
        if let Some(token) = &self.session_token {
            secrets.extend(token.resolve(context));
        }
        secrets
    }

    /// Signs `request` as of `unix_time` (the time since the Unix epoch): replaces any
    /// `Authorization`, `X-Amz-Date` and `X-Amz-Security-Token` it has, adds them (and, for
    /// S3, `X-Amz-Content-Sha256`), the secret ones marked sensitive.
    ///
    /// # Errors
    ///
    /// The output a call gets when a value is to come from the call context and the context
    /// lacks it, or when the session token cannot be a header value.
    pub fn sign(
        &self,
        request: &mut Request,
        unix_time: Duration,
        context: &CallContext,
    ) -> Result<(), ToolOutput> {
        let region = resolve(&self.region, context)?;
        let service = resolve(&self.service, context)?;
        let key_id = resolve(&self.access_key_id, context)?;
        let secret = resolve(&self.secret_access_key, context)?;
        let token = match &self.session_token {
            Some(token) => Some(resolve(token, context)?),
            None => None,
        };
        let s3 = service == "s3";
        let (date, stamp) = timestamp(unix_time.as_secs());
        let headers = request.headers_mut();
        for name in ["authorization", "x-amz-date", "x-amz-security-token"] {
            headers.remove(name);
        }
        let refused = |what: &str| {
            ToolOutput::error(
                ErrorKind::InvalidParameter,
                format!(
                    "the aws_sigv4 {} cannot go in a header (it holds a control character); this is not caused by the arguments",
                    what
                ),
            )
        };
        // Our own digits and letters: appending cannot fail.
        let _ = headers.append("X-Amz-Date", &stamp);
        if let Some(token) = token {
            headers
                .append_sensitive("X-Amz-Security-Token", token)
                .map_err(|_| refused("session token"))?;
        }
        let payload_hash = match request.headers().get("x-amz-content-sha256") {
            Some(given) if !s3 => given.to_string(),
            _ => hex(&sha256(request.body())),
        };
        if s3 {
            let headers = request.headers_mut();
            headers.remove("x-amz-content-sha256");
            let _ = headers.append("X-Amz-Content-Sha256", &payload_hash);
        }
        let scope = format!("{}/{}/{}/aws4_request", date, region, service);
        let (canonical, signed_headers) = canonical_request(request, s3, &payload_hash);
        let to_sign = format!(
            "{}\n{}\n{}\n{}",
            ALGORITHM,
            stamp,
            scope,
            hex(&sha256(canonical.as_bytes()))
        );
        let key = signing_key(secret, &date, region, service);
        let signature = hex(&hmac_sha256(&key, to_sign.as_bytes()));
        let authorization = format!(
            "{} Credential={}/{}, SignedHeaders={}, Signature={}",
            ALGORITHM, key_id, scope, signed_headers, signature
        );
        request
            .headers_mut()
            .append_sensitive("Authorization", &authorization)
            .map_err(|_| refused("access key id, region or service"))
    }
}

/// Never shows a secret: the keys and the token print as [`ConfigValue`]'s `Debug` does.
impl fmt::Debug for AwsSigV4 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown = |value: &ConfigValue| match value.context_key() {
            Some(key) => format!("context:{}", key),
            None => value.value().unwrap_or("").to_string(),
        };
        f.debug_struct("AwsSigV4")
            .field("region", &shown(&self.region))
            .field("service", &shown(&self.service))
            .field("access_key_id", &self.access_key_id)
            .field("secret_access_key", &self.secret_access_key)
            .field("session_token", &self.session_token)
            .finish()
    }
}

/// `kSigning = HMAC(HMAC(HMAC(HMAC("AWS4" + secret, date), region), service), "aws4_request")`.
fn signing_key(secret: &str, date: &str, region: &str, service: &str) -> [u8; 32] {
    let mut key = String::with_capacity(4 + secret.len());
    key.push_str("AWS4");
    key.push_str(secret);
    let k_date = hmac_sha256(key.as_bytes(), date.as_bytes());
    let k_region = hmac_sha256(&k_date, region.as_bytes());
    let k_service = hmac_sha256(&k_region, service.as_bytes());
    hmac_sha256(&k_service, b"aws4_request")
}

/// The canonical request and the signed headers' names (`host;x-amz-date`):
/// method, path, query, headers, signed header names and payload hash, one a line.
fn canonical_request(request: &Request, s3: bool, payload_hash: &str) -> (String, String) {
    let url = request.url();
    let mut text = String::with_capacity(256 + url.as_str().len());
    text.push_str(request.method().as_str());
    text.push('\n');
    push_canonical_path(&mut text, url.path(), s3);
    text.push('\n');
    push_canonical_query(&mut text, url.query().unwrap_or(""));
    text.push('\n');
    let host = request.host().unwrap_or_else(|| url.authority());
    let mut fields: Vec<(String, String)> = vec![(String::from("host"), trimmed(host))];
    for (name, value) in request.headers().iter() {
        let name = name.to_ascii_lowercase();
        if !UNSIGNED_HEADERS.contains(&name.as_str()) {
            fields.push((name, trimmed(value)));
        }
    }
    // Stable: the values of a repeated field keep their order, joined by commas.
    fields.sort_by(|a, b| a.0.cmp(&b.0));
    let mut signed = String::new();
    let mut previous: Option<&str> = None;
    for (name, value) in &fields {
        if previous == Some(name.as_str()) {
            text.push(',');
        } else {
            if previous.is_some() {
                text.push('\n');
                signed.push(';');
            }
            text.push_str(name);
            text.push(':');
            signed.push_str(name);
        }
        text.push_str(value);
        previous = Some(name);
    }
    text.push_str("\n\n");
    text.push_str(&signed);
    text.push('\n');
    text.push_str(payload_hash);
    (text, signed)
}

/// A header value with the spaces around it removed and each run inside it made one space.
fn trimmed(value: &str) -> String {
    value.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The canonical path. S3 signs the path as sent. Every other service signs it with empty
/// and `.` segments dropped and `..` applied (RFC 3986 section 5.2.4, and AWS's rule that
/// consecutive slashes collapse), then percent-encoded again, so `%2F` signs as `%252F`.
fn push_canonical_path(out: &mut String, path: &str, s3: bool) {
    if path.is_empty() {
        out.push('/');
        return;
    }
    if s3 {
        out.push_str(path);
        return;
    }
    let mut segments: Vec<&str> = Vec::new();
    for segment in path.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                segments.pop();
            }
            _ => segments.push(segment),
        }
    }
    out.push('/');
    let mut encoded = Vec::with_capacity(path.len() + 16);
    for (index, segment) in segments.iter().enumerate() {
        if index > 0 {
            encoded.push(b'/');
        }
        encode_bytes_into(&mut encoded, segment.as_bytes(), &UNRESERVED);
    }
    if path.ends_with('/') && !segments.is_empty() {
        encoded.push(b'/');
    }
    // Every byte outside the unreserved set was escaped: the text is ASCII.
    out.push_str(&String::from_utf8_lossy(&encoded));
}

/// The canonical query: each name and value percent-decoded and encoded again (all but the
/// unreserved characters, upper-case hex), a name without `=` given an empty value, the
/// pairs sorted by name and then value.
fn push_canonical_query(out: &mut String, query: &str) {
    if query.is_empty() {
        return;
    }
    let mut pairs: Vec<(Vec<u8>, Vec<u8>)> = query
        .split('&')
        .map(|pair| {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let mut encoded_name = Vec::with_capacity(name.len());
            encode_bytes_into(&mut encoded_name, &url::percent_decode(name), &UNRESERVED);
            let mut encoded_value = Vec::with_capacity(value.len());
            encode_bytes_into(&mut encoded_value, &url::percent_decode(value), &UNRESERVED);
            (encoded_name, encoded_value)
        })
        .collect();
    pairs.sort();
    for (index, (name, value)) in pairs.iter().enumerate() {
        if index > 0 {
            out.push('&');
        }
        out.push_str(&String::from_utf8_lossy(name));
        out.push('=');
        out.push_str(&String::from_utf8_lossy(value));
    }
}

/// `(YYYYMMDD, YYYYMMDD'T'HHMMSS'Z')` of a time in seconds since the Unix epoch, in UTC.
fn timestamp(unix_seconds: u64) -> (String, String) {
    let days = unix_seconds / 86_400;
    let seconds = unix_seconds % 86_400;
    let (year, month, day) = civil_from_days(days);
    let date = format!("{:04}{:02}{:02}", year, month, day);
    let stamp = format!(
        "{}T{:02}{:02}{:02}Z",
        date,
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60
    );
    (date, stamp)
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (the "civil from days"
/// algorithm, the inverse of the one `Retry-After` dates are read with).
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z % 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_are_utc_calendar_dates() {
        assert_eq!(
            timestamp(0),
            ("19700101".to_string(), "19700101T000000Z".to_string())
        );
        assert_eq!(timestamp(1_440_938_160).1, "20150830T123600Z");
        // A leap day and the last second of a century's leap year.
        assert_eq!(timestamp(951_782_400).1, "20000229T000000Z");
        assert_eq!(timestamp(978_307_199).1, "20001231T235959Z");
        assert_eq!(timestamp(4_107_542_400).1, "21000301T000000Z");
    }

    fn path(path: &str, s3: bool) -> String {
        let mut out = String::new();
        push_canonical_path(&mut out, path, s3);
        out
    }

    #[test]
    fn canonical_paths() {
        assert_eq!(path("", false), "/");
        assert_eq!(path("/", false), "/");
        assert_eq!(path("//example//", false), "/example/");
        assert_eq!(path("/a/./b/../c", false), "/a/c");
        assert_eq!(path("/a%2Fb", false), "/a%252Fb");
        assert_eq!(path("/example%20space/", false), "/example%2520space/");
        assert_eq!(path("/items:batch", false), "/items%3Abatch");
        // S3: once, as sent.
        assert_eq!(path("/a%2Fb//c", true), "/a%2Fb//c");
        assert_eq!(path("", true), "/");
    }

    fn query(query: &str) -> String {
        let mut out = String::new();
        push_canonical_query(&mut out, query);
        out
    }

    #[test]
    fn canonical_queries() {
        assert_eq!(query(""), "");
        assert_eq!(
            query("Param2=value2&Param1=value1"),
            "Param1=value1&Param2=value2"
        );
        assert_eq!(query("a=10&a=9"), "a=10&a=9");
        assert_eq!(query("x=a.b&x=a%2Fb"), "x=a%2Fb&x=a.b");
        assert_eq!(query("q=a+b"), "q=a%2Bb");
        assert_eq!(query("b&a=1"), "a=1&b=");
        assert_eq!(query("a=1=2"), "a=1%3D2");
        assert_eq!(query("k=%e1%88%b4"), "k=%E1%88%B4");
    }
}
