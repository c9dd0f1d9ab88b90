//! Parsing of absolute `http` and `https` URLs (RFC 3986 section 3, with WHATWG URL's
//! readings where RFC 3986 leaves room) into the normalized serialization [`Url`] keeps.

use std::str::FromStr;

use super::dots::{has_dot_segment, remove_dot_segments};
use super::encode::{escape_at, push_escaped, ByteSet, PATH, QUERY};
use super::error::{Error, ErrorKind};
use super::host::{parse_host, parse_ipv6, push_host, HostRepr};
use super::{Scheme, Url};

impl Url {
    /// Parses an absolute `http` or `https` URL.
    ///
    /// # Errors
    ///
    /// An [`Error`] whose [`kind`](Error::kind) says what was refused (see the module docs)
    /// and whose [`offset`](Error::offset) says where.
    ///
    /// # Security
    ///
    /// The input may come from anywhere: parsing never panics, allocates at most a few times
    /// the input's length, and the error message never repeats the input.
    pub fn parse(input: &str) -> Result<Url, Error> {
        parse(input)
    }

    /// Replaces the path. `path` is taken as already percent-encoded (encode values with
    /// [`encode_path_segment`](super::encode_path_segment) first): characters not allowed in a path, `?` and `#` among
    /// them, are encoded, dot segments are removed and a missing leading `/` is added.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidPercentEncoding`], [`ErrorKind::Backslash`],
    /// [`ErrorKind::Whitespace`] or [`ErrorKind::ControlCharacter`]; the URL is then unchanged.
    ///
    /// ```
    /// use httptool::url::{encode_path_segment, Url};
    /// let mut url = Url::parse("https://api.example.com/v2?key=1")?;
    /// url.set_path(&format!("/v2/users/{}", encode_path_segment("a/b")))?;
    /// assert_eq!(url.as_str(), "https://api.example.com/v2/users/a%2Fb?key=1");
    /// # Ok::<(), httptool::url::Error>(())
    /// ```
    pub fn set_path(&mut self, path: &str) -> Result<(), Error> {
        screen(path)?;
        let mut text = String::with_capacity(self.text.len() + path.len() + 1);
        text.push_str(&self.text[..self.path_start]);
        let rooted;
        let path = if path.starts_with('/') || path.is_empty() {
            path
        } else {
            rooted = format!("/{path}");
            &rooted
        };
        push_path(&mut text, path, 0)?;
        let query_start = self.query_start.map(|q| {
            let start = text.len();
            text.push_str(&self.text[q..]);
            start
        });
        self.text = text;
        self.query_start = query_start;
        Ok(())
    }
}

impl FromStr for Url {
    type Err = Error;

    fn from_str(s: &str) -> Result<Url, Error> {
        Url::parse(s)
    }
}

/// Refuses whitespace, control characters and backslashes anywhere in `input`.
pub(crate) fn screen(input: &str) -> Result<(), Error> {
    for (i, &b) in input.as_bytes().iter().enumerate() {
        let kind = match b {
            b'\\' => ErrorKind::Backslash,
            b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | b' ' => ErrorKind::Whitespace,
            0..=0x1f | 0x7f => ErrorKind::ControlCharacter,
            0x80..=0xff => return screen_unicode(input, i),
            _ => continue,
        };
        return Err(Error::new(kind, i));
    }
    Ok(())
}

/// The rest of [`screen`], from the first non-ASCII byte on (at a char boundary).
fn screen_unicode(input: &str, from: usize) -> Result<(), Error> {
    for (i, c) in input[from..].char_indices() {
        let kind = match c {
            '\\' => ErrorKind::Backslash,
            c if c.is_whitespace() => ErrorKind::Whitespace,
            c if c.is_control() => ErrorKind::ControlCharacter,
            _ => continue,
        };
        return Err(Error::new(kind, from + i));
    }
    Ok(())
}

/// RFC 3986 section 3.1: `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`, followed by `:`.
/// Returns the scheme's length when `input` starts with one.
pub(crate) fn scheme_len(input: &str) -> Option<usize> {
    let colon = input.find(':')?;
    let scheme = input.get(..colon)?;
    let mut bytes = scheme.bytes();
    if !bytes.next()?.is_ascii_alphabetic() {
        return None;
    }
    for b in bytes {
        if !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')) {
            return None;
        }
    }
    Some(colon)
}

/// Where the first `://` in `text` starts (an absolute URL's authority is 3 bytes on). A loop
/// over the bytes: `str::find` with a text pattern compiles the standard library's substring
/// searcher for three bytes (build cost, see `design::performance`).
pub(crate) fn find_scheme_separator(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut at = 0;
    while let Some(window) = bytes.get(at..at + 3) {
        if window == b"://" {
            return Some(at);
        }
        at += 1;
    }
    None
}

