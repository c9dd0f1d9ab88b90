//! Every curl option httptool reads, one behaviour per test, through `httptool::curl::parse`.

use std::time::Duration;

use httptool::curl::{self, Auth, CurlCommand, DataKind, DataSource, ErrorKind, FormValue, Header};

fn parse(command: &str) -> CurlCommand {
    match curl::parse(command) {
        Ok(cmd) => cmd,
        Err(err) => panic!("{:?} failed: {}", command, err),
    }
}

fn error_kind(command: &str) -> ErrorKind {
    match curl::parse(command) {
        Ok(cmd) => panic!("{:?} parsed: {:?}", command, cmd),
        Err(err) => err.kind(),
    }
}

fn headers(cmd: &CurlCommand) -> Vec<(&str, &str)> {
    cmd.headers()
        .iter()
        .map(|h| (h.name(), h.value()))
        .collect()
}

fn note_args(cmd: &CurlCommand) -> Vec<usize> {
    cmd.notes().iter().map(|note| note.arg_index()).collect()
}

fn data(cmd: &CurlCommand) -> Vec<(DataKind, Option<&str>, DataSource)> {
    cmd.data()
        .iter()
        .map(|part| (part.kind(), part.name(), part.source().clone()))
        .collect()
}

fn inline(text: &str) -> DataSource {
    DataSource::Inline(text.as_bytes().to_vec())
}

fn file(path: &str) -> DataSource {
    DataSource::File(path.to_owned())
}

// --- the URL --------------------------------------------------------------------------

#[test]
fn url_alone_is_a_get() {
    let cmd = parse("curl https://api.example.com/v1/items");
    assert_eq!(cmd.method(), "GET");
    assert!(!cmd.method_is_explicit());
    assert_eq!(cmd.url(), "https://api.example.com/v1/items");
    assert_eq!(cmd.url_index(), 1);
    assert!(cmd.headers().is_empty());
    assert!(cmd.data().is_empty());
    assert!(cmd.notes().is_empty());
}

#[test]
fn url_may_come_first_middle_or_last() {
    for command in [
        "curl https://x.test/a -s -H 'A: b'",
        "curl -s https://x.test/a -H 'A: b'",
        "curl -s -H 'A: b' https://x.test/a",
    ] {
        assert_eq!(parse(command).url(), "https://x.test/a", "{}", command);
    }
}

#[test]
fn url_option_gives_the_url() {
    let cmd = parse("curl --url https://x.test/a -s");
    assert_eq!(cmd.url(), "https://x.test/a");
    assert_eq!(cmd.url_index(), 2);
}

#[test]
fn scheme_less_url_is_http() {
    assert_eq!(
        parse("curl example.com/a?b=1").url(),
        "http://example.com/a?b=1"
    );
    assert_eq!(parse("curl localhost:8080").url(), "http://localhost:8080");
}

#[test]
fn proto_default_sets_the_scheme_of_a_scheme_less_url() {
    let cmd = parse("curl --proto-default https example.com/a");
    assert_eq!(cmd.url(), "https://example.com/a");
    assert_eq!(
        parse("curl --proto-default https http://x.test").url(),
        "http://x.test"
    );
}

#[test]
fn other_schemes_are_refused() {
    assert_eq!(
        error_kind("curl ftp://x.test/f"),
        ErrorKind::UnsupportedScheme
    );
    assert_eq!(
        error_kind("curl ftp.x.test/f"),
        ErrorKind::UnsupportedScheme
    );
    assert_eq!(
        error_kind("curl file:///etc/passwd"),
        ErrorKind::UnsupportedScheme
    );
}

#[test]
fn raw_query_is_the_text_after_the_question_mark() {
    let cmd = parse("curl 'https://x.test/s?q=a%20b&n=1#frag'");
    assert_eq!(cmd.raw_query(), Some("q=a%20b&n=1"));
    assert_eq!(parse("curl https://x.test/s").raw_query(), None);
    assert_eq!(parse("curl 'https://x.test/s?'").raw_query(), Some(""));
    assert_eq!(parse("curl 'https://x.test/s#a?b'").raw_query(), None);
}

#[test]
fn double_dash_ends_options() {
    let cmd = parse("curl -s -- -weird-host.test");
    assert_eq!(cmd.url(), "http://-weird-host.test");
}

