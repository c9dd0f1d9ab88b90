//! RFC 3986 section 5.4 reference resolution examples, one named test per row, against the
//! base `http://a/b/c/d;p?q`. Expected values are the RFC's, normalized the way `Url` prints
//! (an empty path becomes `/`); the rows where this crate differs say so.

use httptool::url::{ErrorKind, Url};

const BASE: &str = "http://a/b/c/d;p?q";

macro_rules! resolves {
    ($($name:ident: $reference:expr => $want:expr;)*) => {$(
        #[test]
        fn $name() {
            let base = Url::parse(BASE).unwrap();
            let got = base.join($reference).unwrap_or_else(|e| panic!("{:?}: {e}", $reference));
            assert_eq!(got.as_str(), $want);
        }
    )*};
}

// Section 5.4.1, normal examples.
resolves! {
    normal_g: "g" => "http://a/b/c/g";
    normal_dot_g: "./g" => "http://a/b/c/g";
    normal_g_slash: "g/" => "http://a/b/c/g/";
    normal_absolute_path: "/g" => "http://a/g";
    normal_network_path: "//g" => "http://g/";
    normal_query: "?y" => "http://a/b/c/d;p?y";
    normal_g_query: "g?y" => "http://a/b/c/g?y";
    normal_fragment: "#s" => "http://a/b/c/d;p?q";
    normal_g_fragment: "g#s" => "http://a/b/c/g";
    normal_g_query_fragment: "g?y#s" => "http://a/b/c/g?y";
    normal_semicolon: ";x" => "http://a/b/c/;x";
    normal_g_semicolon: "g;x" => "http://a/b/c/g;x";
    normal_g_semicolon_query_fragment: "g;x?y#s" => "http://a/b/c/g;x?y";
    normal_empty: "" => "http://a/b/c/d;p?q";
    normal_dot: "." => "http://a/b/c/";
    normal_dot_slash: "./" => "http://a/b/c/";
    normal_dot_dot: ".." => "http://a/b/";
    normal_dot_dot_slash: "../" => "http://a/b/";
    normal_dot_dot_g: "../g" => "http://a/b/g";
    normal_dot_dot_twice: "../.." => "http://a/";
    normal_dot_dot_twice_slash: "../../" => "http://a/";
    normal_dot_dot_twice_g: "../../g" => "http://a/g";
}

// Section 5.4.2, abnormal examples.
resolves! {
    abnormal_above_root_3: "../../../g" => "http://a/g";
    abnormal_above_root_4: "../../../../g" => "http://a/g";
    abnormal_absolute_dot: "/./g" => "http://a/g";
    abnormal_absolute_dot_dot: "/../g" => "http://a/g";
    abnormal_g_dot: "g." => "http://a/b/c/g.";
    abnormal_dot_g: ".g" => "http://a/b/c/.g";
    abnormal_g_dot_dot: "g.." => "http://a/b/c/g..";
    abnormal_dot_dot_g: "..g" => "http://a/b/c/..g";
    abnormal_dot_dot_dot_g: "./../g" => "http://a/b/g";
    abnormal_dot_g_dot: "./g/." => "http://a/b/c/g/";
    abnormal_g_dot_h: "g/./h" => "http://a/b/c/g/h";
    abnormal_g_dot_dot_h: "g/../h" => "http://a/b/c/h";
    abnormal_semicolon_dot: "g;x=1/./y" => "http://a/b/c/g;x=1/y";
    abnormal_semicolon_dot_dot: "g;x=1/../y" => "http://a/b/c/y";
    abnormal_query_dot: "g?y/./x" => "http://a/b/c/g?y/./x";
    abnormal_query_dot_dot: "g?y/../x" => "http://a/b/c/g?y/../x";
    abnormal_fragment_dot: "g#s/./x" => "http://a/b/c/g";
    abnormal_fragment_dot_dot: "g#s/../x" => "http://a/b/c/g";
}

// Absolute references and redirects seen in the wild.
resolves! {
    absolute_other_host: "https://b/x?y" => "https://b/x?y";
    network_path_with_port: "//b:8080/x" => "http://b:8080/x";
    network_path_dots: "//b/x/../y" => "http://b/y";
}

/// RFC 3986 section 5.4.1 resolves `g:h` to `g:h`: a scheme this crate refuses.
#[test]
fn other_scheme_is_refused() {
    let base = Url::parse(BASE).unwrap();
    assert_eq!(
        base.join("g:h").unwrap_err().kind(),
        ErrorKind::UnsupportedScheme
    );
}

/// RFC 3986 section 5.4.2: a strict parser resolves `http:g` to `http:g`, which has no host;
/// this crate refuses it rather than guess (the non-strict reading is `http://a/b/c/g`).
#[test]
fn scheme_without_authority_is_refused() {
    let base = Url::parse(BASE).unwrap();
    assert_eq!(
        base.join("http:g").unwrap_err().kind(),
        ErrorKind::MissingHost
    );
}

#[test]
fn resolved_urls_are_checked_like_parsed_ones() {
    let base = Url::parse(BASE).unwrap();
    assert_eq!(
        base.join("//user@evil/").unwrap_err().kind(),
        ErrorKind::Userinfo
    );
    assert_eq!(base.join("/a b").unwrap_err().kind(), ErrorKind::Whitespace);
    assert_eq!(
        base.join("\\\\evil/").unwrap_err().kind(),
        ErrorKind::Backslash
    );
    assert_eq!(
        base.join("//0x7f.1/").unwrap().as_str(),
        "http://127.0.0.1/"
    );
}
