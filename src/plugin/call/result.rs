//! From a response, or a transport failure, to what the model reads
//! ([results](crate::design::endpoints#results)); and the
//! full response for Rust callers. Pure.

use std::fmt;

use crate::http::{self, media, Response};
use crate::json::{self, Json};
use crate::plugin::call::fields::{self, FieldPath};
use crate::plugin::call::redact::Redactor;
use crate::plugin::error::quote;
use crate::quote::MASK;
use crate::tool::{cap_json, cap_text, Attachment, ErrorKind, ToolOutput};

/// The most bytes of a binary answer sent to the model as an attachment: 1 MiB. Set per
/// plugin or endpoint with `max_attachment_bytes`.
pub const DEFAULT_MAX_ATTACHMENT_BYTES: usize = 1024 * 1024;

/// What a call's response holds beside the model's text, for Rust callers: the whole
/// [`Response`] (status, reason, final URL, headers, body) and the body parsed as JSON when
/// it is JSON.
///
/// Returned by [`HttpTool::send`](crate::plugin::HttpTool::send), whatever the status.
///
/// # Security
///
/// It holds the response as the server sent it: a secret the call sent that the server
/// echoed is in its body, headers and [`data`](ApiResponse::data) as it came.
/// [`HttpTool::output`](crate::plugin::HttpTool::output) (what the model reads) replaces each with
/// `***`.
pub struct ApiResponse {
    response: Response,
    data: Option<Json>,
    redactor: Redactor,
}

impl ApiResponse {
    pub(crate) fn new(response: Response, redactor: Redactor) -> ApiResponse {
        let data = if is_json(&response) {
            json::parse_bytes(response.body()).ok()
        } else {
            None
        };
        ApiResponse {
            response,
            data,
            redactor,
        }
    }

    /// The status code.
    pub fn status(&self) -> u16 {
        self.response.status()
    }

    /// The reason phrase as sent (often empty).
    pub fn reason(&self) -> &str {
        self.response.reason()
    }

    /// The URL of the response: the request's, or where a followed redirect led.
    pub fn url(&self) -> &crate::url::Url {
        self.response.url()
    }

    /// The header fields.
    pub fn headers(&self) -> &http::Headers {
        self.response.headers()
    }

    /// The body, whole.
    pub fn body(&self) -> &[u8] {
        self.response.body()
    }

    /// The body as text, when it is UTF-8.
    pub fn text(&self) -> Option<&str> {
        self.response.text().ok()
    }

    /// The body parsed as JSON, when the response is JSON (by `Content-Type`, or a body that
    /// starts like JSON without one) and parses.
    pub fn data(&self) -> Option<&Json> {
        self.data.as_ref()
    }

    /// The HTTP response.
    pub fn response(&self) -> &Response {
        &self.response
    }

    /// The HTTP response, by value.
    pub fn into_response(self) -> Response {
        self.response
    }

    /// The status line and header fields as a person reads them, one a line
    /// (`HTTP/1.1 200 OK`, then `Content-Type: application/json`, ...), for a verbose log.
    ///
    /// # Security
    ///
    /// Every secret the call sent that the server echoed is `***`, as in what the model
    /// reads, and so is the whole value of a field whose name is a credential's
    /// ([`http::is_credential_name`]: `Set-Cookie`, `Authorization`), which is the server's
    /// own secret.
    ///
    /// # Examples
    ///
    /// See `httptool call -v`, which prints it on standard error.
    pub fn head_text(&self) -> String {
        let version = match self.response.version() {
            http::Version::Http10 => "HTTP/1.0",
            http::Version::Http11 => "HTTP/1.1",
        };
        let mut text = format!("{} {}", version, self.response.status());
        if !self.response.reason().is_empty() {
            text.push(' ');
            text.push_str(self.response.reason());
        }
        for (name, value) in self.response.headers().iter() {
            text.push('\n');
            text.push_str(name);
            text.push_str(": ");
            if http::is_credential_name(name) {
                text.push_str(MASK);
            } else {
                text.push_str(value);
            }
        }
        self.redactor.text(&text).into_owned()
    }

