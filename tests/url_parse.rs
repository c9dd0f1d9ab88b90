//! Table tests for `Url::parse`: one named test per row.

use std::net::{Ipv4Addr, Ipv6Addr};

use httptool::url::{ErrorKind, Host, Url};

/// `ok!(name, input, normalized)` and `err!(name, input, kind)` rows.
macro_rules! ok {
    ($($name:ident: $input:expr => $want:expr;)*) => {$(
        #[test]
        fn $name() {
            let url = Url::parse($input).unwrap_or_else(|e| panic!("{:?}: {e}", $input));
            assert_eq!(url.as_str(), $want);
            // The serialization is a fixed point.
            assert_eq!(Url::parse(url.as_str()).unwrap(), url);
        }
    )*};
}

macro_rules! err {
    ($($name:ident: $input:expr => $kind:expr;)*) => {$(
        #[test]
        fn $name() {
            match Url::parse($input) {
                Ok(url) => panic!("{:?} parsed as {url}", $input),
                Err(e) => assert_eq!(e.kind(), $kind, "{:?}: {e}", $input),
            }
        }
    )*};
}

ok! {
    plain_http: "http://example.com" => "http://example.com/";
    plain_https: "https://example.com/a/b?c=d" => "https://example.com/a/b?c=d";
    scheme_and_host_lowercased: "HTTPS://API.Example.COM/Path" => "https://api.example.com/Path";
    default_port_dropped: "http://example.com:80/" => "http://example.com/";
    https_default_port_dropped: "https://example.com:443/" => "https://example.com/";
    other_port_kept: "http://example.com:8080/x" => "http://example.com:8080/x";
    port_leading_zeros: "http://example.com:008080/" => "http://example.com:8080/";
    empty_port_is_default: "http://example.com:/x" => "http://example.com/x";
    highest_port: "http://example.com:65535/" => "http://example.com:65535/";
    fragment_dropped: "http://example.com/a#frag" => "http://example.com/a";
    fragment_after_query_dropped: "http://example.com/a?b=c#frag?x" => "http://example.com/a?b=c";
    empty_query_kept: "http://example.com/a?" => "http://example.com/a?";
    query_only: "http://example.com?x=1" => "http://example.com/?x=1";
    dot_segments_removed: "http://h/a/./b/../c" => "http://h/a/c";
    encoded_dot_segments_removed: "http://h/a/%2e%2E/b" => "http://h/b";
    dot_segments_above_root: "http://h/../../x" => "http://h/x";
    dots_in_query_kept: "http://h/a?p=../../x" => "http://h/a?p=../../x";
    non_ascii_path_encoded: "http://h/caf\u{e9}" => "http://h/caf%C3%A9";
    non_ascii_query_encoded: "http://h/?q=\u{6e29}" => "http://h/?q=%E6%B8%A9";
    unsafe_ascii_encoded: "http://h/a\"<>^`{|}" => "http://h/a%22%3C%3E%5E%60%7B%7C%7D";
    brackets_in_path_encoded: "http://h/[x]" => "http://h/%5Bx%5D";
    valid_escapes_kept: "http://h/a%2Fb?x=%26" => "http://h/a%2Fb?x=%26";
    sub_delims_kept: "http://h/a;b=c,d!$'()*+:@?x=/?" => "http://h/a;b=c,d!$'()*+:@?x=/?";
    at_sign_in_path_is_not_userinfo: "http://h/@evil.com" => "http://h/@evil.com";
    trailing_dot_host: "http://example.com./" => "http://example.com./";
    underscore_host: "http://my_host.internal/" => "http://my_host.internal/";
    digits_in_labels: "http://1a.example/" => "http://1a.example/";
    ipv4: "http://192.168.0.1:8080/" => "http://192.168.0.1:8080/";
    legacy_short_ipv4: "http://127.1/" => "http://127.0.0.1/";
    legacy_three_part_ipv4: "http://10.1.2/" => "http://10.1.0.2/";
    legacy_hex_ipv4: "http://0x7f.0.0.1/" => "http://127.0.0.1/";
    legacy_hex_whole_ipv4: "http://0x7F000001/" => "http://127.0.0.1/";
    legacy_octal_ipv4: "http://0177.0.0.1/" => "http://127.0.0.1/";
    legacy_decimal_ipv4: "http://2130706433/" => "http://127.0.0.1/";
    legacy_metadata_decimal: "http://2852039166/latest" => "http://169.254.169.254/latest";
    ipv4_trailing_dot: "http://127.0.0.1./" => "http://127.0.0.1/";
    ipv6_loopback: "http://[::1]:8080/" => "http://[::1]:8080/";
    ipv6_normalized: "http://[0:0:0:0:0:0:0:1]/" => "http://[::1]/";
    ipv6_uppercase: "http://[FE80::A]/" => "http://[fe80::a]/";
    ipv6_mapped_ipv4: "http://[::ffff:127.0.0.1]/" => "http://[::ffff:127.0.0.1]/";
}

