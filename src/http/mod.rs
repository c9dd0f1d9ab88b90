//! HTTP/1.1: requests, responses, the `Transport` trait and the `Client`.
