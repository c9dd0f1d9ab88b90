//! The address policy: which hosts a request may reach, and which addresses it may connect to.
//!
//! Pure code: classification of addresses into the IANA special-purpose ranges (IPv4 and IPv6
//! Special-Purpose Address Registries, RFC 6890 and successors) and matching of host names.
//! The client applies it to the address it resolved once and then connects to.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use crate::url::{Host, Url};

/// Why an address is not a public, globally reachable one.
///
/// `#[non_exhaustive]`: the IANA special-purpose registries grow, and so will this list.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AddressClass {
    /// `0.0.0.0/8`, `::`: "this host on this network".
    Unspecified,
    /// `127.0.0.0/8`, `::1`.
    Loopback,
    /// `10/8`, `172.16/12`, `192.168/16` (RFC 1918), `fc00::/7` (unique local),
    /// `fec0::/10` (deprecated site-local).
    Private,
    /// `169.254/16`, `fe80::/10`.
    LinkLocal,
    /// `100.64.0.0/10`, shared by carrier-grade NAT (RFC 6598).
    SharedAddressSpace,
    /// A cloud instance metadata service (`169.254.169.254`, `169.254.170.2`,
    /// `100.100.100.200`, `168.63.129.16`, `fd00:ec2::254`).
    Metadata,
    /// `224.0.0.0/4`, `ff00::/8`.
    Multicast,
    /// `255.255.255.255`.
    Broadcast,
    /// Documentation ranges: `192.0.2/24`, `198.51.100/24`, `203.0.113/24`, `2001:db8::/32`,
    /// `3fff::/20`.
    Documentation,
    /// `198.18.0.0/15` (RFC 2544).
    Benchmarking,
    /// Every other special-purpose or unallocated range: `192.0.0/24`, AS112, `240/4`,
    /// `2001::/23` protocol assignments, `64:ff9b:1::/48`, `100::/64`, and IPv6 outside
    /// `2000::/3`.
    Reserved,
}

impl AddressClass {
    /// The class of `ip`, or `None` for a public address.
    ///
    /// IPv6 forms that carry an IPv4 address (mapped `::ffff:a.b.c.d`, compatible `::a.b.c.d`,
    /// NAT64 `64:ff9b::/96`, 6to4 `2002::/16`, Teredo `2001::/32`) are judged by the IPv4
    /// address inside them, so `::ffff:127.0.0.1` is [`Loopback`](AddressClass::Loopback).
    ///
    /// ```
    /// use httptool::http::AddressClass;
    /// assert_eq!(AddressClass::of("10.1.2.3".parse().unwrap()), Some(AddressClass::Private));
    /// assert_eq!(AddressClass::of("64:ff9b::a9fe:a9fe".parse().unwrap()), Some(AddressClass::Metadata));
    /// assert_eq!(AddressClass::of("93.184.216.34".parse().unwrap()), None);
    /// ```
    pub fn of(ip: IpAddr) -> Option<AddressClass> {
        match ip {
            IpAddr::V4(a) => classify_v4(a),
            IpAddr::V6(a) => classify_v6(a),
        }
    }

    pub(crate) fn describe(self) -> &'static str {
        match self {
            AddressClass::Unspecified => "an unspecified address",
            AddressClass::Loopback => "a loopback address",
            AddressClass::Private => "a private address",
            AddressClass::LinkLocal => "a link-local address",
            AddressClass::SharedAddressSpace => "a carrier-grade nat address",
            AddressClass::Metadata => "a cloud metadata address",
            AddressClass::Multicast => "a multicast address",
            AddressClass::Broadcast => "the broadcast address",
            AddressClass::Documentation => "a documentation address",
            AddressClass::Benchmarking => "a benchmarking address",
            AddressClass::Reserved => "a reserved address",
        }
    }
}

impl fmt::Display for AddressClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

const METADATA_V4: [Ipv4Addr; 4] = [
    Ipv4Addr::new(169, 254, 169, 254), // AWS, GCP, Azure, OCI, ...
    Ipv4Addr::new(169, 254, 170, 2),   // AWS ECS task metadata
    Ipv4Addr::new(100, 100, 100, 200), // Alibaba Cloud
    Ipv4Addr::new(168, 63, 129, 16),   // Azure wire server (a public address)
];

const METADATA_V6: [Ipv6Addr; 1] = [Ipv6Addr::new(0xfd00, 0x0ec2, 0, 0, 0, 0, 0, 0x0254)];

