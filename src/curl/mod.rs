//! curl commands to plugins and back.
