//! Hosts: domain names, IPv4 addresses in every legacy form, bracketed IPv6 addresses.
//!
//! Legacy numeric hosts (`127.1`, `0x7f.0.0.1`, `0177.0.0.1`, `2130706433`) are read as the
//! address they denote, with the WHATWG URL IPv4 parser (section 3.5), and the URL is
//! normalized to the dotted-decimal form. They are never handed to a resolver as names (a
//! system resolver would read them as the same address, behind any check made on the name).

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use super::error::ErrorKind;

/// The host of a [`Url`](super::Url).
///
/// Not `#[non_exhaustive]`: an `http` or `https` host is a name, an IPv4 or an IPv6 address (RFC
/// 3986 section 3.2.2), and this crate accepts no other form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Host<'a> {
    /// A domain name, lower-case ASCII, possibly with a trailing dot.
    Domain(&'a str),
    /// An IPv4 address (written in any legacy form, normalized).
    Ipv4(Ipv4Addr),
    /// An IPv6 address (written between brackets in the URL).
    Ipv6(Ipv6Addr),
}

impl Host<'_> {
    /// The address, when the host is one.
    pub fn ip(&self) -> Option<IpAddr> {
        match *self {
            Host::Domain(_) => None,
            Host::Ipv4(a) => Some(IpAddr::V4(a)),
            Host::Ipv6(a) => Some(IpAddr::V6(a)),
        }
    }
}

impl fmt::Display for Host<'_> {
    /// The host as written in a URL: IPv6 between brackets.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Host::Domain(d) => f.write_str(d),
            Host::Ipv4(a) => write!(f, "{a}"),
            Host::Ipv6(a) => write!(f, "[{a}]"),
        }
    }
}

/// What a URL stores about its host; the name itself is a slice of the serialization.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum HostRepr {
    Domain,
    Ipv4(Ipv4Addr),
    Ipv6(Ipv6Addr),
}

/// The longest DNS name (RFC 1035 section 2.3.4), without a trailing dot.
const MAX_DOMAIN: usize = 253;
/// The longest DNS label (RFC 1035 section 2.3.4).
const MAX_LABEL: usize = 63;

/// Parses a host that is not between brackets. On error, the offset is relative to `host`.
pub(crate) fn parse_host(host: &str) -> Result<HostRepr, (ErrorKind, usize)> {
    if host.is_empty() {
        return Err((ErrorKind::MissingHost, 0));
    }
    for (i, b) in host.bytes().enumerate() {
        if !b.is_ascii() {
            return Err((ErrorKind::NonAsciiHost, i));
        }
        if b == b'%' {
            return Err((ErrorKind::PercentInHost, i));
        }
    }
    // Both checks below ignore ASCII case.
    if ends_in_number(host) {
        let addr = parse_ipv4(host).ok_or((ErrorKind::InvalidIpv4, 0))?;
        return Ok(HostRepr::Ipv4(addr));
    }
    check_domain(host)?;
    Ok(HostRepr::Domain)
}

/// Appends the normalized host: a lower-case name, dotted-decimal IPv4, bracketed IPv6.
pub(crate) fn push_host(out: &mut String, raw: &str, repr: HostRepr) {
    use std::fmt::Write;
    // Writing to a String cannot fail.
    let _ = match repr {
        HostRepr::Domain => {
            // A loop, not a mapped iterator, which compiled its own copy of the iterator
            // code (build cost, see `design::performance`).
            for c in raw.chars() {
                out.push(c.to_ascii_lowercase());
            }
            Ok(())
        }
        HostRepr::Ipv4(a) => write!(out, "{a}"),
        HostRepr::Ipv6(a) => write!(out, "[{a}]"),
    };
}

/// Parses the text between `[` and `]`. On error, the offset is relative to `text`.
pub(crate) fn parse_ipv6(text: &str) -> Result<Ipv6Addr, (ErrorKind, usize)> {
    if let Some(i) = text.find('%') {
        return Err((ErrorKind::ZoneId, i));
    }
    // std's parser follows RFC 4291 section 2.2 (with the dotted IPv4 tail) and nothing looser.
    text.parse().map_err(|_| (ErrorKind::InvalidIpv6, 0))
}

/// A domain name: labels of letters, digits, `-` and `_`, separated by single dots, with one
/// optional trailing dot. Stricter than WHATWG's forbidden-code-point list on purpose: the
/// characters it lets through (`!$&'()*+,;=~` and others) never occur in a resolvable name.
fn check_domain(host: &str) -> Result<(), (ErrorKind, usize)> {
    let name = host.strip_suffix('.').unwrap_or(host);
    if name.is_empty() || name.len() > MAX_DOMAIN {
        return Err((ErrorKind::InvalidHost, 0));
    }
    let mut offset = 0;
    for label in name.split('.') {
        if label.is_empty() || label.len() > MAX_LABEL {
            return Err((ErrorKind::InvalidHost, offset));
        }
        for (i, b) in label.bytes().enumerate() {
            if !(b.is_ascii_alphanumeric() || b == b'-' || b == b'_') {
                return Err((ErrorKind::InvalidHost, offset + i));
            }
        }
        offset += label.len() + 1;
    }
    Ok(())
}

/// WHATWG URL section 3.5, "ends in a number checker": the last label (ignoring one trailing
/// dot) is all digits, or a `0x` hex number. Such hosts must parse as IPv4 or be refused.
fn ends_in_number(host: &str) -> bool {
    let name = host.strip_suffix('.').unwrap_or(host);
    let last = name.rsplit('.').next().unwrap_or(name);
    if crate::decimal::is_digits(last.as_bytes()) {
        return true;
    }
    parse_ipv4_number(last).is_some()
}

