//! The deterministic random generator the tests share: the same inputs on every run and
//! every machine, and no dependency. Its one copy is the crate's `src/test_rng.rs`, which the
//! library's unit tests use too.

#![allow(dead_code)]

#[path = "../../src/test_rng.rs"]
mod shared;

pub use self::shared::Rng;