    /// The response and the secrets its call sent, for [`output`].
    pub(crate) fn into_parts(self) -> (Response, Redactor) {
        (self.response, self.redactor)
    }
}

impl fmt::Debug for ApiResponse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ApiResponse")
            .field("response", &self.response)
            .field("has_data", &self.data.is_some())
            .finish()
    }
}

/// The response options of an endpoint, and the secrets the call sent (each `***` in what
/// the model reads, before the text is capped).
pub(crate) struct Shaping<'a> {
    pub pointer: Option<&'a str>,
    /// The endpoint's `response_fields` (empty: the whole response).
    pub fields: &'a [FieldPath],
    /// The model's `fields` argument, when it sent one.
    pub asked: Option<&'a [FieldPath]>,
    pub max_output_bytes: usize,
    /// The most bytes sent to the model as an attachment (image, sound, file).
    pub max_attachment_bytes: usize,
    pub redactor: &'a Redactor,
}

fn is_json(response: &Response) -> bool {
    match response.header("content-type") {
        Some(content_type) => media::is_json(content_type),
        None => matches!(
            response.body().iter().find(|b| !b.is_ascii_whitespace()),
            Some(b'{') | Some(b'[')
        ),
    }
}

/// Whether a media type is text a model can read; `None` when it does not say.
fn textual_type(content_type: &str) -> bool {
    const TEXTUAL: [&str; 8] = [
        "application/xml",
        "application/javascript",
        "application/ecmascript",
        "application/x-www-form-urlencoded",
        "application/yaml",
        "application/x-yaml",
        "application/x-ndjson",
        "application/graphql",
    ];
    let essence = media::essence(content_type);
    let bytes = essence.as_bytes();
    let starts = |prefix: &[u8]| {
        bytes.len() >= prefix.len() && bytes[..prefix.len()].eq_ignore_ascii_case(prefix)
    };
    let ends = |suffix: &[u8]| {
        bytes.len() >= suffix.len()
            && bytes[bytes.len() - suffix.len()..].eq_ignore_ascii_case(suffix)
    };
    starts(b"text/")
        || media::is_json(essence)
        || ends(b"+xml")
        || TEXTUAL.iter().any(|t| t.eq_ignore_ascii_case(essence))
}

/// Media types that say nothing of what a body is: its content decides.
fn is_generic_type(content_type: &str) -> bool {
    const GENERIC: [&str; 5] = [
        "application/octet-stream",
        "binary/octet-stream",
        "application/binary",
        "application/unknown",
        "*/*",
    ];
    let essence = media::essence(content_type);
    essence.is_empty() || GENERIC.iter().any(|g| g.eq_ignore_ascii_case(essence))
}

/// Whether a body of no (or a generic) media type reads as text: UTF-8 without the control
/// bytes text never holds.
fn is_text_content(body: &[u8]) -> bool {
    std::str::from_utf8(body).is_ok() && !has_binary_controls(body)
}

/// The media type a binary body's first bytes announce, for a body of no (or a generic)
/// media type: the image and document types a model reads.
fn sniffed_type(body: &[u8]) -> Option<&'static str> {
    const MAGIC: [(&[u8], &str); 5] = [
        (b"\x89PNG\r\n\x1a\n", "image/png"),
        (b"\xff\xd8\xff", "image/jpeg"),
        (b"GIF8", "image/gif"),
        (b"%PDF-", "application/pdf"),
        (b"RIFF", "image/webp"),
    ];
    MAGIC.iter().find_map(|(magic, media_type)| {
        let webp = *media_type != "image/webp" || body.get(8..12) == Some(b"WEBP".as_slice());
        (body.starts_with(magic) && webp).then_some(*media_type)
    })
}

/// Bytes that do not occur in text: C0 controls other than tab, line feed, form feed and
/// carriage return, and DEL.
fn has_binary_controls(body: &[u8]) -> bool {
    body.iter()
        .any(|&b| (b < 0x20 && !matches!(b, b'\t' | b'\n' | 0x0c | b'\r')) || b == 0x7f)
}

