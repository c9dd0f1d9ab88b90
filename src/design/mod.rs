//! The design of httptool, for the people who read its code: what each layer holds, what
//! every endpoint does with a model's call, who is trusted with what, and what is done for
//! speed.
//!
//! These modules hold documentation only, no code, in the way rustls ships its manual.
//! They are part of the crate so that the code can point at them and `cargo doc` checks
//! every link they make into it: a page that names a type that was renamed or removed no
//! longer builds.
//!
//! | page | what it says |
//! | --- | --- |
//! | [`architecture`] | the layers, what each one owns, how a call goes through them |
//! | [`endpoints`] | the behaviour decided for every endpoint of a plugin, rule by rule |
//! | [`security`] | who controls which input, the bug classes and the tests that cover them |
//! | [`performance`] | what `benches/` measures, how peers are compared, what was decided for speed |
//!
//! Comments in the code that implement one of these rules name the page and its section
//! (`crate::design::endpoints`, "Redirects"), so a change to either side can find the other.

pub mod architecture;
pub mod endpoints;
pub mod performance;
pub mod security;
