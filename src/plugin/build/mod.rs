//! Checking a declaration and compiling it into a plugin, with no I/O: `validate` checks a
//! `Declaration` field by field, `schema` renders the JSON Schema a model reads, `compile`
//! prepares what every call of an endpoint reuses, `http_plugin` is the checked plugin and
//! what it runs with, and `builder` fills in a declaration and builds it.

pub(in crate::plugin) mod builder;
pub(in crate::plugin) mod compile;
pub(in crate::plugin) mod http_plugin;
pub(in crate::plugin) mod schema;
pub(in crate::plugin) mod validate;