/// The charset a textual body is decoded with (RFC 9110 section 8.3.2, the `charset`
/// parameter of its media type).
enum Charset {
    /// UTF-8, also when no charset is named.
    Utf8,
    /// ISO-8859-1 (and US-ASCII, a subset of it): each byte is the code point of its value.
    Latin1,
    /// windows-1252: ISO-8859-1 with printable characters at 0x80 to 0x9F.
    Windows1252,
    /// A charset not decoded here (its name, lowercased): shown when the body is UTF-8,
    /// summarised otherwise.
    Other(String),
}

fn charset_of(content_type: &str) -> Charset {
    let name = media::parameter(content_type, "charset").map(str::to_ascii_lowercase);
    match name.as_deref() {
        None | Some("utf-8") | Some("utf8") => Charset::Utf8,
        Some(
            "iso-8859-1" | "iso8859-1" | "iso_8859-1" | "latin1" | "l1" | "us-ascii" | "ascii",
        ) => Charset::Latin1,
        Some("windows-1252" | "cp1252" | "x-cp1252") => Charset::Windows1252,
        Some(other) => Charset::Other(other.to_string()),
    }
}

/// windows-1252 at 0x80 to 0x9F (the WHATWG Encoding Standard's index); its five unassigned
/// bytes stay the C1 control of their value, as there.
const WINDOWS_1252_HIGH: [char; 32] = [
    '\u{20AC}', '\u{81}', '\u{201A}', '\u{192}', '\u{201E}', '\u{2026}', '\u{2020}', '\u{2021}',
    '\u{2C6}', '\u{2030}', '\u{160}', '\u{2039}', '\u{152}', '\u{8D}', '\u{17D}', '\u{8F}',
    '\u{90}', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}', '\u{2022}', '\u{2013}', '\u{2014}',
    '\u{2DC}', '\u{2122}', '\u{161}', '\u{203A}', '\u{153}', '\u{9D}', '\u{17E}', '\u{178}',
];

impl Charset {
    /// Whether `body` can be read in this charset.
    fn decodes(&self, body: &[u8]) -> bool {
        match self {
            Charset::Latin1 | Charset::Windows1252 => true,
            Charset::Utf8 | Charset::Other(_) => std::str::from_utf8(body).is_ok(),
        }
    }

    /// The body as text; [`decodes`](Charset::decodes) said it can be read.
    fn decode(&self, body: Vec<u8>) -> String {
        match self {
            Charset::Latin1 => body.iter().map(|&b| char::from(b)).collect(),
            Charset::Windows1252 => body
                .iter()
                .map(|&b| match b {
                    0x80..=0x9f => WINDOWS_1252_HIGH
                        .get(usize::from(b - 0x80))
                        .copied()
                        .unwrap_or(char::from(b)),
                    _ => char::from(b),
                })
                .collect(),
            Charset::Utf8 | Charset::Other(_) => String::from_utf8(body)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
        }
    }
}