err! {
    empty: "" => ErrorKind::Empty;
    relative: "/a/b" => ErrorKind::MissingScheme;
    host_only: "example.com/a" => ErrorKind::MissingScheme;
    ftp: "ftp://example.com/" => ErrorKind::UnsupportedScheme;
    javascript: "javascript:alert(1)" => ErrorKind::UnsupportedScheme;
    file: "file:///etc/passwd" => ErrorKind::UnsupportedScheme;
    no_slashes: "http:example.com" => ErrorKind::MissingHost;
    one_slash: "http:/example.com" => ErrorKind::MissingHost;
    empty_host: "http:///a" => ErrorKind::MissingHost;
    empty_host_with_port: "http://:80/" => ErrorKind::MissingHost;
    userinfo: "http://user:pass@example.com/" => ErrorKind::Userinfo;
    userinfo_user_only: "http://user@example.com/" => ErrorKind::Userinfo;
    userinfo_empty: "http://@example.com/" => ErrorKind::Userinfo;
    userinfo_confusion: "http://example.com@evil.com/" => ErrorKind::Userinfo;
    backslash_in_authority: "http://evil.com\\@example.com/" => ErrorKind::Backslash;
    backslash_in_path: "http://h/a\\b" => ErrorKind::Backslash;
    backslash_after_scheme: "http:\\\\h/" => ErrorKind::Backslash;
    space_in_path: "http://h/a b" => ErrorKind::Whitespace;
    leading_space: " http://h/" => ErrorKind::Whitespace;
    trailing_newline: "http://h/\n" => ErrorKind::Whitespace;
    tab_in_host: "http://h\tx/" => ErrorKind::Whitespace;
    crlf_in_query: "http://h/?a=1\r\nX-Injected: 1" => ErrorKind::Whitespace;
    no_break_space: "http://h/\u{a0}" => ErrorKind::Whitespace;
    nul: "http://h/\u{0}" => ErrorKind::ControlCharacter;
    delete_char: "http://h/\u{7f}" => ErrorKind::ControlCharacter;
    c1_control: "http://h/\u{85}x" => ErrorKind::Whitespace;
    c1_control_other: "http://h/\u{9b}x" => ErrorKind::ControlCharacter;
    escape_char: "http://h/\u{1b}" => ErrorKind::ControlCharacter;
    percent_in_host: "http://exa%6Dple.com/" => ErrorKind::PercentInHost;
    percent_dot_in_host: "http://127%2e0.0.1/" => ErrorKind::PercentInHost;
    non_ascii_host: "http://ex\u{e4}mple.com/" => ErrorKind::NonAsciiHost;
    fullwidth_dot_host: "http://a\u{ff0e}b/" => ErrorKind::NonAsciiHost;
    invalid_host_char: "http://a!b.com/" => ErrorKind::InvalidHost;
    host_with_star: "http://*.example.com/" => ErrorKind::InvalidHost;
    empty_label: "http://a..b/" => ErrorKind::InvalidHost;
    leading_dot: "http://.a/" => ErrorKind::InvalidHost;
    host_ending_in_number_not_ip: "http://foo.123/" => ErrorKind::InvalidIpv4;
    ipv4_octet_too_big: "http://1.2.3.256/" => ErrorKind::InvalidIpv4;
    ipv4_too_many_parts: "http://1.2.3.4.5/" => ErrorKind::InvalidIpv4;
    ipv4_decimal_too_big: "http://4294967296/" => ErrorKind::InvalidIpv4;
    ipv4_bad_octal: "http://09.0.0.1/" => ErrorKind::InvalidIpv4;
    ipv6_without_brackets: "http://::1/" => ErrorKind::MissingHost;
    ipv6_unclosed: "http://[::1/" => ErrorKind::InvalidIpv6;
    ipv6_invalid: "http://[::g]/" => ErrorKind::InvalidIpv6;
    ipv6_ipv4_only: "http://[127.0.0.1]/" => ErrorKind::InvalidIpv6;
    ipv6_zone_id: "http://[fe80::1%25eth0]/" => ErrorKind::ZoneId;
    ipv6_raw_zone_id: "http://[fe80::1%eth0]/" => ErrorKind::ZoneId;
    ipv6_junk_after_bracket: "http://[::1]x/" => ErrorKind::InvalidHost;
    port_not_number: "http://h:8o/" => ErrorKind::InvalidPort;
    port_negative: "http://h:-1/" => ErrorKind::InvalidPort;
    port_two_colons: "http://h:80:80/" => ErrorKind::InvalidPort;
    port_too_big: "http://h:65536/" => ErrorKind::PortOutOfRange;
    port_huge: "http://h:99999999999999999999/" => ErrorKind::PortOutOfRange;
    port_zero: "http://h:0/" => ErrorKind::PortOutOfRange;
    ipv6_port_too_big: "http://[::1]:70000/" => ErrorKind::PortOutOfRange;
    bad_escape_in_path: "http://h/100%" => ErrorKind::InvalidPercentEncoding;
    bad_escape_in_query: "http://h/?q=%zz" => ErrorKind::InvalidPercentEncoding;
}