/// IANA IPv4 Special-Purpose Address Registry, plus multicast and the metadata services.
fn classify_v4(a: Ipv4Addr) -> Option<AddressClass> {
    use AddressClass::*;
    if METADATA_V4.contains(&a) {
        return Some(Metadata);
    }
    let class = match a.octets() {
        [0, ..] => Unspecified,
        [10, ..] => Private,
        [100, b, ..] if b & 0xc0 == 64 => SharedAddressSpace,
        [127, ..] => Loopback,
        [169, 254, ..] => LinkLocal,
        [172, b, ..] if b & 0xf0 == 16 => Private,
        [192, 0, 0, _] => Reserved,
        [192, 0, 2, _] | [198, 51, 100, _] | [203, 0, 113, _] => Documentation,
        [192, 31, 196, _] | [192, 52, 193, _] | [192, 88, 99, _] | [192, 175, 48, _] => Reserved,
        [192, 168, ..] => Private,
        [198, b, ..] if b & 0xfe == 18 => Benchmarking,
        [255, 255, 255, 255] => Broadcast,
        [a, ..] if a >= 240 => Reserved,
        [a, ..] if a >= 224 => Multicast,
        _ => return None,
    };
    Some(class)
}

fn v4_from(hi: u16, lo: u16) -> Ipv4Addr {
    let [a, b] = hi.to_be_bytes();
    let [c, d] = lo.to_be_bytes();
    Ipv4Addr::new(a, b, c, d)
}

/// IANA IPv6 Special-Purpose Address Registry. Only `2000::/3` is global unicast; forms that
/// embed an IPv4 address are judged by it.
fn classify_v6(a: Ipv6Addr) -> Option<AddressClass> {
    use AddressClass::*;
    if a.is_unspecified() {
        return Some(Unspecified);
    }
    if a.is_loopback() {
        return Some(Loopback);
    }
    if METADATA_V6.contains(&a) {
        return Some(Metadata);
    }
    let s = a.segments();
    match s {
        // ::ffff:0:0/96 mapped, ::/96 compatible (RFC 4291 section 2.5.5), ::ffff:0:0:0/96
        // translated (RFC 2765), 64:ff9b::/96 NAT64 (RFC 6052).
        [0, 0, 0, 0, 0, 0xffff, hi, lo]
        | [0, 0, 0, 0, 0, 0, hi, lo]
        | [0, 0, 0, 0, 0xffff, 0, hi, lo]
        | [0x64, 0xff9b, 0, 0, 0, 0, hi, lo] => classify_v4(v4_from(hi, lo)),
        // 6to4 (RFC 3056): the IPv4 address follows the 2002 prefix.
        [0x2002, hi, lo, ..] => classify_v4(v4_from(hi, lo)),
        // Teredo (RFC 4380): the server's address, and the client's, stored inverted.
        [0x2001, 0, shi, slo, _, _, chi, clo] => {
            classify_v4(v4_from(shi, slo)).or_else(|| classify_v4(v4_from(!chi, !clo)))
        }
        [0x64, 0xff9b, 1, ..] => Some(Reserved),
        [0x2001, 0x0db8, ..] => Some(Documentation),
        [0x3fff, x, ..] if x & 0xf000 == 0 => Some(Documentation),
        [0x2001, x, ..] if x < 0x0200 => Some(Reserved),
        [0x2620, 0x004f, 0x8000, ..] => Some(Reserved),
        [x, ..] if x & 0xfe00 == 0xfc00 => Some(Private),
        [x, ..] if x & 0xffc0 == 0xfe80 => Some(LinkLocal),
        [x, ..] if x & 0xffc0 == 0xfec0 => Some(Private),
        [x, ..] if x & 0xff00 == 0xff00 => Some(Multicast),
        [x, ..] if x & 0xe000 == 0x2000 => None,
        _ => Some(Reserved),
    }
}

/// One entry of a host allowlist.
#[derive(Clone, Debug, PartialEq, Eq)]
enum HostRule {
    /// Exactly this name.
    Name(String),
    /// This name and every name under it.
    Domain(String),
    /// This address, for hosts written as addresses.
    Ip(IpAddr),
}

/// Lower-case, without a trailing dot, so `Example.com.` and `example.com` compare equal.
fn normalize_name(name: &str) -> String {
    name.trim_end_matches('.').to_ascii_lowercase()
}

