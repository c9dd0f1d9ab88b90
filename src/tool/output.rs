//! `ToolOutput`: what a call hands back to the model, and the cap on text a model reads.

use std::fmt::{self, Write};

use super::attachment::Attachment;
use super::error::{Error, ErrorKind};
use crate::json::Json;

/// The most text, in bytes, handed to a model from one call. Defaults to 64 KiB.
///
/// The registry caps every output to this (see
/// [`ToolRegistry::max_output_bytes`](super::ToolRegistry::max_output_bytes)), and tools
/// that cap earlier use [`cap_text`] so the marker reads the same everywhere.
pub const DEFAULT_MAX_OUTPUT_BYTES: usize = 64 * 1024;

const MARKER_START: &str = "\n... [truncated: ";
const MARKER_END: &str = " more bytes]";
/// What is left when the whole marker does not fit, cut to the cap.
const MARKER_SHORT: &str = "[truncated]";

/// Cuts `text` so it fits in `max_bytes`, ending it with a marker that says how much was left
/// out, and returns the number of bytes left out (0 when the text already fit).
///
/// The cut falls on a char boundary, and the result, marker included, is at most
/// `max_bytes` long. The marker reads `\n... [truncated: 12345 more bytes]`, where the count
/// covers every byte of the original text that is not in the result. When `max_bytes` is
/// smaller than that marker, the whole text is left out and the result is as much of
/// `[truncated]` as fits (nothing for a cap of 0): the cap is never exceeded.
///
/// # Examples
///
/// ```
/// use httptool::tool::cap_text;
///
/// let mut text = "é".repeat(100); // 200 bytes
/// let left_out = cap_text(&mut text, 64);
/// assert!(text.len() <= 64);
/// assert!(text.ends_with(&format!("[truncated: {} more bytes]", left_out)));
///
/// let mut short = String::from("fits");
/// assert_eq!(cap_text(&mut short, 64), 0);
/// assert_eq!(short, "fits");
/// ```
pub fn cap_text(text: &mut String, max_bytes: usize) -> usize {
    if text.len() <= max_bytes {
        return 0;
    }
    // The count left out has at most as many digits as the whole length, so reserving that
    // many keeps the result within `max_bytes`.
    let reserve = MARKER_START.len() + MARKER_END.len() + decimal_digits(text.len());
    if max_bytes < reserve {
        let left_out = text.len();
        text.clear();
        // ASCII: any length is a char boundary.
        text.push_str(&MARKER_SHORT[..max_bytes.min(MARKER_SHORT.len())]);
        return left_out;
    }
    let mut keep = max_bytes - reserve;
    while !text.is_char_boundary(keep) {
        keep -= 1;
    }
    let left_out = text.len() - keep;
    text.truncate(keep);
    text.push_str(MARKER_START);
    let _ = write!(text, "{}", left_out);
    text.push_str(MARKER_END);
    left_out
}

fn decimal_digits(mut n: usize) -> usize {
    let mut digits = 1;
    while n >= 10 {
        n /= 10;
        digits += 1;
    }
    digits
}

/// The result of a call, as the model will read it, plus what Rust callers want to know.
///
/// `text` goes to the model whether the call succeeded or not: on failure it says what went
/// wrong and how to call correctly. [`error_kind`](ToolOutput::error_kind) names the failure
/// for code. A tool may attach structured JSON (a parsed response body; MCP sends it as
/// `structuredContent`) and the HTTP status it saw.
///
/// # Examples
///
/// ```
/// use httptool::json;
/// use httptool::tool::{ErrorKind, ToolOutput};
///
/// let ok = ToolOutput::json(json!({"temp": 21})).with_status(200);
/// assert_eq!(ok.text(), r#"{"temp":21}"#);
/// assert!(!ok.is_error());
///
/// let failed = ToolOutput::error(ErrorKind::HttpStatus, "the API answered 404 Not Found")
///     .with_status(404);
/// assert!(failed.is_error());
/// assert_eq!(failed.error_kind(), Some(ErrorKind::HttpStatus));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ToolOutput {
    text: String,
    error: Option<ErrorKind>,
    structured: Option<Json>,
    status: Option<u16>,
    /// Whether the text was cut to a cap.
    truncated: bool,
    /// Bytes sent beside the text, where a format has a form for them.
    attachments: Vec<Attachment>,
}