/// WHATWG URL section 3.5, "IPv4 number parser": `0x` hex, leading-zero octal, or decimal.
fn parse_ipv4_number(part: &str) -> Option<u64> {
    if part.is_empty() {
        return None;
    }
    let (digits, radix) =
        if let Some(hex) = part.strip_prefix("0x").or_else(|| part.strip_prefix("0X")) {
            (hex, 16)
        } else if part.len() > 1 && part.starts_with('0') {
            (&part[1..], 8)
        } else {
            (part, 10)
        };
    if digits.is_empty() {
        return Some(0);
    }
    let mut value: u64 = 0;
    for c in digits.chars() {
        let d = u64::from(c.to_digit(radix)?);
        // Anything above 2^32 is refused later; saturate so long inputs cannot overflow.
        value = value
            .saturating_mul(u64::from(radix))
            .saturating_add(d)
            .min(1 << 40);
    }
    Some(value)
}

/// WHATWG URL section 3.5, "IPv4 parser": one to four parts, the last one filling the
/// remaining bytes (`127.1` is 127.0.0.1, `2130706433` is 127.0.0.1).
pub(crate) fn parse_ipv4(host: &str) -> Option<Ipv4Addr> {
    let name = host.strip_suffix('.').unwrap_or(host);
    let mut parts = [0u64; 4];
    let mut count = 0;
    for part in name.split('.') {
        let slot = parts.get_mut(count)?;
        *slot = parse_ipv4_number(part)?;
        count += 1;
    }
    let (last, init) = parts[..count].split_last()?;
    if init.iter().any(|&p| p > 255) {
        return None;
    }
    let room = 8 * (5 - count as u32);
    if *last >= 1u64 << room {
        return None;
    }
    let mut value = *last;
    for (i, &p) in init.iter().enumerate() {
        value += p << (8 * (3 - i as u32));
    }
    Some(Ipv4Addr::from(u32::try_from(value).ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v4(s: &str) -> Option<String> {
        parse_ipv4(s).map(|a| a.to_string())
    }

    #[test]
    fn whatwg_ipv4_forms() {
        let cases = [
            ("127.0.0.1", Some("127.0.0.1")),
            ("127.1", Some("127.0.0.1")),
            ("127.0.1", Some("127.0.0.1")),
            ("0x7f.0.0.1", Some("127.0.0.1")),
            ("0X7F.1", Some("127.0.0.1")),
            ("0177.0.0.1", Some("127.0.0.1")),
            ("2130706433", Some("127.0.0.1")),
            ("0x7f000001", Some("127.0.0.1")),
            ("017700000001", Some("127.0.0.1")),
            ("127.0.0.1.", Some("127.0.0.1")),
            ("0", Some("0.0.0.0")),
            ("0x", Some("0.0.0.0")),
            ("255.255.255.255", Some("255.255.255.255")),
            ("4294967295", Some("255.255.255.255")),
            ("4294967296", None),
            ("256.0.0.1", None),
            ("1.2.3.256", None),
            ("1.2.65536", None),
            ("1.2.3.4.5", None),
            ("08.0.0.1", None),
            ("0x1g.0.0.1", None),
            ("1..2", None),
            ("99999999999999999999999999", None),
        ];
        for (input, want) in cases {
            assert_eq!(v4(input).as_deref(), want, "{input}");
        }
    }

    #[test]
    fn ends_in_number_cases() {
        assert!(ends_in_number("foo.1"));
        assert!(ends_in_number("foo.0x"));
        assert!(ends_in_number("1.2.3.4."));
        assert!(!ends_in_number("foo.1a"));
        assert!(!ends_in_number("example.com"));
        assert!(!ends_in_number("0xg"));
    }

    #[test]
    fn host_errors() {
        assert_eq!(parse_host("foo.1").unwrap_err().0, ErrorKind::InvalidIpv4);
        assert_eq!(parse_host("a..b").unwrap_err().0, ErrorKind::InvalidHost);
        assert_eq!(parse_host(".a").unwrap_err().0, ErrorKind::InvalidHost);
        assert_eq!(parse_host("a!b").unwrap_err(), (ErrorKind::InvalidHost, 1));
        assert_eq!(
            parse_host("caf\u{e9}").unwrap_err(),
            (ErrorKind::NonAsciiHost, 3)
        );
        assert_eq!(
            parse_host("a%2eb").unwrap_err(),
            (ErrorKind::PercentInHost, 1)
        );
        assert_eq!(
            parse_host(&"a".repeat(64)).unwrap_err().0,
            ErrorKind::InvalidHost
        );
        assert!(parse_host(&"a".repeat(63)).is_ok());
        assert_eq!(parse_host("Example.COM."), Ok(HostRepr::Domain));
        assert_eq!(
            parse_host("0X7F.1"),
            Ok(HostRepr::Ipv4(Ipv4Addr::LOCALHOST))
        );
        let mut out = String::new();
        push_host(&mut out, "Example.COM.", HostRepr::Domain);
        push_host(&mut out, "0x7f.1", HostRepr::Ipv4(Ipv4Addr::LOCALHOST));
        push_host(&mut out, "::1", HostRepr::Ipv6(Ipv6Addr::LOCALHOST));
        assert_eq!(out, "example.com.127.0.0.1[::1]");
    }

    #[test]
    fn ipv6_zone_is_refused() {
        assert_eq!(
            parse_ipv6("fe80::1%25eth0").unwrap_err(),
            (ErrorKind::ZoneId, 7)
        );
        assert_eq!(parse_ipv6("1:2").unwrap_err().0, ErrorKind::InvalidIpv6);
        assert_eq!(
            parse_ipv6("::ffff:1.2.3.4").unwrap(),
            "::ffff:1.2.3.4".parse::<Ipv6Addr>().unwrap()
        );
    }
}