/// Which hosts a request may reach and which addresses it may connect to.
///
/// The default, [`AddressPolicy::allow_all`], checks nothing. [`AddressPolicy::strict`]
/// refuses every address that is not public (see [`AddressClass`]); hosts added with
/// [`allow_host`](AddressPolicy::allow_host) or [`allow_domain`](AddressPolicy::allow_domain)
/// form an allowlist that every request and every redirect must match.
///
/// # Security
///
/// The client resolves a host name once, drops the addresses the policy refuses, and connects
/// to one of the others, so a DNS answer cannot change between the check and the connection.
/// A pooled connection is checked again before it is reused. Through a proxy the client
/// cannot see addresses, so the strict policy then requires a host allowlist (an error
/// otherwise).
///
/// # Examples
///
/// ```
/// use httptool::http::AddressPolicy;
/// let policy = AddressPolicy::strict().allow_domain("example.com");
/// assert!(policy.host_allowed(&"https://api.example.com/".parse()?));
/// assert!(!policy.host_allowed(&"https://example.org/".parse()?));
/// assert!(policy.check_ip("10.0.0.1".parse().unwrap()).is_err());
/// # Ok::<(), httptool::url::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AddressPolicy {
    hosts: Vec<HostRule>,
    refuse_special: bool,
    exempt: Vec<(IpAddr, u8)>,
}

impl AddressPolicy {
    /// No checks: any host, any address. The default.
    pub fn allow_all() -> AddressPolicy {
        AddressPolicy::default()
    }

    /// Refuses loopback, private, link-local, carrier-grade NAT, metadata and every other
    /// special-purpose address, IPv4 and IPv6, and IPv6 forms that embed one.
    pub fn strict() -> AddressPolicy {
        AddressPolicy {
            refuse_special: true,
            ..AddressPolicy::default()
        }
    }

    /// Adds exactly `host` (a name, or an address, IPv6 with or without brackets) to the host
    /// allowlist. Once the list has an entry, hosts not on it are refused.
    #[must_use]
    pub fn allow_host(mut self, host: &str) -> AddressPolicy {
        let bare = host.trim_start_matches('[').trim_end_matches(']');
        let rule = match bare.parse::<IpAddr>() {
            Ok(ip) => HostRule::Ip(ip),
            Err(_) => HostRule::Name(normalize_name(host)),
        };
        self.hosts.push(rule);
        self
    }

    /// Adds `domain` and every name under it (`api.example.com` for `example.com`) to the host
    /// allowlist.
    #[must_use]
    pub fn allow_domain(mut self, domain: &str) -> AddressPolicy {
        let name = normalize_name(domain.trim_start_matches('.'));
        self.hosts.push(HostRule::Domain(name));
        self
    }

    /// Exempts the network `ip/prefix_len` from the refusal of special-purpose addresses (an
    /// internal service the application trusts, or a test server on loopback). A prefix
    /// longer than the address is read as the full length.
    #[must_use]
    pub fn exempt_network(mut self, ip: IpAddr, prefix_len: u8) -> AddressPolicy {
        let max = if ip.is_ipv4() { 32 } else { 128 };
        self.exempt.push((ip, prefix_len.min(max)));
        self
    }

    /// Whether special-purpose addresses are refused.
    pub fn is_strict(&self) -> bool {
        self.refuse_special
    }

    /// Whether the policy has a host allowlist.
    pub fn has_host_allowlist(&self) -> bool {
        !self.hosts.is_empty()
    }

    /// Whether the host of `url` may be reached: always, without an allowlist.
    pub fn host_allowed(&self, url: &Url) -> bool {
        if self.hosts.is_empty() {
            return true;
        }
        let host = url.host();
        // Loops here and in `check_ip`, not closures given to `any`: each compiled its own
        // copy of the iterator code (build cost, see `design::performance`).
        for rule in &self.hosts {
            if rule_matches(rule, host) {
                return true;
            }
        }
        false
    }

    /// Checks one address.
    ///
    /// # Errors
    ///
    /// The class of an address the policy refuses.
    pub fn check_ip(&self, ip: IpAddr) -> Result<(), AddressClass> {
        if !self.refuse_special {
            return Ok(());
        }
        let ip = canonical(ip);
        let class = match AddressClass::of(ip) {
            Some(class) => class,
            None => return Ok(()),
        };
        for &(net, len) in &self.exempt {
            if in_network(ip, net, len) {
                return Ok(());
            }
        }
        Err(class)
    }
}

fn rule_matches(rule: &HostRule, host: Host<'_>) -> bool {
    match (rule, host) {
        (HostRule::Name(name), Host::Domain(d)) => d.trim_end_matches('.') == name,
        (HostRule::Domain(domain), Host::Domain(d)) => in_domain(d, domain),
        (HostRule::Ip(ip), host) => host.ip().map(canonical) == Some(canonical(*ip)),
        _ => false,
    }
}