pub(crate) fn parse(input: &str) -> Result<Url, Error> {
    if input.is_empty() {
        return Err(Error::new(ErrorKind::Empty, 0));
    }
    screen(input)?;
    // RFC 3986 section 3.5: the fragment is for the client only; it is dropped here.
    let input = match input.find('#') {
        Some(i) => &input[..i],
        None => input,
    };
    let colon = scheme_len(input).ok_or_else(|| Error::new(ErrorKind::MissingScheme, 0))?;
    let scheme = match &input[..colon] {
        s if s.eq_ignore_ascii_case("http") => Scheme::Http,
        s if s.eq_ignore_ascii_case("https") => Scheme::Https,
        _ => return Err(Error::new(ErrorKind::UnsupportedScheme, 0)),
    };
    let after_scheme = colon + 1;
    let rest = input[after_scheme..]
        .strip_prefix("//")
        .ok_or_else(|| Error::new(ErrorKind::MissingHost, after_scheme))?;
    let authority_start = after_scheme + 2;
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let authority = &rest[..authority_end];
    // RFC 3986 section 3.2.1: userinfo. Refused outright: credentials in a URL end up in
    // logs, and `user@host` confusion is a classic way to point a request elsewhere.
    if let Some(at) = authority.find('@') {
        return Err(Error::new(ErrorKind::Userinfo, authority_start + at));
    }
    let (raw_host, host_repr, port) = parse_authority(authority, authority_start)?;

    let mut text = String::with_capacity(input.len() + 8);
    text.push_str(scheme.as_str());
    text.push_str("://");
    let host_start = text.len();
    push_host(&mut text, raw_host, host_repr);
    let host_end = text.len();
    let port = port.filter(|&p| p != scheme.default_port());
    if let Some(p) = port {
        use std::fmt::Write;
        // Writing to a String cannot fail.
        let _ = write!(text, ":{p}");
    }
    let path_start = text.len();
    let tail_offset = authority_start + authority_end;
    let tail = &rest[authority_end..];
    let (path, query) = match tail.find('?') {
        Some(q) => (&tail[..q], Some((&tail[q + 1..], tail_offset + q + 1))),
        None => (tail, None),
    };
    push_path(&mut text, path, tail_offset)?;
    let query_start = match query {
        Some((query, offset)) => {
            let start = text.len();
            text.push('?');
            push_component(&mut text, query, offset, &QUERY)?;
            Some(start)
        }
        None => None,
    };
    Ok(Url {
        text,
        scheme,
        host: host_repr,
        host_start,
        host_end,
        port,
        path_start,
        query_start,
    })
}

/// RFC 3986 section 3.2.2 and 3.2.3: `host [ ":" port ]`, host an IP-literal in brackets or a
/// name. `offset` is where `authority` starts in the input, for error positions. Returns the
/// host as written, what it is, and the port.
fn parse_authority(authority: &str, offset: usize) -> Result<(&str, HostRepr, Option<u16>), Error> {
    let at = |(kind, i): (ErrorKind, usize), base: usize| Error::new(kind, base + i);
    if let Some(inner) = authority.strip_prefix('[') {
        let close = inner
            .find(']')
            .ok_or_else(|| Error::new(ErrorKind::InvalidIpv6, offset))?;
        let addr = parse_ipv6(&inner[..close]).map_err(|e| at(e, offset + 1))?;
        let after = &inner[close + 1..];
        let port_offset = offset + close + 2;
        let port = match after.strip_prefix(':') {
            Some(port) => parse_port(port, port_offset + 1)?,
            None if after.is_empty() => None,
            None => return Err(Error::new(ErrorKind::InvalidHost, port_offset)),
        };
        return Ok((&inner[..close], HostRepr::Ipv6(addr), port));
    }
    let (host, port) = match authority.find(':') {
        Some(c) => (&authority[..c], Some((&authority[c + 1..], offset + c + 1))),
        None => (authority, None),
    };
    let repr = parse_host(host).map_err(|e| at(e, offset))?;
    let port = match port {
        Some((port, port_offset)) => parse_port(port, port_offset)?,
        None => None,
    };
    Ok((host, repr, port))
}

/// RFC 3986 section 3.2.3: `port = *DIGIT`; empty means the default port.
fn parse_port(port: &str, offset: usize) -> Result<Option<u16>, Error> {
    if port.is_empty() {
        return Ok(None);
    }
    // Loops here and in `scheme_len`, not closures given to `position` and `all`: each
    // compiled its own copy of the iterator code (build cost, see `design::performance`).
    for (i, b) in port.bytes().enumerate() {
        if !b.is_ascii_digit() {
            return Err(Error::new(ErrorKind::InvalidPort, offset + i));
        }
    }
    match crate::decimal::parse(port.as_bytes()).map(u16::try_from) {
        Some(Ok(p)) if p > 0 => Ok(Some(p)),
        _ => Err(Error::new(ErrorKind::PortOutOfRange, offset)),
    }
}

/// Appends `part`, keeping valid `%XX` escapes and the bytes of `set` ([`PATH`], [`QUERY`]), percent-encoding every other
/// byte (non-ASCII as UTF-8, and the ASCII characters RFC 3986 leaves out, like `"<>^{|}`) so
/// the result is a valid request target.
pub(crate) fn push_component(
    out: &mut String,
    part: &str,
    offset: usize,
    set: &ByteSet,
) -> Result<(), Error> {
    let bytes = part.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'%' {
            if escape_at(bytes, i).is_none() {
                return Err(Error::new(ErrorKind::InvalidPercentEncoding, offset + i));
            }
            out.push('%');
        } else if set.keeps(b) {
            out.push(char::from(b));
        } else {
            push_escaped(out, b);
        }
    }
    Ok(())
}

/// Appends the path: `/` when empty, dot segments removed (RFC 3986 section 6.2.2.3, and
/// `%2e` counted as a dot like WHATWG URL does, since servers decode it before routing).
pub(crate) fn push_path(out: &mut String, path: &str, offset: usize) -> Result<(), Error> {
    if path.is_empty() {
        out.push('/');
        return Ok(());
    }
    let start = out.len();
    push_component(out, path, offset, &PATH)?;
    if has_dot_segment(&out[start..]) {
        let cleaned = remove_dot_segments(&out[start..]);
        out.truncate(start);
        out.push_str(&cleaned);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scheme_syntax() {
        assert_eq!(scheme_len("http://x"), Some(4));
        assert_eq!(scheme_len("a+b.c-d:"), Some(7));
        assert_eq!(scheme_len("1a:"), None);
        assert_eq!(scheme_len(":x"), None);
        assert_eq!(scheme_len("/a:b"), None);
    }
}