#[test]
fn several_urls_are_each_kept() {
    let cmd = parse("curl https://a.test/x b.test/y --url https://c.test/z");
    assert_eq!(cmd.url(), "https://a.test/x");
    let more: Vec<(&str, usize)> = cmd.more_urls().collect();
    assert_eq!(more, [("http://b.test/y", 2), ("https://c.test/z", 4)]);
    let many: Vec<String> = (0..65).map(|i| format!("https://a.test/{}", i)).collect();
    assert_eq!(
        error_kind(&format!("curl {}", many.join(" "))),
        ErrorKind::SeveralUrls
    );
}

#[test]
fn no_url_is_refused() {
    assert_eq!(error_kind("curl -s -H 'A: b'"), ErrorKind::NoUrl);
    assert_eq!(error_kind("curl ''"), ErrorKind::InvalidValue);
}

#[test]
fn glob_characters_without_globoff_leave_a_note() {
    let cmd = parse("curl 'https://x.test/?filter[name]=a'");
    assert_eq!(note_args(&cmd), [1]);
    let cmd = parse("curl -g 'https://x.test/?filter[name]=a'");
    assert!(cmd.notes().is_empty());
    let cmd = parse("curl --globoff 'https://x.test/{a}'");
    assert!(cmd.notes().is_empty());
    assert!(parse("curl 'http://[::1]:8080/a'").notes().is_empty());
}

// --- -X ---------------------------------------------------------------------------------

#[test]
fn request_sets_the_method() {
    for command in [
        "curl -X PUT x.test",
        "curl -XPUT x.test",
        "curl --request PUT x.test",
        "curl -sXPUT x.test",
    ] {
        let cmd = parse(command);
        assert_eq!(cmd.method(), "PUT", "{}", command);
        assert!(cmd.method_is_explicit(), "{}", command);
    }
}

#[test]
fn request_keeps_case_and_the_last_wins() {
    assert_eq!(parse("curl -X get x.test").method(), "get");
    assert_eq!(parse("curl -X GET -X DELETE x.test").method(), "DELETE");
}

#[test]
fn request_overrides_implied_methods() {
    assert_eq!(parse("curl -X GET -d a=1 x.test").method(), "GET");
    assert_eq!(parse("curl -d a=1 -X PATCH x.test").method(), "PATCH");
    assert_eq!(parse("curl -X PUT -F a=1 x.test").method(), "PUT");
    assert_eq!(parse("curl -X POST -G -d a=1 x.test").method(), "POST");
    assert_eq!(parse("curl -I -X OPTIONS x.test").method(), "OPTIONS");
}

#[test]
fn request_must_be_a_token() {
    assert_eq!(
        error_kind("curl -X 'GET /' x.test"),
        ErrorKind::InvalidValue
    );
    assert_eq!(error_kind("curl -X '' x.test"), ErrorKind::InvalidValue);
}

#[test]
fn long_option_with_equals_is_read_with_a_note() {
    let cmd = parse("curl --request=DELETE --header=X-A:1 x.test");
    assert_eq!(cmd.method(), "DELETE");
    assert_eq!(headers(&cmd), [("X-A", "1")]);
    assert_eq!(note_args(&cmd), [1, 2]);
    assert!(cmd.notes()[0].message().contains("curl itself rejects"));
}

// --- -H ---------------------------------------------------------------------------------

#[test]
fn headers_keep_order_case_and_repeats() {
    let cmd = parse(
        "curl -H 'Accept: a' -H'X-Trace: 1' -HX-Other:2 --header 'accept: b' -H 'X-Sp:\tv ' x.test",
    );
    assert_eq!(
        headers(&cmd),
        [
            ("Accept", "a"),
            ("X-Trace", "1"),
            ("X-Other", "2"),
            ("accept", "b"),
            ("X-Sp", "v")
        ]
    );
    assert_eq!(cmd.header("ACCEPT"), Some("b"));
    assert_eq!(cmd.header("missing"), None);
    let indexes: Vec<usize> = cmd.headers().iter().map(Header::arg_index).collect();
    assert_eq!(indexes, [1, 3, 4, 5, 7]);
}