/// What the model reads for a response.
pub(crate) fn output(response: Response, shaping: &Shaping<'_>) -> ToolOutput {
    let status = response.status();
    if (300..400).contains(&status) {
        let (kind, mut message) = redirect_message(&response);
        shaping.redactor.string(&mut message);
        cap_text(&mut message, shaping.max_output_bytes);
        return ToolOutput::error(kind, message).with_status(status);
    }
    let json = is_json(&response);
    let content_type = response
        .header("content-type")
        .filter(|t| !is_generic_type(t));
    // Without a Content-Type, or with one that says nothing (`application/octet-stream`),
    // the content decides: bytes that are not UTF-8, or control bytes (a PNG, a gzip
    // stream), are binary.
    let textual = content_type.map_or_else(|| is_text_content(response.body()), textual_type);
    let charset = content_type.map_or(Charset::Utf8, charset_of);
    if !textual {
        return binary_output(&response, shaping, None);
    }
    if !charset.decodes(response.body()) {
        let undecoded = match &charset {
            Charset::Other(name) => Some(name.as_str()),
            _ => None,
        };
        return binary_output(&response, shaping, undecoded);
    }
    // Only failures quote the reason phrase.
    let reason = if (200..300).contains(&status) {
        String::new()
    } else {
        response.reason().to_string()
    };
    let mut text = charset.decode(response.into_body());
    // The parsed view is redacted inside its strings (and keys), so it keeps its structure
    // whatever the secret holds; the text is redacted in `finish`.
    let mut data = if json { json::parse(&text).ok() } else { None };
    if let Some(data) = &mut data {
        shaping.redactor.json(data);
    }
    if (200..300).contains(&status) {
        if let Some(pointer) = shaping.pointer {
            match select(data.as_mut(), pointer) {
                Some(selected) => {
                    text = match &selected {
                        Json::String(s) => s.clone(),
                        other => other.to_string(),
                    };
                    data = Some(selected);
                }
                None => {
                    let mut message = pointer_missing(pointer, json, &text);
                    shaping.redactor.string(&mut message);
                    cap_text(&mut message, shaping.max_output_bytes);
                    return ToolOutput::error(ErrorKind::ToolFailed, message).with_status(status);
                }
            }
        }
    }
    if (200..300).contains(&status) {
        if let Some(value) = &data {
            match shaped(value, shaping) {
                Ok(Some(value)) => {
                    text = value.to_string();
                    data = Some(value);
                }
                Ok(None) => {}
                Err(mut message) => {
                    shaping.redactor.string(&mut message);
                    cap_text(&mut message, shaping.max_output_bytes);
                    return ToolOutput::error(ErrorKind::InvalidArguments, message)
                        .with_status(status);
                }
            }
        }
    }
    finish(status, &reason, text, data, shaping)
}

/// The response value cut to the endpoint's `response_fields`, then to the model's `fields`;
/// `None` when neither is set. Nothing the endpoint names leaves an empty container of the
/// response's type; nothing the model names is an error listing what there is, so it can ask
/// again.
fn shaped(value: &Json, shaping: &Shaping<'_>) -> Result<Option<Json>, String> {
    let mut current: Option<Json> = None;
    if !shaping.fields.is_empty() {
        let slices: Vec<&[String]> = shaping.fields.iter().map(Vec::as_slice).collect();
        current = Some(
            fields::project(value, &slices).unwrap_or_else(|| match value {
                Json::Array(_) => Json::Array(Vec::new()),
                _ => Json::Object(crate::json::Map::new()),
            }),
        );
    }
    if let Some(asked) = shaping.asked {
        let base = current.as_ref().unwrap_or(value);
        let slices: Vec<&[String]> = asked.iter().map(Vec::as_slice).collect();
        match fields::project(base, &slices) {
            Some(kept) => current = Some(kept),
            None => return Err(nothing_matched(base)),
        }
    }
    Ok(current)
}

/// For `fields` that name nothing: what the response has at its top (or in its first item).
fn nothing_matched(value: &Json) -> String {
    let (prefix, members) = match value {
        Json::Array(items) => ("*/", items.first().and_then(Json::as_object)),
        _ => ("", value.as_object()),
    };
    let names: Vec<String> = members
        .map(|m| {
            m.keys()
                .take(30)
                .map(|k| format!("{}{}", prefix, k))
                .collect()
        })
        .unwrap_or_default();
    if names.is_empty() {
        return String::from(
            "argument 'fields': none of the field paths is in the response; call again without 'fields' to see it whole",
        );
    }
    format!(
        "argument 'fields': none of the field paths is in the response; its fields include: {}",
        names.join(", ")
    )
}