#[test]
fn error_offset_points_at_the_problem() {
    let err = Url::parse("http://h/a b").unwrap_err();
    assert_eq!(err.offset(), 10);
    let err = Url::parse("http://u@h/").unwrap_err();
    assert_eq!(err.offset(), 8);
    let err = Url::parse("http://h:99999/").unwrap_err();
    assert_eq!(err.offset(), 9);
}

#[test]
fn error_message_never_repeats_the_input() {
    let err = Url::parse("http://h/?api_key=s3cret value").unwrap_err();
    let msg = err.to_string();
    assert_eq!(
        msg,
        "invalid url: whitespace is not accepted in a url: percent-encode it (at byte 24)"
    );
    assert!(!msg.contains("s3cret"));
}

#[test]
fn every_error_kind_has_its_message() {
    let cases = [
        ("", "the url is empty"),
        (
            "x",
            "no scheme: expected an absolute url starting with http:// or https://",
        ),
        (
            "ftp://h",
            "unsupported scheme: only http and https are accepted",
        ),
        (
            "http:h",
            "no host: expected '//' and a host name after the scheme",
        ),
        (
            "http://u@h",
            "user name or password before the host is not accepted: put credentials in headers",
        ),
        ("http://h\\", "a backslash is not accepted in a url"),
        (
            "http://h/\u{1}",
            "a control character is not accepted in a url",
        ),
        ("http://a!", "invalid host name"),
        (
            "http://\u{e9}",
            "non-ascii host name: give internationalized names in their ascii (xn--) form",
        ),
        ("http://%41", "'%' is not accepted in a host name"),
        (
            "http://a.1",
            "the host ends in a number but is not a valid ipv4 address",
        ),
        ("http://[x]", "invalid ipv6 address between brackets"),
        ("http://[::1%1]", "ipv6 zone identifiers are not accepted"),
        ("http://h:x", "the port is not a number"),
        ("http://h:0", "the port must be between 1 and 65535"),
        (
            "http://h/%",
            "'%' must be followed by two hexadecimal digits",
        ),
    ];
    for (input, reason) in cases {
        let msg = Url::parse(input).unwrap_err().to_string();
        assert!(
            msg.starts_with(&format!("invalid url: {reason} (at byte ")),
            "{input:?}: {msg}"
        );
    }
}