#[test]
fn header_value_keeps_colons() {
    let cmd = parse("curl -H 'Link: <https://x.test/>; rel=next' x.test");
    assert_eq!(cmd.header("link"), Some("<https://x.test/>; rel=next"));
}

#[test]
fn header_with_nothing_after_the_colon_removes_it() {
    let cmd = parse("curl -H 'Accept:' -H 'User-Agent:  ' x.test");
    assert!(cmd.headers().is_empty());
    assert_eq!(cmd.removed_headers(), ["Accept", "User-Agent"]);
}

#[test]
fn header_ending_in_semicolon_is_sent_empty() {
    let cmd = parse("curl -H 'X-Empty;' x.test");
    assert_eq!(headers(&cmd), [("X-Empty", "")]);
    assert!(cmd.removed_headers().is_empty());
}

#[test]
fn header_without_colon_is_left_out_with_a_note() {
    let cmd = parse("curl -H 'not a header' x.test");
    assert!(cmd.headers().is_empty());
    assert_eq!(note_args(&cmd), [1]);
}

#[test]
fn header_file_is_not_read() {
    let cmd = parse("curl -H @headers.txt x.test");
    assert!(cmd.headers().is_empty());
    assert_eq!(note_args(&cmd), [1]);
}

#[test]
fn header_name_must_be_a_token_and_value_one_line() {
    assert_eq!(
        error_kind("curl -H ' X: 1' x.test"),
        ErrorKind::InvalidValue
    );
    assert_eq!(
        error_kind("curl -H 'X Y: 1' x.test"),
        ErrorKind::InvalidValue
    );
    assert_eq!(error_kind("curl -H ': 1' x.test"), ErrorKind::InvalidValue);
    assert_eq!(
        error_kind("curl -H $'X: 1\\r\\nY: 2' x.test"),
        ErrorKind::InvalidValue
    );
}

// --- data -------------------------------------------------------------------------------

#[test]
fn data_implies_post_and_parts_stay_apart() {
    let cmd = parse("curl -d a=1 --data b=2 -d '' x.test");
    assert_eq!(cmd.method(), "POST");
    assert!(!cmd.method_is_explicit());
    assert_eq!(
        data(&cmd),
        [
            (DataKind::Data, None, inline("a=1")),
            (DataKind::Data, None, inline("b=2")),
            (DataKind::Data, None, inline("")),
        ]
    );
    let indexes: Vec<usize> = cmd.data().iter().map(|p| p.arg_index()).collect();
    assert_eq!(indexes, [1, 3, 5]);
    assert!(cmd.notes().is_empty());
}

#[test]
fn data_from_a_file_is_an_inert_reference() {
    let cmd = parse("curl -d @body.json --data-binary @img.png --data-ascii @- x.test");
    assert_eq!(
        data(&cmd),
        [
            (DataKind::Data, None, file("body.json")),
            (DataKind::Binary, None, file("img.png")),
            (DataKind::Ascii, None, file("-")),
        ]
    );
    assert_eq!(cmd.data()[0].file(), Some("body.json"));
    assert_eq!(cmd.data()[0].inline(), None);
    assert_eq!(note_args(&cmd), [1, 3, 5]);
}

#[test]
fn data_raw_takes_at_sign_literally() {
    let cmd = parse("curl --data-raw @not-a-file x.test");
    assert_eq!(data(&cmd), [(DataKind::Raw, None, inline("@not-a-file"))]);
    assert_eq!(cmd.data()[0].text(), Some("@not-a-file"));
    assert!(cmd.notes().is_empty());
}

#[test]
fn data_binary_and_ascii_inline() {
    let cmd = parse("curl --data-binary $'a\\nb' --data-ascii c x.test");
    assert_eq!(
        data(&cmd),
        [
            (DataKind::Binary, None, inline("a\nb")),
            (DataKind::Ascii, None, inline("c"))
        ]
    );
}

#[test]
fn data_may_hold_bytes_that_are_not_utf8() {
    let cmd = parse("curl --data-binary $'\\xff\\xfe' x.test");
    assert_eq!(cmd.data()[0].inline(), Some(&[0xff, 0xfe][..]));
    assert_eq!(cmd.data()[0].text(), None);
}

