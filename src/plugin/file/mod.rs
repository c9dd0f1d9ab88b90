//! The plugin file: `from_json` (with `${NAME}` taken from the environment or a lookup) and
//! `to_json` (which writes the `${NAME}`s back, never the values).
//!
//! | file | what it holds |
//! | --- | --- |
//! | `read.rs` | `from_json` and its variants, the fields each object accepts, the loader |
//! | `template.rs` | `${NAME}`: expanding, escaping `${` as `$${`, the names a file reads |
//! | `write.rs` | `to_json` |

mod read;
mod template;
mod write;

pub(crate) use self::template::variable_names;