impl ToolOutput {
    /// A successful result whose text the model reads.
    pub fn success(text: impl Into<String>) -> ToolOutput {
        ToolOutput {
            text: text.into(),
            error: None,
            structured: None,
            status: None,
            truncated: false,
            attachments: Vec::new(),
        }
    }

    /// A successful result holding JSON: the text is its compact form and the value is kept
    /// as the structured result.
    pub fn json(value: Json) -> ToolOutput {
        ToolOutput::success(value.to_string()).with_structured(value)
    }

    /// A failed call: `message` is written for the model (what failed, how to call
    /// correctly) and `kind` for code.
    pub fn error(kind: ErrorKind, message: impl Into<String>) -> ToolOutput {
        ToolOutput {
            text: message.into(),
            error: Some(kind),
            structured: None,
            status: None,
            truncated: false,
            attachments: Vec::new(),
        }
    }

    /// Records the HTTP status the call saw.
    #[must_use]
    pub fn with_status(mut self, status: u16) -> ToolOutput {
        self.status = Some(status);
        self
    }

    /// Attaches structured JSON, such as a parsed response body.
    #[must_use]
    pub fn with_structured(mut self, value: Json) -> ToolOutput {
        self.structured = Some(value);
        self
    }

    /// Adds bytes sent beside the text (an image, a sound, a file): each provider format
    /// sends them in the form it documents, or sends the text alone (see [`Attachment`]).
    #[must_use]
    pub fn with_attachment(mut self, attachment: Attachment) -> ToolOutput {
        self.attachments.push(attachment);
        self
    }

    /// The bytes sent beside the text, in order.
    pub fn attachments(&self) -> &[Attachment] {
        &self.attachments
    }

    /// The text for the model.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The text for the model, by value.
    pub fn into_text(self) -> String {
        self.text
    }

    /// Whether the call failed.
    pub fn is_error(&self) -> bool {
        self.error.is_some()
    }

    /// Why the call failed, or `None` when it succeeded.
    pub fn error_kind(&self) -> Option<ErrorKind> {
        self.error
    }

    /// The structured result, if the tool attached one.
    pub fn structured(&self) -> Option<&Json> {
        self.structured.as_ref()
    }

    /// The HTTP status, if the call saw one.
    pub fn status(&self) -> Option<u16> {
        self.status
    }

    /// Whether the text was cut to a cap: it then ends with a marker saying how much was
    /// left out (or holds JSON cut at element boundaries, with markers in what was cut).
    ///
    /// The structured result is never cut: it is whole or absent. MCP sends it beside a cut
    /// text only for a tool with an output schema, which clients hold to sending it; a tool
    /// without one gets the cut text alone, so no client reads the whole value as if the
    /// cap had not applied ([`mcp::call_tool_result_for`](super::mcp::call_tool_result_for)).
    pub fn is_truncated(&self) -> bool {
        self.truncated
    }

    /// Records that the text was cut by the tool itself (as [`cap_text`](ToolOutput::cap_text)
    /// does).
    pub(crate) fn truncated(mut self) -> ToolOutput {
        self.truncated = true;
        self
    }

    /// Caps the text with [`cap_text`] and returns the number of bytes left out.
    ///
    /// The structured result is left whole: it is for Rust callers and MCP clients, which
    /// set their own limits (see [`is_truncated`](ToolOutput::is_truncated)).
    pub fn cap_text(&mut self, max_bytes: usize) -> usize {
        let left_out = cap_text(&mut self.text, max_bytes);
        if left_out > 0 {
            self.truncated = true;
        }
        left_out
    }
}

impl From<Error> for ToolOutput {
    fn from(err: Error) -> ToolOutput {
        let kind = err.kind();
        ToolOutput::error(kind, String::from(err.message()))
    }
}

