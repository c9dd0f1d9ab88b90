//! `Attachment`: bytes a result carries beside its text (an image, a sound, a file), which
//! each provider format sends in the form it documents, or leaves to the text.

use std::fmt;
use std::sync::Arc;

/// What an [`Attachment`] is to a model, read from its media type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttachmentKind {
    /// `image/*`: MCP `ImageContent`, an Anthropic image block, an OpenAI `input_image`.
    Image,
    /// `audio/*`: MCP `AudioContent` (revision 2025-03-26 and later).
    Audio,
    /// Anything else (a PDF, an archive, `application/octet-stream`): an MCP embedded
    /// resource, an Anthropic document block for PDF, an OpenAI `input_file`.
    File,
}

/// Bytes a [`ToolOutput`](super::ToolOutput) carries beside its text: an image, a sound or a
/// file the tool answered with, kept whole (never turned into lossy text).
///
/// The output's text still says what came back (media type, size, SHA-256): it is what a
/// format without a form for the bytes sends, and what a model reads beside them. The bytes
/// are shared, so cloning an attachment copies no data.
///
/// # Examples
///
/// ```
/// use httptool::tool::{mcp, Attachment, AttachmentKind, ToolOutput};
///
/// let png = Attachment::new("image/png", vec![0x89, b'P', b'N', b'G']);
/// assert_eq!(png.kind(), AttachmentKind::Image);
/// let output = ToolOutput::success("image/png, 4 bytes").with_attachment(png);
/// let result = mcp::call_tool_result(&output);
/// assert_eq!(result["content"][1]["type"], httptool::json!("image"));
/// assert_eq!(result["content"][1]["data"], httptool::json!("iVBORw=="));
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Attachment {
    media_type: String,
    bytes: Arc<[u8]>,
    name: Option<String>,
    uri: Option<String>,
}

impl Attachment {
    /// Bytes of the media type `media_type` (`image/png`; parameters such as `; charset=`
    /// are kept as given).
    pub fn new(media_type: impl Into<String>, bytes: impl Into<Vec<u8>>) -> Attachment {
        Attachment {
            media_type: media_type.into(),
            bytes: Arc::from(bytes.into()),
            name: None,
            uri: None,
        }
    }

    /// A file name for formats that carry one (OpenAI's `input_file`).
    #[must_use]
    pub fn with_name(mut self, name: impl Into<String>) -> Attachment {
        self.name = Some(name.into());
        self
    }

    /// Where the bytes came from, for formats that name it (MCP's embedded resource `uri`).
    #[must_use]
    pub fn with_uri(mut self, uri: impl Into<String>) -> Attachment {
        self.uri = Some(uri.into());
        self
    }

    /// The media type, as given.
    pub fn media_type(&self) -> &str {
        &self.media_type
    }

    /// The media type without parameters, lowercased: `image/png`.
    pub fn essence(&self) -> String {
        let end = self.media_type.find(';').unwrap_or(self.media_type.len());
        self.media_type[..end].trim().to_ascii_lowercase()
    }

    /// Image, audio or file, by the media type.
    pub fn kind(&self) -> AttachmentKind {
        let essence = self.essence();
        if essence.starts_with("image/") {
            AttachmentKind::Image
        } else if essence.starts_with("audio/") {
            AttachmentKind::Audio
        } else {
            AttachmentKind::File
        }
    }

    /// The bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The file name, if one was given.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// Where the bytes came from, if known.
    pub fn uri(&self) -> Option<&str> {
        self.uri.as_deref()
    }

    /// The bytes in Base64 (RFC 4648 section 4, padded), as every format sends them.
    pub fn base64(&self) -> String {
        crate::base64::encode(&self.bytes)
    }

    /// A `data:` URL of the bytes (RFC 2397): `data:image/png;base64,...`.
    pub fn data_url(&self) -> String {
        format!("data:{};base64,{}", self.essence(), self.base64())
    }
}

/// The media type, the size and the name; never the bytes.
impl fmt::Debug for Attachment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Attachment")
            .field("media_type", &self.media_type)
            .field("len", &self.bytes.len())
            .field("name", &self.name)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_by_media_type() {
        let kind = |t: &str| Attachment::new(t, Vec::new()).kind();
        assert_eq!(kind("image/png"), AttachmentKind::Image);
        assert_eq!(kind("IMAGE/JPEG; q=1"), AttachmentKind::Image);
        assert_eq!(kind("audio/wav"), AttachmentKind::Audio);
        assert_eq!(kind("application/pdf"), AttachmentKind::File);
        assert_eq!(kind("application/octet-stream"), AttachmentKind::File);
    }

    #[test]
    fn data_urls_drop_parameters() {
        let a = Attachment::new("Image/PNG; x=1", b"ab".to_vec());
        assert_eq!(a.data_url(), "data:image/png;base64,YWI=");
        assert_eq!(
            format!("{:?}", a),
            "Attachment { media_type: \"Image/PNG; x=1\", len: 2, name: None }"
        );
    }
}