/// A body that is not text, or text in a charset this crate does not decode (named): a
/// one-line summary (media type, size, SHA-256, file name) instead of lossy text, and for a
/// success the bytes as an [`Attachment`] when they fit `max_attachment_bytes`.
fn binary_output(
    response: &Response,
    shaping: &Shaping<'_>,
    undecoded: Option<&str>,
) -> ToolOutput {
    let body = response.body();
    let declared = response.header("content-type");
    let media_type = match declared.filter(|t| !is_generic_type(t)) {
        Some(t) => Some(t.to_string()),
        None => sniffed_type(body)
            .map(String::from)
            .or_else(|| declared.map(String::from)),
    };
    let name = response
        .header("content-disposition")
        .and_then(media::file_name);
    let shown_type = media_type.as_deref().unwrap_or("no content type");
    let mut summary = binary_summary(shown_type, body, name.as_deref());
    if let Some(charset) = undecoded {
        summary = format!(
            "text in charset {}, which is not decoded: {}; the content is not shown",
            quote(charset),
            summary.replacen("binary response", "response", 1)
        );
        return finish(response.status(), response.reason(), summary, None, shaping);
    }
    let success = (200..300).contains(&response.status());
    if !success || body.is_empty() {
        summary.push_str("; the content is not shown");
        return finish(response.status(), response.reason(), summary, None, shaping);
    }
    if body.len() > shaping.max_attachment_bytes {
        summary.push_str(&format!(
            "; the content is not shown: it is larger than the endpoint's max_attachment_bytes ({} bytes)",
            shaping.max_attachment_bytes
        ));
        return finish(response.status(), response.reason(), summary, None, shaping);
    }
    // The bytes cannot be redacted without breaking them: an answer that echoes a secret
    // the call sent is described, never attached.
    if matches!(shaping.redactor.bytes(body), std::borrow::Cow::Owned(_)) {
        summary.push_str("; the content is not shown: it holds a secret the call sent");
        return finish(response.status(), response.reason(), summary, None, shaping);
    }
    let uri = shaping
        .redactor
        .text(response.url().without_query())
        .into_owned();
    let mut attachment = Attachment::new(
        media_type.unwrap_or_else(|| String::from("application/octet-stream")),
        body.to_vec(),
    )
    .with_uri(uri);
    if let Some(name) = name {
        attachment = attachment.with_name(name);
    }
    finish(response.status(), response.reason(), summary, None, shaping).with_attachment(attachment)
}

fn select(data: Option<&mut Json>, pointer: &str) -> Option<Json> {
    data?.pointer_mut(pointer).map(Json::take)
}

fn pointer_missing(pointer: &str, json: bool, body: &str) -> String {
    let why = if json {
        "the response has no value at"
    } else {
        "the response is not JSON, so it has no value at"
    };
    format!(
        "{} {} (the endpoint's response_pointer); the response was: {}",
        why,
        quote(pointer),
        body
    )
}

/// Success for 2xx (an empty body is an empty success); `is_error` with the body kept for
/// anything else, so the model can correct itself. Secrets are redacted before the cap.
fn finish(
    status: u16,
    reason: &str,
    mut text: String,
    data: Option<Json>,
    shaping: &Shaping<'_>,
) -> ToolOutput {
    let max_output_bytes = shaping.max_output_bytes;
    let mut output = if (200..300).contains(&status) {
        // JSON over the cap is cut at element boundaries into valid JSON (its marker says
        // what was left out); other text, and JSON that cannot be cut so, keeps the text
        // marker.
        // The structured value stays whole: a cut one would break the output schema a
        // client checks it against (a required member gone, a marker string among objects).
        // MCP sends it only where a schema promises it (`ToolOutput::is_truncated`).
        let mut cut = false;
        if text.len() > max_output_bytes {
            if let Some(json_cut) = data.as_ref().and_then(|v| cap_json(v, max_output_bytes)) {
                text = json_cut;
                cut = true;
            }
        }
        shaping.redactor.string(&mut text);
        cut |= cap_text(&mut text, max_output_bytes) > 0;
        let output = ToolOutput::success(text);
        if cut {
            output.truncated()
        } else {
            output
        }
    } else {
        let mut message = format!("the API answered {}", status);
        if !reason.is_empty() {
            message.push(' ');
            message.push_str(reason);
        }
        if text.is_empty() {
            message.push_str(" with an empty body");
        } else {
            message.push_str(": ");
            message.push_str(&text);
        }
        // The reason phrase is redacted too (`400 Bad key <the key>`).
        shaping.redactor.string(&mut message);
        let cut = cap_text(&mut message, max_output_bytes) > 0;
        let output = ToolOutput::error(ErrorKind::HttpStatus, message);
        if cut {
            output.truncated()
        } else {
            output
        }
    };
    if let Some(data) = data {
        output = output.with_structured(data);
    }
    output.with_status(status)
}

