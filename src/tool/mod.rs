//! Tools: specs, calls, outputs, the `Tool` trait, the registry and the provider formats.
