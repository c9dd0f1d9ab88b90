//! Declaring a plugin: the types a plugin file or a builder fills in, before anything is
//! checked. Nothing here sends a request or uses the other phases.
//!
//! From the bottom: `config_value` (a value written out, from the environment or the call
//! context), the auth schemes declared with their own fields (`oauth`, `sigv4`), `pages`,
//! then `model` (parameters, endpoints, options, auth), `declaration` (what a builder holds),
//! `option_fields` (the table of option fields every phase walks) and `naming` (the names
//! importers give).

pub(in crate::plugin) mod config_value;
pub(in crate::plugin) mod declaration;
pub(in crate::plugin) mod model;
pub(crate) mod naming;
pub(in crate::plugin) mod oauth;
pub(in crate::plugin) mod option_fields;
pub(in crate::plugin) mod pages;
pub(in crate::plugin) mod sigv4;