/// A redirect the plugin's policy did not follow ends the call, saying where it pointed
/// (without the query, which may hold a token), before redaction and the cap.
fn redirect_message(response: &Response) -> (ErrorKind, String) {
    let status = response.status();
    let location = response.header("location");
    let target = location.map(|l| match response.url().join(l) {
        Ok(url) => url.without_query().to_string(),
        Err(_) => match unparsed_location(l) {
            Some(shown) => quote(&shown),
            None => String::from("a location that could not be read"),
        },
    });
    let why = response
        .redirect_stop()
        .map(|stop| stop.describe())
        .unwrap_or("it is not a redirect this client follows");
    let message = match target {
        Some(target) => format!(
            "the API redirected ({}) to {}, which was not followed: {}; this is not caused by the arguments",
            status, target, why
        ),
        None => format!(
            "the API answered {} without a Location header; this is not caused by the arguments",
            status
        ),
    };
    (ErrorKind::RedirectNotFollowed, message)
}

/// What a `Location` that cannot be parsed may show: the text before any control character,
/// query or fragment, without userinfo (which may hold a password); `None` when nothing is
/// left. Userinfo is found the way a lenient parser would: after the scheme and any run of
/// `/` and `\`, up to the last `@` before the next `/` or `\`.
fn unparsed_location(location: &str) -> Option<String> {
    let end = location
        .find(|c: char| c.is_control() || c == '?' || c == '#')
        .unwrap_or(location.len());
    let shown = location.get(..end).unwrap_or("");
    let scheme_end = match shown.find(':') {
        Some(i) if shown.get(..i).map_or(false, is_scheme) => i + 1,
        _ => 0,
    };
    let after_scheme = shown.get(scheme_end..).unwrap_or("");
    let slashes = after_scheme.len() - after_scheme.trim_start_matches(['/', '\\']).len();
    let authority_start = scheme_end + slashes;
    let rest = shown.get(authority_start..).unwrap_or("");
    let authority_len = rest.find(['/', '\\']).unwrap_or(rest.len());
    let mut out = String::from(shown.get(..authority_start).unwrap_or(""));
    match rest.get(..authority_len).and_then(|a| a.rfind('@')) {
        Some(at) => out.push_str(rest.get(at + 1..).unwrap_or("")),
        None => out.push_str(rest),
    }
    Some(out).filter(|s| !s.trim().is_empty())
}

/// RFC 3986 section 3.1: `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
fn is_scheme(text: &str) -> bool {
    let mut bytes = text.bytes();
    bytes.next().map_or(false, |b| b.is_ascii_alphabetic())
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
}

/// `binary response (image/png, 1234 bytes, SHA-256 9f86..., file name 'chart.png')`.
fn binary_summary(content_type: &str, body: &[u8], file_name: Option<&str>) -> String {
    let mut summary = format!(
        "binary response ({}, {} bytes, SHA-256 {}",
        content_type,
        body.len(),
        crate::hash::hex(&crate::hash::sha256(body))
    );
    if let Some(name) = file_name {
        summary.push_str(", file name ");
        summary.push_str(&quote(name));
    }
    summary.push(')');
    summary
}