impl From<String> for ToolOutput {
    fn from(text: String) -> ToolOutput {
        ToolOutput::success(text)
    }
}

impl From<&str> for ToolOutput {
    fn from(text: &str) -> ToolOutput {
        ToolOutput::success(text)
    }
}

impl From<Json> for ToolOutput {
    fn from(value: Json) -> ToolOutput {
        ToolOutput::json(value)
    }
}

/// `Ok` converts as its value does; `Err` becomes an [`ErrorKind::ToolFailed`] output whose
/// text is the error's `Display`, so a closure tool can return `Result<String, String>` or
/// use `?`.
impl<T, E> From<Result<T, E>> for ToolOutput
where
    T: Into<ToolOutput>,
    E: fmt::Display,
{
    fn from(result: Result<T, E>) -> ToolOutput {
        match result {
            Ok(value) => value.into(),
            Err(err) => ToolOutput::error(ErrorKind::ToolFailed, err.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    macro_rules! cap_cases {
        ($($name:ident: $text:expr, $max:expr => $expected:expr;)*) => {$(
            #[test]
            fn $name() {
                let mut text = String::from($text);
                let original_len = text.len();
                let left_out = cap_text(&mut text, $max);
                assert_eq!(text, $expected);
                assert!(text.len() <= $max, "never longer than the cap");
                match text.find(MARKER_START) {
                    Some(kept) => assert_eq!(kept + left_out, original_len, "kept + left out = original"),
                    // Without the marker, all of it is left out, or nothing is.
                    None => assert!(left_out == 0 || left_out == original_len),
                }
            }
        )*};
    }

    cap_cases! {
        cap_fits_exactly: "abcdef", 6 => "abcdef";
        cap_empty: "", 0 => "";
        cap_cuts_with_marker: "x".repeat(100), 40 => "xxxxxxxx\n... [truncated: 92 more bytes]";
        cap_never_splits_a_char: "é".repeat(50), 40 => "éééé\n... [truncated: 92 more bytes]";
        cap_smaller_than_marker: "x".repeat(100), 5 => "[trun";
    }

    #[test]
    fn cap_result_never_exceeds_the_limit() {
        for len in [100usize, 1_000, 99_999, 100_000, 1_000_000] {
            for max in [40usize, 41, 64, 1024, 65_536] {
                let mut text = "aé".repeat(len / 3);
                let original = text.len();
                let left_out = cap_text(&mut text, max);
                if original > max {
                    assert!(text.len() <= max, "len {} max {}", original, max);
                    assert!(left_out > 0);
                } else {
                    assert_eq!(left_out, 0);
                }
            }
        }
    }

    #[test]
    fn cap_just_over_and_under_the_default() {
        let mut under = "x".repeat(DEFAULT_MAX_OUTPUT_BYTES);
        assert_eq!(cap_text(&mut under, DEFAULT_MAX_OUTPUT_BYTES), 0);
        let mut over = "x".repeat(DEFAULT_MAX_OUTPUT_BYTES + 1);
        let left_out = cap_text(&mut over, DEFAULT_MAX_OUTPUT_BYTES);
        assert!(over.len() <= DEFAULT_MAX_OUTPUT_BYTES);
        assert!(over.ends_with(&format!("[truncated: {} more bytes]", left_out)));
    }

    #[test]
    fn result_conversions() {
        let ok: ToolOutput = Ok::<_, String>("done").into();
        assert_eq!(ok, ToolOutput::success("done"));
        let failed: ToolOutput = Err::<String, _>("city not found").into();
        assert_eq!(failed.error_kind(), Some(ErrorKind::ToolFailed));
        assert_eq!(failed.text(), "city not found");
    }

    #[test]
    fn error_converts_with_kind_and_message() {
        let output = ToolOutput::from(Error::new(ErrorKind::UnknownTool, "unknown tool 'x'"));
        assert_eq!(output.error_kind(), Some(ErrorKind::UnknownTool));
        assert_eq!(output.text(), "unknown tool 'x'");
    }
}
