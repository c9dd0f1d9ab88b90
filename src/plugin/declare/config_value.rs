//! `ConfigValue`: a string the plugin sends, written out, from the environment, or from the
//! call context. A leaf of the declaration types, so `model.rs` and `oauth.rs` both use it
//! without using each other in a circle.

use std::fmt;

use crate::quote::{quote, MASK};
use crate::tool::{CallContext, ErrorKind, ToolOutput};

/// A string the plugin sends: written in the declaration, read from the environment when the
/// plugin file was loaded, or taken from the host's [`CallContext`] at every call.
///
/// Values from the environment or the context are treated as secrets: a header or query
/// value made of one is `***` in `Debug` output, dry runs and logs. `Debug` of a
/// `ConfigValue` never shows a value: literals print as `***`, environment values as their
/// `${NAME}` template, context values as their key.
///
/// # Examples
///
/// ```
/// use httptool::plugin::ConfigValue;
/// use httptool::tool::CallContext;
///
/// let token = ConfigValue::context("user_token");
/// let context = CallContext::new().with("user_token", "t-123");
/// assert_eq!(token.resolve(&context), Some("t-123"));
/// assert_eq!(token.resolve(&CallContext::new()), None);
/// assert_eq!(ConfigValue::from("application/json").value(), Some("application/json"));
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct ConfigValue {
    source: Source,
}

#[derive(Clone, PartialEq, Eq)]
enum Source {
    Literal(String),
    Env { template: String, value: String },
    Context(String),
}

impl ConfigValue {
    /// A value written as it is.
    pub fn literal(text: impl Into<String>) -> ConfigValue {
        ConfigValue {
            source: Source::Literal(text.into()),
        }
    }

    /// A value taken at every call from the [`CallContext`] entry `key`.
    pub fn context(key: impl Into<String>) -> ConfigValue {
        ConfigValue {
            source: Source::Context(key.into()),
        }
    }

    /// A value read from the environment (or a lookup) when a file was loaded; `template` is
    /// the text as written, with its `${NAME}`s, for writing the file back.
    pub(crate) fn from_template(template: String, value: String) -> ConfigValue {
        ConfigValue {
            source: Source::Env { template, value },
        }
    }

    /// The text, when it is known before the call (a literal, or a value read from the
    /// environment); `None` for a context value.
    pub fn value(&self) -> Option<&str> {
        match &self.source {
            Source::Literal(text) => Some(text),
            Source::Env { value, .. } => Some(value),
            Source::Context(_) => None,
        }
    }

    /// The text for one call: the known value, or the context's entry.
    pub fn resolve<'a>(&'a self, context: &'a CallContext) -> Option<&'a str> {
        match &self.source {
            Source::Context(key) => context.get(key),
            _ => self.value(),
        }
    }

    /// The context key, for a context value.
    pub fn context_key(&self) -> Option<&str> {
        match &self.source {
            Source::Context(key) => Some(key),
            _ => None,
        }
    }

    /// The text as written in the plugin file, `${NAME}`s included, for a value read from
    /// the environment.
    pub fn template(&self) -> Option<&str> {
        match &self.source {
            Source::Env { template, .. } => Some(template),
            _ => None,
        }
    }

    /// Whether the value came from the environment or the context, which makes it secret.
    pub fn is_external(&self) -> bool {
        !matches!(self.source, Source::Literal(_))
    }
}

impl From<&str> for ConfigValue {
    fn from(text: &str) -> ConfigValue {
        ConfigValue::literal(text)
    }
}

impl From<String> for ConfigValue {
    fn from(text: String) -> ConfigValue {
        ConfigValue::literal(text)
    }
}

impl fmt::Debug for ConfigValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.source {
            Source::Literal(_) => f.write_str(MASK),
            Source::Env { template, .. } => write!(f, "{:?}", template),
            Source::Context(key) => write!(f, "context:{}", key),
        }
    }
}

/// The output for a context entry a call needs and the host did not give.
pub(crate) fn missing_context(key: &str) -> ToolOutput {
    ToolOutput::error(
        ErrorKind::MissingParameter,
        format!(
            "this tool needs {} from the application's call context, and the application did not provide it; this is not caused by the arguments",
            quote(key)
        ),
    )
}

/// The text of `value` for one call; the missing-context output when the context lacks it.
pub(crate) fn resolve<'a>(
    value: &'a ConfigValue,
    context: &'a CallContext,
) -> Result<&'a str, ToolOutput> {
    value
        .resolve(context)
        .ok_or_else(|| missing_context(value.context_key().unwrap_or("")))
}
