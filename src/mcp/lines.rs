//! Newline-delimited messages (the MCP stdio transport): one message a line, each line
//! capped without reading a long one into memory.

use std::io::{self, BufRead};

/// What [`LineReader::next_line`] found.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Line {
    /// A line is in the buffer (without its `\n`, or `\r\n`).
    Message,
    /// A line longer than the cap: it was read to its end and thrown away; `seen` is its
    /// length in bytes.
    TooLong { seen: u64 },
    /// The end of input.
    Eof,
}

/// Reads lines of at most `max` bytes from a `BufRead`.
///
/// A longer line is consumed chunk by chunk and dropped, so a 100 MB line costs at most
/// `max` bytes of memory, never its length.
pub(crate) struct LineReader<R> {
    inner: R,
    max: usize,
}

impl<R: BufRead> LineReader<R> {
    pub(crate) fn new(inner: R, max: usize) -> LineReader<R> {
        LineReader { inner, max }
    }

    /// Reads the next line into `buf` (cleared first).
    ///
    /// The stdio transport says messages are delimited by newlines and hold none; a `\r`
    /// before the `\n` is dropped too, for clients on Windows. A last line without a newline
    /// still counts as a line.
    pub(crate) fn next_line(&mut self, buf: &mut Vec<u8>) -> io::Result<Line> {
        buf.clear();
        let mut seen: u64 = 0;
        let mut over = false;
        loop {
            let available = match self.inner.fill_buf() {
                Ok(bytes) => bytes,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                return Ok(match (seen, over) {
                    (0, _) => Line::Eof,
                    (_, true) => Line::TooLong { seen },
                    (_, false) => Line::Message,
                });
            }
            let newline = available.iter().position(|&b| b == b'\n');
            let chunk = match newline {
                Some(at) => &available[..at],
                None => available,
            };
            let taken = chunk.len();
            if !over {
                if buf.len() + taken > self.max {
                    over = true;
                    buf.clear();
                    buf.shrink_to(self.max.min(64 * 1024));
                } else {
                    buf.extend_from_slice(chunk);
                }
            }
            seen += taken as u64;
            self.inner.consume(taken + usize::from(newline.is_some()));
            if newline.is_some() {
                if over {
                    return Ok(Line::TooLong { seen });
                }
                if buf.last() == Some(&b'\r') {
                    buf.pop();
                }
                return Ok(Line::Message);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], max: usize, capacity: usize) -> Vec<Result<Vec<u8>, u64>> {
        let mut reader = LineReader::new(io::BufReader::with_capacity(capacity, input), max);
        let mut buf = Vec::new();
        let mut out = Vec::new();
        loop {
            match reader.next_line(&mut buf).unwrap() {
                Line::Message => out.push(Ok(buf.clone())),
                Line::TooLong { seen } => out.push(Err(seen)),
                Line::Eof => return out,
            }
        }
    }

    #[test]
    fn splits_on_newlines_and_drops_carriage_returns() {
        assert_eq!(
            lines(b"{}\r\n[1]\nlast", 100, 3),
            [
                Ok(b"{}".to_vec()),
                Ok(b"[1]".to_vec()),
                Ok(b"last".to_vec())
            ]
        );
        assert_eq!(lines(b"", 100, 3), []);
        assert_eq!(lines(b"\n", 100, 3), [Ok(Vec::new())]);
    }

    #[test]
    fn cap_on_both_sides() {
        assert_eq!(lines(b"12345\n", 5, 2), [Ok(b"12345".to_vec())]);
        assert_eq!(lines(b"123456\nok\n", 5, 2), [Err(6), Ok(b"ok".to_vec())]);
        assert_eq!(lines(b"123456", 5, 4), [Err(6)]);
    }
}
