//! What a sample says about an API: value types, names for tools, parameters and environment
//! variables, id-looking path segments, credential-looking values and browser noise.
//!
//! Every rule here is a guess from one sample, written down so it can be reviewed and tested:
//! each function has a table of cases in its file's tests. Pure: text in, values out.

mod names;
mod secrets;
mod segments;
mod types;

pub(crate) use names::{param_name, plugin_name, singular, snake_case, tool_name};
// Postman names a request's tool from the request's own name.
#[cfg(feature = "postman")]
pub(crate) use names::valid_tool_name;
pub(crate) use secrets::{is_browser_header, is_secret_value};
pub(crate) use segments::{is_id_segment, is_token_segment, is_version_segment};
pub(crate) use types::{json_type, scalar_type, text_value};