/// What the model reads when the request got no usable response: what failed and how to
/// call correctly, with a stable kind ([results](crate::design::endpoints#results)). The http
/// error's message never holds
/// a query, header value or body.
pub(crate) fn transport_output(err: &http::Error, max_output_bytes: usize) -> ToolOutput {
    use http::ErrorKind as K;
    let (kind, message) = match err.kind() {
        K::Timeout { .. } => (
            ErrorKind::Timeout,
            format!(
                "the API did not answer in time: {}; the request may or may not have been processed, so check before repeating a change",
                err
            ),
        ),
        K::LimitExceeded {
            which: http::Limit::Body,
            max,
            ..
        } => (
            ErrorKind::LimitExceeded,
            format!(
                "the response is larger than the limit of {} bytes; ask for less (a smaller page, fewer fields)",
                max
            ),
        ),
        K::LimitExceeded {
            which: http::Limit::RequestTarget,
            max,
            seen,
        } => (
            ErrorKind::LimitExceeded,
            format!(
                "the request url would be {} bytes, over the limit of {} bytes; send shorter values",
                seen, max
            ),
        ),
        K::LimitExceeded { .. } => (
            ErrorKind::LimitExceeded,
            format!("{}; this is not caused by the arguments", err),
        ),
        K::AddressRefused(_) | K::HostNotAllowed => (
            ErrorKind::AddressRefused,
            format!(
                "the API's address is refused by this application's policy: {}; this is not caused by the arguments",
                err
            ),
        ),
        K::Resolve | K::Connect | K::ConnectionClosed | K::IncompleteBody { .. } | K::Io => (
            ErrorKind::Transport,
            format!(
                "could not get a response from the API: {}; this is not caused by the arguments, and trying again later may work",
                err
            ),
        ),
        _ => (
            ErrorKind::Transport,
            format!(
                "could not get a response from the API: {}; this is not caused by the arguments",
                err
            ),
        ),
    };
    let mut output = ToolOutput::error(kind, message);
    output.cap_text(max_output_bytes);
    output
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn textual_types() {
        for t in [
            "text/plain",
            "application/json",
            "application/xml",
            "image/svg+xml",
        ] {
            assert!(textual_type(t), "{}", t);
        }
        for t in ["image/png", "application/octet-stream", "application/pdf"] {
            assert!(!textual_type(t), "{}", t);
        }
    }

    #[test]
    fn redirect_messages_respect_the_output_cap() {
        // Regression: the message for a redirect not followed quotes where it pointed, and
        // was the one output not cut to the endpoint's `max_output_bytes`.
        let url = crate::url::Url::parse("https://api.example.com/x").unwrap();
        let mut headers = http::Headers::new();
        let location = format!("https://cdn.example.net/{}", "a".repeat(5000));
        headers.append("Location", &location).unwrap();
        let response = Response::new(302, url).with_headers(headers);
        let shaping = Shaping {
            pointer: None,
            fields: &[],
            asked: None,
            max_output_bytes: 300,
            max_attachment_bytes: 1024,
            redactor: &Redactor::default(),
        };
        let out = output(response, &shaping);
        assert_eq!(out.error_kind(), Some(ErrorKind::RedirectNotFollowed));
        assert!(out.text().len() <= 300, "{}", out.text().len());
        assert!(out
            .text()
            .starts_with("the API redirected (302) to https://cdn.example.net/aaa"));
        assert!(out.text().contains("[truncated: "));
    }

    #[test]
    fn unparsed_locations_lose_query_userinfo_and_control_tails() {
        let cases = [
            ("http://h/a b?k=s", Some("http://h/a b")),
            ("http://u:p@h/a b", Some("http://h/a b")),
            ("http:\\\\u:p@h\\a?k=s", Some("http:\\\\h\\a")),
            ("//u:p@h/x y", Some("//h/x y")),
            ("/p\tsecret", Some("/p")),
            ("http://h/#frag x", Some("http://h/")),
            ("?k=secret x", None),
            ("   ", None),
            ("/users/@me x", Some("/users/@me x")),
        ];
        for (location, want) in cases {
            assert_eq!(
                unparsed_location(location).as_deref(),
                want,
                "{:?}",
                location
            );
        }
    }
}