#[test]
fn data_urlencode_forms() {
    let cmd = parse(
        "curl --data-urlencode 'a b' --data-urlencode '=c=d' --data-urlencode 'n=v w' \
         --data-urlencode @file.txt --data-urlencode k@file.txt --data-urlencode 'x@y=z' x.test",
    );
    assert_eq!(
        data(&cmd),
        [
            (DataKind::UrlEncode, None, inline("a b")),
            (DataKind::UrlEncode, None, inline("c=d")),
            (DataKind::UrlEncode, Some("n"), inline("v w")),
            (DataKind::UrlEncode, None, file("file.txt")),
            (DataKind::UrlEncode, Some("k"), file("file.txt")),
            (DataKind::UrlEncode, Some("x@y"), inline("z")),
        ]
    );
    assert_eq!(note_args(&cmd), [7, 9]);
}

#[test]
fn json_sets_two_headers_and_post() {
    let cmd = parse(r#"curl --json '{"a":1}' x.test"#);
    assert_eq!(cmd.method(), "POST");
    assert_eq!(data(&cmd), [(DataKind::Json, None, inline(r#"{"a":1}"#))]);
    assert_eq!(
        headers(&cmd),
        [
            ("Content-Type", "application/json"),
            ("Accept", "application/json")
        ]
    );
    assert_eq!(cmd.headers()[0].arg_index(), 1);
}

#[test]
fn json_headers_yield_to_given_ones() {
    let cmd = parse("curl --json '{}' -H 'content-type: application/vnd.api+json' x.test");
    assert_eq!(
        headers(&cmd),
        [
            ("content-type", "application/vnd.api+json"),
            ("Accept", "application/json")
        ]
    );
    let cmd = parse("curl -H 'Accept:' --json '{}' x.test");
    assert_eq!(headers(&cmd), [("Content-Type", "application/json")]);
}

#[test]
fn json_repeated_parts_are_kept_in_order() {
    let cmd = parse(r#"curl --json '{"a":' --json '1}' --json @more.json x.test"#);
    assert_eq!(
        data(&cmd),
        [
            (DataKind::Json, None, inline(r#"{"a":"#)),
            (DataKind::Json, None, inline("1}")),
            (DataKind::Json, None, file("more.json")),
        ]
    );
    assert_eq!(cmd.headers().len(), 2);
}

#[test]
fn json_and_data_may_mix() {
    let cmd = parse("curl -d a --json b x.test");
    let kinds: Vec<DataKind> = cmd.data().iter().map(|p| p.kind()).collect();
    assert_eq!(kinds, [DataKind::Data, DataKind::Json]);
    assert_eq!(cmd.header("content-type"), Some("application/json"));
}

// --- forms ------------------------------------------------------------------------------

#[test]
fn form_implies_post_multipart() {
    let cmd = parse(
        "curl -F name=Ada -F 'avatar=@me.png;type=image/png;filename=ada.png' \
         -F 'bio=<bio.txt' --form 'note=\"a;b\"' x.test",
    );
    assert_eq!(cmd.method(), "POST");
    let form = cmd.form();
    assert_eq!(form.len(), 4);
    assert_eq!((form[0].name(), form[0].text()), ("name", Some("Ada")));
    assert_eq!(form[1].value(), &FormValue::File("me.png".to_owned()));
    assert_eq!(form[1].content_type(), Some("image/png"));
    assert_eq!(form[1].filename(), Some("ada.png"));
    assert_eq!(
        form[2].value(),
        &FormValue::FileContent("bio.txt".to_owned())
    );
    assert_eq!(form[3].text(), Some("a;b"));
    assert_eq!(form[3].arg_index(), 7);
    // The two file parts are not read: each leaves a note.
    assert_eq!(note_args(&cmd), [3, 5]);
}

#[test]
fn form_string_takes_the_value_literally() {
    let cmd = parse("curl --form-string 'a=@f.txt;type=x' x.test");
    assert_eq!(cmd.method(), "POST");
    assert_eq!(cmd.form()[0].text(), Some("@f.txt;type=x"));
    assert_eq!(cmd.form()[0].content_type(), None);
    assert!(cmd.notes().is_empty());
}

#[test]
fn form_needs_a_name() {
    assert_eq!(
        error_kind("curl -F novalue x.test"),
        ErrorKind::InvalidValue
    );
    assert_eq!(
        error_kind("curl --form-string novalue x.test"),
        ErrorKind::InvalidValue
    );
}

#[test]
fn form_and_data_do_not_mix() {
    assert_eq!(error_kind("curl -d a=1 -F b=2 x.test"), ErrorKind::Conflict);
    assert_eq!(
        error_kind("curl -F b=2 --json '{}' x.test"),
        ErrorKind::Conflict
    );
    assert_eq!(
        error_kind("curl --form-string b=2 -d a x.test"),
        ErrorKind::Conflict
    );
}

// --- -G and -I --------------------------------------------------------------------------

#[test]
fn get_sends_data_in_the_query() {
    let cmd = parse("curl -G -d q=rust --data-urlencode 'page=2' https://x.test/search");
    assert_eq!(cmd.method(), "GET");
    assert!(cmd.get());
    assert_eq!(cmd.data().len(), 2);
    let cmd = parse("curl --get https://x.test/search");
    assert_eq!((cmd.method(), cmd.get()), ("GET", true));
}

#[test]
fn no_get_turns_it_off() {
    let cmd = parse("curl -G --no-get -d a x.test");
    assert_eq!((cmd.method(), cmd.get()), ("POST", false));
}

#[test]
fn get_has_no_effect_on_forms() {
    let cmd = parse("curl -G -F a=1 x.test");
    assert_eq!(cmd.method(), "POST");
    assert!(cmd.get());
    assert_eq!(note_args(&cmd), [1]);
}

#[test]
fn head_sends_head() {
    let cmd = parse("curl -I x.test");
    assert_eq!((cmd.method(), cmd.head()), ("HEAD", true));
    assert_eq!(parse("curl --head -G x.test").method(), "HEAD");
    assert_eq!(parse("curl -I --no-head x.test").method(), "GET");
    assert_eq!(parse("curl -I --no-head -d a x.test").method(), "POST");
}

#[test]
fn head_and_a_body_do_not_mix() {
    assert_eq!(error_kind("curl -I -d a x.test"), ErrorKind::Conflict);
    assert_eq!(error_kind("curl -d a -I x.test"), ErrorKind::Conflict);
    assert_eq!(error_kind("curl -F a=1 --head x.test"), ErrorKind::Conflict);
}

// --- -T ---------------------------------------------------------------------------------

#[test]
fn upload_file_is_a_put_with_an_inert_body() {
    let cmd = parse("curl -T report.csv https://x.test/files/");
    assert_eq!(cmd.method(), "PUT");
    assert_eq!(data(&cmd), [(DataKind::Upload, None, file("report.csv"))]);
    assert_eq!(note_args(&cmd), [1]);
    assert_eq!(error_kind("curl -T f -d a x.test"), ErrorKind::Conflict);
}

// --- credentials ------------------------------------------------------------------------

#[test]
fn user_is_basic_auth() {
    let cmd = parse("curl -u ada:s3cr:et x.test");
    let expected = Auth::Basic {
        user: "ada".to_owned(),
        password: Some("s3cr:et".to_owned()),
    };
    assert_eq!(cmd.auth(), Some(&expected));
    let cmd = parse("curl --user sk_test_123: x.test");
    let expected = Auth::Basic {
        user: "sk_test_123".to_owned(),
        password: Some(String::new()),
    };
    assert_eq!(cmd.auth(), Some(&expected));
}

#[test]
fn user_without_password_leaves_a_note() {
    let cmd = parse("curl -u ada x.test");
    let expected = Auth::Basic {
        user: "ada".to_owned(),
        password: None,
    };
    assert_eq!(cmd.auth(), Some(&expected));
    assert_eq!(note_args(&cmd), [1]);
}

#[test]
fn bearer_token() {
    let cmd = parse("curl --oauth2-bearer tok x.test");
    let expected = Auth::Bearer {
        token: "tok".to_owned(),
    };
    assert_eq!(cmd.auth(), Some(&expected));
}

#[test]
fn bearer_wins_over_user_as_in_curl() {
    let cmd = parse("curl -u a:b --oauth2-bearer tok x.test");
    assert!(matches!(cmd.auth(), Some(Auth::Bearer { .. })));
    assert_eq!(note_args(&cmd), [1]);
}

#[test]
fn user_agent_and_referer() {
    let cmd = parse("curl -A 'my-agent/1.0' -e https://from.test/ x.test");
    assert_eq!(cmd.user_agent(), Some("my-agent/1.0"));
    assert_eq!(cmd.referer(), Some("https://from.test/"));
    let cmd = parse("curl --user-agent '' --referer 'https://from.test/;auto' x.test");
    assert_eq!(cmd.user_agent(), Some(""));
    assert_eq!(cmd.referer(), Some("https://from.test/"));
    assert_eq!(note_args(&cmd), [3]);
    assert_eq!(parse("curl -e ';auto' x.test").referer(), None);
}

#[test]
fn cookies_are_data_or_inert_files() {
    let cmd = parse("curl -b 'a=1; b=2' --cookie c=3 -b jar.txt x.test");
    assert_eq!(cmd.cookies(), ["a=1; b=2", "c=3"]);
    assert_eq!(note_args(&cmd), [5]);
}

// --- connection and transfer ------------------------------------------------------------

#[test]
fn location_and_max_redirs() {
    let cmd = parse("curl -L --max-redirs 3 x.test");
    assert!(cmd.location());
    assert_eq!(cmd.max_redirs(), Some(3));
    assert!(!parse("curl -L --no-location x.test").location());
    assert!(!parse("curl x.test").location());
    let cmd = parse("curl -L --max-redirs -1 x.test");
    assert_eq!(cmd.max_redirs(), None);
    assert_eq!(note_args(&cmd), [2]);
    assert_eq!(
        error_kind("curl --max-redirs many x.test"),
        ErrorKind::InvalidValue
    );
    assert_eq!(
        error_kind("curl --max-redirs -2 x.test"),
        ErrorKind::InvalidValue
    );
    assert_eq!(
        error_kind("curl --max-redirs +2 x.test"),
        ErrorKind::InvalidValue
    );
}

#[test]
fn location_trusted_follows_with_a_note() {
    let cmd = parse("curl --location-trusted x.test");
    assert!(cmd.location());
    assert_eq!(note_args(&cmd), [1]);
}

#[test]
fn insecure_and_compressed() {
    let cmd = parse("curl -k --compressed x.test");
    assert!(cmd.insecure() && cmd.compressed());
    let cmd = parse("curl --insecure --no-insecure --compressed --no-compressed x.test");
    assert!(!cmd.insecure() && !cmd.compressed());
}

#[test]
fn timeouts_take_decimal_seconds() {
    let cmd = parse("curl -m 2.5 --connect-timeout .75 x.test");
    assert_eq!(cmd.max_time(), Some(Duration::from_millis(2500)));
    assert_eq!(cmd.connect_timeout(), Some(Duration::from_millis(750)));
    let cmd = parse("curl --max-time 30 -m10 x.test");
    assert_eq!(cmd.max_time(), Some(Duration::from_secs(10)));
}

#[test]
fn zero_timeouts_mean_none() {
    let cmd = parse("curl -m 0 --connect-timeout 0 x.test");
    assert_eq!((cmd.max_time(), cmd.connect_timeout()), (None, None));
    assert_eq!(note_args(&cmd), [1]);
}

#[test]
fn timeouts_must_be_numbers() {
    assert_eq!(error_kind("curl -m soon x.test"), ErrorKind::InvalidValue);
    assert_eq!(
        error_kind("curl --connect-timeout -1 x.test"),
        ErrorKind::InvalidValue
    );
}

#[test]
fn proxy() {
    assert_eq!(
        parse("curl -x http://proxy.test:3128 x.test").proxy(),
        Some("http://proxy.test:3128")
    );
    assert_eq!(parse("curl --proxy '' x.test").proxy(), None);
}

// --- options that are not carried over --------------------------------------------------

#[test]
fn display_only_options_are_silent() {
    let cmd = parse(
        "curl -s -S -v -i -# -f -g -N -sSfL --silent --show-error --verbose --include \
         --progress-bar --no-progress-meter --fail --fail-with-body --globoff --no-buffer \
         --raw --http1.1 --basic --stderr err.txt --keepalive-time 5 -q x.test",
    );
    assert!(cmd.notes().is_empty(), "{:?}", cmd.notes());
    assert!(cmd.location());
}

#[test]
fn options_not_carried_over_leave_a_note_each_and_keep_their_value() {
    let cmd = parse(
        "curl --http2 --path-as-is --tr-encoding -w '%{http_code}' --retry 3 -o out.json -O \
         --resolve x.test:443:127.0.0.1 --connect-to x.test:443:y.test:443 \
         --unix-socket /run/a.sock --abstract-unix-socket a --cacert ca.pem --capath /etc/ssl \
         --cert me.pem --key me.key -D headers.txt -c jar.txt https://x.test/",
    );
    assert_eq!(cmd.url(), "https://x.test/");
    assert_eq!(
        note_args(&cmd),
        [1, 2, 3, 4, 6, 8, 10, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29]
    );
    for note in cmd.notes() {
        assert!(note.message().starts_with('-'), "{}", note);
    }
}

#[test]
fn note_names_the_option_and_its_argument() {
    let cmd = parse("curl -s --http2 x.test");
    assert_eq!(
        cmd.notes()[0].to_string(),
        "argument 2: --http2: httptool speaks HTTP/1.1; the protocol version is not carried over"
    );
}

#[test]
fn options_that_would_change_the_request_are_refused() {
    for command in [
        "curl -K opts.txt x.test",
        "curl --config opts.txt x.test",
        "curl --ntlm -u a:b x.test",
        "curl --negotiate x.test",
        "curl --anyauth x.test",
        "curl --aws-sigv4 osc:osc x.test",
        "curl -C - x.test",
        "curl -z 'Jan 1 2024' x.test",
        "curl --request-target '*' x.test",
        "curl --variable a=b x.test",
        "curl --expand-url x.test",
        "curl x.test --next y.test",
        "curl --version",
        "curl -h",
    ] {
        assert_eq!(error_kind(command), ErrorKind::Unsupported, "{}", command);
    }
}

// --- option syntax ----------------------------------------------------------------------

#[test]
fn bundled_short_options_with_a_value_at_the_end() {
    let cmd = parse("curl -sSLkXPOST -dfoo x.test");
    assert!(cmd.location() && cmd.insecure());
    assert_eq!(cmd.method(), "POST");
    assert_eq!(cmd.data()[0].text(), Some("foo"));
}

#[test]
fn bundled_value_option_takes_the_next_argument() {
    let cmd = parse("curl -sH 'A: b' x.test");
    assert_eq!(headers(&cmd), [("A", "b")]);
}

#[test]
fn value_may_start_with_a_dash() {
    let cmd = parse("curl -d -x -H --header x.test");
    assert_eq!(cmd.data()[0].text(), Some("-x"));
    assert!(cmd.removed_headers().is_empty());
    assert_eq!(cmd.proxy(), None);
}

#[test]
fn unknown_options_are_errors() {
    assert_eq!(
        error_kind("curl --frobnicate x.test"),
        ErrorKind::UnknownOption
    );
    assert_eq!(error_kind("curl -W x.test"), ErrorKind::UnknownOption);
    assert_eq!(error_kind("curl -sW x.test"), ErrorKind::UnknownOption);
    assert_eq!(error_kind("curl - x.test"), ErrorKind::UnknownOption);
    assert_eq!(
        error_kind("curl --compress x.test"),
        ErrorKind::AmbiguousOption
    );
}

#[test]
fn switch_options_take_no_value() {
    assert_eq!(
        error_kind("curl --silent=yes x.test"),
        ErrorKind::UnexpectedValue
    );
    assert_eq!(
        error_kind("curl --no-location=1 x.test"),
        ErrorKind::UnexpectedValue
    );
}

#[test]
fn only_switches_can_be_negated() {
    assert_eq!(
        error_kind("curl --no-request x.test"),
        ErrorKind::NotBoolean
    );
    assert_eq!(
        error_kind("curl --no-http1.1 x.test"),
        ErrorKind::NotBoolean
    );
}

#[test]
fn a_missing_value_is_an_error() {
    assert_eq!(error_kind("curl x.test -H"), ErrorKind::MissingValue);
    assert_eq!(error_kind("curl x.test --data"), ErrorKind::MissingValue);
    assert_eq!(error_kind("curl x.test -sX"), ErrorKind::MissingValue);
}

#[test]
fn program_name_forms() {
    for command in [
        "curl x.test",
        "curl.exe x.test",
        "CURL x.test",
        "/usr/bin/curl x.test",
        "'C:\\Program Files\\curl\\curl.exe' x.test",
        "$ curl x.test",
    ] {
        assert_eq!(parse(command).url(), "http://x.test", "{}", command);
    }
    assert_eq!(error_kind("wget x.test"), ErrorKind::NotCurl);
    assert_eq!(error_kind("x.test"), ErrorKind::NotCurl);
    assert_eq!(error_kind("TOKEN=1 curl x.test"), ErrorKind::NotCurl);
    assert_eq!(error_kind("  # only a comment\n"), ErrorKind::Empty);
}

#[test]
fn text_options_must_be_utf8() {
    assert_eq!(
        error_kind("curl -H $'X: \\xff' x.test"),
        ErrorKind::InvalidUtf8
    );
    assert_eq!(error_kind("curl $'x.test/\\xff'"), ErrorKind::InvalidUtf8);
    assert_eq!(
        error_kind("curl -d @$'\\xff' x.test"),
        ErrorKind::InvalidUtf8
    );
    assert_eq!(
        error_kind("curl --$'\\xff' x.test"),
        ErrorKind::UnknownOption
    );
}

#[test]
fn parse_args_reads_split_arguments() {
    let cmd = curl::parse_args(&["curl", "-H", "A: 'b'", "--data-binary", "$x", "x.test"]);
    let cmd = cmd.map_err(|e| e.to_string());
    assert_eq!(cmd.as_ref().map(|c| c.header("a")), Ok(Some("'b'")));
    assert_eq!(cmd.as_ref().map(|c| c.data()[0].text()), Ok(Some("$x")));
    let bytes: Vec<Vec<u8>> = vec![b"curl".to_vec(), b"-d".to_vec(), vec![0xff], b"x".to_vec()];
    let cmd = curl::parse_args(&bytes).map_err(|e| e.to_string());
    assert_eq!(
        cmd.map(|c| c.data()[0].inline().map(<[u8]>::to_vec)),
        Ok(Some(vec![0xff]))
    );
    let empty: [&str; 0] = [];
    assert_eq!(
        curl::parse_args(&empty).map_err(|e| e.kind()).err(),
        Some(ErrorKind::Empty)
    );
}

// --- Debug ------------------------------------------------------------------------------

#[test]
fn debug_masks_credentials() {
    let cmd = parse(
        "curl -u ada:hunter2 -H 'Authorization: Bearer tok-123' -H 'X-Api-Key: key-456' \
         -H 'Cookie: sid=cookie-789' -b 'session=cookie-abc' -H 'Accept: text/plain' \
         -x http://pu:proxy-pw@proxy.test -d 'password=body-secret' \
         'https://user:url-pw@x.test/a?api_key=q-secret&page=2'",
    );
    let debug = format!("{:?}", cmd);
    for secret in [
        "hunter2",
        "tok-123",
        "key-456",
        "cookie-789",
        "cookie-abc",
        "proxy-pw",
        "body-secret",
        "url-pw",
        "q-secret",
    ] {
        assert!(!debug.contains(secret), "{} shows in {}", secret, debug);
    }
    for visible in [
        "ada",
        "text/plain",
        "page=2",
        "x.test",
        "Authorization",
        "<20 bytes>",
    ] {
        assert!(
            debug.contains(visible),
            "{} missing from {}",
            visible,
            debug
        );
    }
    let bearer = parse("curl --oauth2-bearer tok-xyz x.test");
    assert!(!format!("{:?}", bearer).contains("tok-xyz"));
}

#[test]
fn debug_of_parts_hides_values() {
    let cmd = parse("curl -F 'pw=hunter2' x.test");
    assert!(!format!("{:?}", cmd.form()[0]).contains("hunter2"));
    assert!(!format!("{:?}", cmd.form()[0].value()).contains("hunter2"));
    let cmd = parse("curl -d 'pw=hunter2' x.test");
    assert!(!format!("{:?}", cmd.data()[0].source()).contains("hunter2"));
}

#[test]
fn commands_are_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<CurlCommand>();
    check::<curl::Error>();
}