/// Whether the host name `name` (a trailing dot ignored) is `domain` or a name under it: the
/// one rule for a domain in an allowlist and in `no_proxy`.
pub(crate) fn in_domain(name: &str, domain: &str) -> bool {
    let name = name.trim_end_matches('.');
    name == domain
        || (name.len() > domain.len()
            && name.ends_with(domain)
            && name.as_bytes().get(name.len() - domain.len() - 1) == Some(&b'.'))
}

/// An IPv4-mapped IPv6 address is the IPv4 address, for exemptions and allowlists.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => match v6.segments() {
            [0, 0, 0, 0, 0, 0xffff, hi, lo] => IpAddr::V4(v4_from(hi, lo)),
            _ => ip,
        },
        v4 => v4,
    }
}

pub(crate) fn in_network(ip: IpAddr, net: IpAddr, len: u8) -> bool {
    match (ip, net) {
        (IpAddr::V4(a), IpAddr::V4(n)) => {
            let mask = u32::MAX.checked_shl(32 - u32::from(len)).unwrap_or(0);
            u32::from(a) & mask == u32::from(n) & mask
        }
        (IpAddr::V6(a), IpAddr::V6(n)) => {
            let mask = u128::MAX.checked_shl(128 - u32::from(len)).unwrap_or(0);
            u128::from(a) & mask == u128::from(n) & mask
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::AddressClass::*;
    use super::*;

    fn class(s: &str) -> Option<AddressClass> {
        AddressClass::of(s.parse().unwrap())
    }

    #[test]
    fn ipv4_ranges() {
        let cases = [
            ("0.0.0.0", Some(Unspecified)),
            ("0.1.2.3", Some(Unspecified)),
            ("10.0.0.1", Some(Private)),
            ("100.63.255.255", None),
            ("100.64.0.1", Some(SharedAddressSpace)),
            ("100.127.255.255", Some(SharedAddressSpace)),
            ("100.128.0.0", None),
            ("100.100.100.200", Some(Metadata)),
            ("127.0.0.1", Some(Loopback)),
            ("127.255.0.9", Some(Loopback)),
            ("169.254.0.1", Some(LinkLocal)),
            ("169.254.169.254", Some(Metadata)),
            ("169.254.170.2", Some(Metadata)),
            ("168.63.129.16", Some(Metadata)),
            ("172.15.255.255", None),
            ("172.16.0.1", Some(Private)),
            ("172.31.255.255", Some(Private)),
            ("172.32.0.0", None),
            ("192.0.0.8", Some(Reserved)),
            ("192.0.2.1", Some(Documentation)),
            ("192.31.196.1", Some(Reserved)),
            ("192.52.193.1", Some(Reserved)),
            ("192.88.99.1", Some(Reserved)),
            ("192.168.1.1", Some(Private)),
            ("192.175.48.1", Some(Reserved)),
            ("198.17.255.255", None),
            ("198.18.0.1", Some(Benchmarking)),
            ("198.19.255.255", Some(Benchmarking)),
            ("198.20.0.0", None),
            ("198.51.100.7", Some(Documentation)),
            ("203.0.113.9", Some(Documentation)),
            ("224.0.0.1", Some(Multicast)),
            ("239.255.255.255", Some(Multicast)),
            ("240.0.0.1", Some(Reserved)),
            ("255.255.255.255", Some(Broadcast)),
            ("8.8.8.8", None),
            ("93.184.216.34", None),
        ];
        for (ip, want) in cases {
            assert_eq!(class(ip), want, "{ip}");
        }
    }

    #[test]
    fn ipv6_ranges() {
        let cases = [
            ("::", Some(Unspecified)),
            ("::1", Some(Loopback)),
            ("::ffff:127.0.0.1", Some(Loopback)),
            ("::ffff:10.0.0.1", Some(Private)),
            ("::ffff:8.8.8.8", None),
            ("::127.0.0.1", Some(Loopback)),
            ("::8.8.8.8", None),
            ("::ffff:0:a9fe:a9fe", Some(Metadata)),
            ("64:ff9b::127.0.0.1", Some(Loopback)),
            ("64:ff9b::169.254.169.254", Some(Metadata)),
            ("64:ff9b::8.8.8.8", None),
            ("64:ff9b:1::1", Some(Reserved)),
            ("100::1", Some(Reserved)),
            ("2002:7f00:1::", Some(Loopback)),
            ("2002:a9fe:a9fe::1", Some(Metadata)),
            ("2002:808:808::1", None),
            // Teredo: server 65.54.227.120, client 127.0.0.1 stored inverted (80ff:fffe).
            ("2001:0:4136:e378:8000:63bf:80ff:fffe", Some(Loopback)),
            // Teredo: server 10.0.0.1.
            ("2001:0:a00:1:8000:63bf:3fff:fdd2", Some(Private)),
            // Teredo: server 65.54.227.120, client 192.0.2.45 is documentation.
            ("2001:0:4136:e378:8000:63bf:3fff:fdd2", Some(Documentation)),
            // Teredo: server 65.54.227.120, client 8.8.8.8 (f7f7:f7f7).
            ("2001:0:4136:e378:8000:63bf:f7f7:f7f7", None),
            ("2001:2::1", Some(Reserved)),
            ("2001:1ff::1", Some(Reserved)),
            ("2001:200::1", None),
            ("2001:db8::1", Some(Documentation)),
            ("3fff::1", Some(Documentation)),
            ("3fff:fff::1", Some(Documentation)),
            ("3fff:1000::1", None),
            ("2620:4f:8000::1", Some(Reserved)),
            ("fc00::1", Some(Private)),
            ("fd12:3456::1", Some(Private)),
            ("fd00:ec2::254", Some(Metadata)),
            ("fe80::1", Some(LinkLocal)),
            ("febf::1", Some(LinkLocal)),
            ("fec0::1", Some(Private)),
            ("ff02::1", Some(Multicast)),
            ("5f00::1", Some(Reserved)),
            ("4000::1", Some(Reserved)),
            ("1000::1", Some(Reserved)),
            ("2606:4700::1111", None),
            ("2a00:1450::1", None),
        ];
        for (ip, want) in cases {
            assert_eq!(class(ip), want, "{ip}");
        }
    }

    #[test]
    fn strict_policy_with_exemption() {
        let p = AddressPolicy::strict().exempt_network("127.0.0.1".parse().unwrap(), 32);
        assert_eq!(p.check_ip("127.0.0.1".parse().unwrap()), Ok(()));
        assert_eq!(p.check_ip("::ffff:127.0.0.1".parse().unwrap()), Ok(()));
        assert_eq!(p.check_ip("127.0.0.2".parse().unwrap()), Err(Loopback));
        assert_eq!(p.check_ip("8.8.8.8".parse().unwrap()), Ok(()));
        let p = AddressPolicy::strict().exempt_network("10.0.0.0".parse().unwrap(), 8);
        assert_eq!(p.check_ip("10.9.9.9".parse().unwrap()), Ok(()));
        assert_eq!(p.check_ip("11.0.0.0".parse().unwrap()), Ok(()));
        assert_eq!(p.check_ip("192.168.0.1".parse().unwrap()), Err(Private));
        assert_eq!(
            AddressPolicy::allow_all().check_ip("127.0.0.1".parse().unwrap()),
            Ok(())
        );
    }

    #[test]
    fn networks() {
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        assert!(in_network(ip("10.1.2.3"), ip("10.0.0.0"), 8));
        assert!(!in_network(ip("11.1.2.3"), ip("10.0.0.0"), 8));
        assert!(in_network(ip("1.2.3.4"), ip("9.9.9.9"), 0));
        assert!(in_network(ip("fd00::5"), ip("fd00::"), 16));
        assert!(!in_network(ip("fd01::5"), ip("fd00::"), 16));
        assert!(!in_network(ip("::1"), ip("127.0.0.1"), 8));
    }

    #[test]
    fn host_allowlist() {
        let url = |s: &str| Url::parse(s).unwrap();
        let p = AddressPolicy::allow_all()
            .allow_host("API.example.com.")
            .allow_domain(".corp.example")
            .allow_host("[::1]")
            .allow_host("127.0.0.1");
        assert!(p.host_allowed(&url("http://api.example.com/")));
        assert!(p.host_allowed(&url("http://api.example.com./")));
        assert!(!p.host_allowed(&url("http://www.api.example.com/")));
        assert!(!p.host_allowed(&url("http://example.com/")));
        assert!(p.host_allowed(&url("http://corp.example/")));
        assert!(p.host_allowed(&url("http://a.b.corp.example/")));
        assert!(!p.host_allowed(&url("http://evilcorp.example/")));
        assert!(p.host_allowed(&url("http://[::1]:8080/")));
        assert!(p.host_allowed(&url("http://127.1/")));
        assert!(!p.host_allowed(&url("http://127.0.0.2/")));
        assert!(AddressPolicy::allow_all().host_allowed(&url("http://anything/")));
    }
}
