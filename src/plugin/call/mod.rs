//! The steps a call is made of, each on the declared types alone: the model's arguments
//! into checked values (`args`, `schema_check`), values into wire text (`style`,
//! `multipart`, `auth`), credentials fetched or answered (`token`, `digest`), the answer
//! into what the model reads (`result`, `fields`, `stream`, `redact`), lists on more pages
//! (`paging`), long-running operations (`operation`) and the observer's view (`observe`).
//! The build phase uses them to check defaults and prepare budgets; `request.rs` and
//! `tool.rs` put them together on a built plugin.

pub(in crate::plugin) mod args;
pub(in crate::plugin) mod auth;
pub(in crate::plugin) mod digest;
pub(in crate::plugin) mod fields;
pub(in crate::plugin) mod multipart;
pub(in crate::plugin) mod observe;
pub(in crate::plugin) mod operation;
pub(in crate::plugin) mod paging;
pub(in crate::plugin) mod redact;
pub(in crate::plugin) mod result;
pub(in crate::plugin) mod schema_check;
pub(in crate::plugin) mod stream;
pub(in crate::plugin) mod style;
pub(in crate::plugin) mod token;