#[test]
fn parts_are_exposed() {
    let url = Url::parse("https://API.example.com:8443/v1/items?id=7&x").unwrap();
    assert_eq!(url.scheme().as_str(), "https");
    assert_eq!(url.host(), Host::Domain("api.example.com"));
    assert_eq!(url.host_str(), "api.example.com");
    assert_eq!(url.port(), Some(8443));
    assert_eq!(url.port_or_default(), 8443);
    assert_eq!(url.authority(), "api.example.com:8443");
    assert_eq!(url.path(), "/v1/items");
    assert_eq!(url.query(), Some("id=7&x"));
    assert_eq!(url.path_and_query(), "/v1/items?id=7&x");
    assert_eq!(url.without_query(), "https://api.example.com:8443/v1/items");
}

#[test]
fn default_port_and_no_query() {
    let url = Url::parse("http://h").unwrap();
    assert_eq!(url.port(), None);
    assert_eq!(url.port_or_default(), 80);
    assert_eq!(url.authority(), "h");
    assert_eq!(url.query(), None);
    assert_eq!(url.without_query(), "http://h/");
    assert_eq!(Url::parse("https://h").unwrap().port_or_default(), 443);
}

#[test]
fn address_hosts() {
    let url = Url::parse("http://0x7f.1/").unwrap();
    assert_eq!(url.host(), Host::Ipv4(Ipv4Addr::LOCALHOST));
    assert_eq!(url.host().ip(), Some(Ipv4Addr::LOCALHOST.into()));
    let url = Url::parse("http://[::1]:81/").unwrap();
    assert_eq!(url.host(), Host::Ipv6(Ipv6Addr::LOCALHOST));
    assert_eq!(url.host_str(), "[::1]");
    assert_eq!(url.authority(), "[::1]:81");
    assert_eq!(Host::Domain("x").ip(), None);
}

#[test]
fn same_origin_compares_scheme_host_and_port() {
    let a = Url::parse("http://h/a").unwrap();
    assert!(a.same_origin(&Url::parse("http://H:80/b?c").unwrap()));
    assert!(!a.same_origin(&Url::parse("https://h/a").unwrap()));
    assert!(!a.same_origin(&Url::parse("http://h:81/a").unwrap()));
    assert!(!a.same_origin(&Url::parse("http://g/a").unwrap()));
}

#[test]
fn set_path_encodes_and_keeps_query() {
    let mut url = Url::parse("http://h/old?k=v").unwrap();
    url.set_path("new/a?b#c").unwrap();
    assert_eq!(url.as_str(), "http://h/new/a%3Fb%23c?k=v");
    url.set_path("").unwrap();
    assert_eq!(url.as_str(), "http://h/?k=v");
    url.set_path("/x/../y").unwrap();
    assert_eq!(url.path(), "/y");
    assert_eq!(
        url.set_path("/a b").unwrap_err().kind(),
        ErrorKind::Whitespace
    );
    assert_eq!(
        url.set_path("/a%").unwrap_err().kind(),
        ErrorKind::InvalidPercentEncoding
    );
    assert_eq!(url.as_str(), "http://h/y?k=v");
}

#[test]
fn long_inputs_do_not_panic() {
    let long_host = format!("http://{}/", "a.".repeat(200));
    assert_eq!(
        Url::parse(&long_host).unwrap_err().kind(),
        ErrorKind::InvalidHost
    );
    let long_path = format!("http://h/{}", "%41".repeat(10_000));
    assert_eq!(Url::parse(&long_path).unwrap().path().len(), 30_001);
    let many_dots = format!("http://h/{}", "../".repeat(10_000));
    assert_eq!(Url::parse(&many_dots).unwrap().path(), "/");
}
