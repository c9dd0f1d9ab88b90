//! JSON: the value type, a strict RFC 8259 parser and the writer.
