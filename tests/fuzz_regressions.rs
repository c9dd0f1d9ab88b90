//! One regression test per finding of the coverage-guided fuzz targets in `fuzz/`, named for
//! the defect, with the (minimized) input inline. See `fuzz/README.md`.

use httptool::curl::{self, ErrorKind};

/// Found by `fuzz/` target `curl`: a second credential header holding a control character
/// other than CR or LF (`\x0f`) converted to a plugin whose secret header parameter failed on
/// every call ("the call cannot be built"), and `to_curl` of the plugin failed. curl's reader
/// refused only CR and LF, the client refuses every control character but tab (RFC 9110
/// section 5.5): the reader now refuses what the client would, at the argument that holds it.
#[test]
fn curl_header_value_with_a_control_character_is_refused_when_read() {
    let minimized = "curl https://x.test -H 'X-Api-Key: k1' -H $'X-Token: a\\x0fb'";
    let err = curl::parse(minimized).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidValue);
    assert_eq!(
        err.to_string(),
        "invalid value for -H/--header at argument 4: expected a value without control \
         characters (tab is fine)"
    );
    // Every option that becomes a header reads its value the same way.
    for command in [
        "curl -H $'Authorization: Bearer a\\x01b' https://x.test",
        "curl -H $'X-Key: a\\x7fb' https://x.test",
        "curl -A $'agent\\x01' https://x.test",
        "curl -b $'a=b\\x1b' https://x.test",
        "curl -e $'https://r.test/\\x7f' https://x.test",
        "curl --oauth2-bearer $'t\\x02' https://x.test",
    ] {
        let err = curl::parse(command).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidValue, "{command}");
        assert_eq!(err.arg_index(), Some(1), "{command}");
    }
    // A tab is a field value byte: kept, and the plugin's call can be built.
    let command =
        curl::parse("curl https://x.test -H 'X-Api-Key: k1' -H $'X-Token: a\\tb'").unwrap();
    let plugin = curl::to_plugin(&command).unwrap();
    assert!(curl::to_curl(&plugin, None).is_ok());
}

/// Found by `fuzz/` target `curl`: `to_curl` wrote a `<name>` placeholder by putting a stand-in
/// value (`918273645000000`) in the request and replacing the text everywhere in the finished
/// command, so the same digits in a header of the request itself became `<days>` too, and the
/// header line lost its name (`-H '<days>Accept: a'`, which does not parse). Stand-ins are now
/// picked from a family whose text occurs nowhere in the request.
#[test]
fn to_curl_placeholder_stand_in_found_in_the_request_is_left_alone() {
    let minimized = "curl 'x.test/?days=3' -H '918273645000000Accept: a'";
    let plugin = curl::to_plugin(&curl::parse(minimized).unwrap()).unwrap();
    let exported = curl::to_curl(&plugin, None).unwrap();
    let again = curl::parse(&exported)
        .unwrap_or_else(|e| panic!("the exported command does not parse: {e}\n{exported}"));
    assert_eq!(again.method(), "GET");
    assert!(
        exported.contains("-H '918273645000000Accept: a'"),
        "{exported}"
    );
    let header = again
        .headers()
        .iter()
        .find(|header| header.name() == "918273645000000Accept");
    assert_eq!(header.map(|header| header.value()), Some("a"), "{exported}");
    assert!(exported.contains("days=<days>"), "{exported}");
    // Also when the request holds the text of the first families of stand-ins.
    let crowded =
        "curl 'x.test/?days=3&q=x' -H 'X-A: 918273645 918273655 httptool-placeholder-00-'";
    let plugin = curl::to_plugin(&curl::parse(crowded).unwrap()).unwrap();
    let exported = curl::to_curl(&plugin, None).unwrap();
    assert!(
        exported.contains("-H 'X-A: 918273645 918273655 httptool-placeholder-00-'"),
        "{exported}"
    );
    assert!(exported.contains("days=<days>&q=<q>"), "{exported}");
}

/// Found by the `curl` target: Basic credentials of user `http` and no password are the text
/// `http:`, and masking them by text search in the dry run's URL turned the scheme into `***`,
/// so the exported command no longer converted.
#[test]
fn masking_a_secret_that_spells_the_scheme_leaves_the_origin_alone() {
    let minimized = "curl 'http@liters:3' -H 'Accn/json' -H 'Authorizatio~: Bearer abc123'";
    let plugin = curl::to_plugin(&curl::parse(minimized).unwrap()).unwrap();
    let exported = curl::to_curl(&plugin, None).unwrap();
    assert!(exported.starts_with("curl http://liters:3/ "), "{exported}");
    let again = curl::parse(&exported)
        .unwrap_or_else(|e| panic!("the exported command does not parse: {e}\n{exported}"));
    assert_eq!(again.method(), "GET");
    assert!(!exported.contains("abc123"), "{exported}");
}
