//! One rule for "does this name hold a credential" (one owner per rule):
//! `http::is_credential_name`, which the client's header masking, the plugin's response
//! heads, a plugin's `Debug` and the curl importer all ask (the importer's `is_secret_name`
//! was a second name for it; the plugin's `Debug` had its own list of three). Each name below is asked on each side, and every side answers the same.

use httptool::curl;
use httptool::http::{is_credential_name, Headers};

/// Header names that hold a credential.
const CREDENTIALS: &[&str] = &[
    "X-Api-Key",
    "X-API-KEY",
    "X-Auth-Token",
    "X-Client-Secret",
    "Api_Key",
    "X-Session",
    "X-Access-Token",
    "X-Csrf-Token",
];

/// Header names that merely look like one.
const NOT_CREDENTIALS: &[&str] = &[
    "Idempotency-Key",
    "X-Page-Token",
    "X-Author",
    "X-Keyword",
    "Accept",
    "X-Request-Id",
];

const VALUE: &str = "plainvalue1";

#[test]
fn the_rule_sorts_the_names() {
    for name in CREDENTIALS {
        assert!(is_credential_name(name), "{}", name);
    }
    for name in NOT_CREDENTIALS {
        assert!(!is_credential_name(name), "{}", name);
    }
}

#[test]
fn the_client_masks_exactly_the_credential_headers() {
    for (names, masked) in [(CREDENTIALS, true), (NOT_CREDENTIALS, false)] {
        for name in names {
            let mut headers = Headers::new();
            headers.insert(name, VALUE).unwrap();
            assert_eq!(headers.is_sensitive(name), masked, "{}", name);
            assert_eq!(
                !format!("{:?}", headers).contains(VALUE),
                masked,
                "{}",
                name
            );
        }
    }
}

#[test]
fn the_curl_importer_hides_exactly_the_credential_headers() {
    for (names, hidden) in [(CREDENTIALS, true), (NOT_CREDENTIALS, false)] {
        for name in names {
            let line = format!("curl https://api.example.com/a -H '{}: {}'", name, VALUE);
            let command = curl::parse(&line).unwrap();
            // The parsed command's `Debug` masks by the same rule.
            assert_eq!(
                !format!("{:?}", command).contains(VALUE),
                hidden,
                "{}",
                name
            );
            let file = curl::to_plugin(&command).unwrap().to_json().to_string();
            assert_eq!(!file.contains(VALUE), hidden, "{}: {}", name, file);
        }
    }
}

#[test]
fn a_plugin_debug_masks_exactly_the_credential_headers() {
    for (names, masked) in [(CREDENTIALS, true), (NOT_CREDENTIALS, false)] {
        for name in names {
            let plugin = httptool::plugin::HttpPlugin::builder("p", "https://api.example.com")
                .header(*name, VALUE)
                .endpoint(httptool::plugin::Endpoint::get("g", "/g"))
                .build()
                .unwrap();
            let debug = format!("{:?}", plugin);
            assert_eq!(!debug.contains(VALUE), masked, "{}: {}", name, debug);
        }
    }
}
