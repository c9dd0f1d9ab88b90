//! `curl --aws-sigv4 aws:amz:REGION:SERVICE -u KEY:SECRET` imported as the plugin's
//! AWS Signature Version 4 auth: the request signed on the wire, the key and secret as
//! `${NAME}` variables in the file, a region and service read from an AWS host, and other
//! providers refused.

use crate::support::Server;
use httptool::curl::{self, ErrorKind};
use httptool::plugin::Auth;
use httptool::tool::{ToolCall, ToolRegistry};

const KEY_ID: &str = "AKIDEXAMPLE";
const SECRET: &str = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";

#[test]
fn a_signed_command_signs_each_call_on_the_wire() {
    let server = Server::json(r#"{"ok": true}"#);
    let command = format!(
        "curl --aws-sigv4 'aws:amz:eu-west-1:execute-api' --user '{}:{}' '{}'",
        KEY_ID,
        SECRET,
        server.url("/prod/items?limit=5")
    );
    let import =
        curl::to_plugin_with(&curl::parse(&command).unwrap(), &curl::ImportOptions::new()).unwrap();
    let plugin = import.plugin();
    match plugin.auth() {
        Some(Auth::AwsSigV4(sigv4)) => {
            assert_eq!(sigv4.region().value(), Some("eu-west-1"));
            assert_eq!(sigv4.service().value(), Some("execute-api"));
        }
        other => panic!("auth {:?}", other),
    }
    let mut registry = ToolRegistry::new();
    registry.add_plugin(plugin).unwrap();
    let out = registry.call(&ToolCall::new("c1", import.tool_name(), r#"{"limit": 5}"#));
    assert!(!out.is_error(), "{}", out.text());
    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    let authorization = requests[0].header("authorization").unwrap();
    assert!(
        authorization.starts_with(&format!("AWS4-HMAC-SHA256 Credential={}/", KEY_ID)),
        "{}",
        authorization
    );
    assert!(authorization.contains("/eu-west-1/execute-api/aws4_request"));
    assert!(authorization.contains("Signature="));
    assert!(requests[0].header("x-amz-date").is_some());
    assert_eq!(requests[0].target, "/prod/items?limit=5");
}

#[test]
fn the_key_and_secret_are_variables_in_the_file() {
    let cmd = curl::parse(&format!(
        "curl --aws-sigv4 aws:amz:us-east-1:s3 -u {}:{} -H 'x-amz-security-token: FQoGZXIvYXdzEXAMPLE' \
         https://s3.us-east-1.amazonaws.com/bucket/key",
        KEY_ID, SECRET
    ))
    .unwrap();
    let import = curl::to_plugin_with(&cmd, &curl::ImportOptions::new()).unwrap();
    let file = import.plugin().to_json().to_string();
    assert!(!file.contains(SECRET), "{}", file);
    assert!(!file.contains(KEY_ID), "{}", file);
    assert!(!file.contains("FQoGZXIvYXdzEXAMPLE"), "{}", file);
    assert!(file.contains(r#""type":"aws_sigv4""#), "{}", file);
    assert!(file.contains(r#""session_token":"${"#), "{}", file);
    let names: Vec<&str> = import.variables().iter().map(|v| v.name()).collect();
    assert_eq!(names.len(), 3, "{:?}", names);
    assert!(
        names.iter().any(|n| n.ends_with("SECRET_ACCESS_KEY")),
        "{:?}",
        names
    );
    // The header is the signature's, not a static header.
    assert!(
        !file
            .to_ascii_lowercase()
            .contains("x-amz-security-token\":"),
        "{}",
        file
    );
}

#[test]
fn region_and_service_left_out_come_from_an_aws_host() {
    let cmd = curl::parse(
        "curl --aws-sigv4 aws:amz -u k:s https://abc.execute-api.ap-south-1.amazonaws.com/x",
    )
    .unwrap();
    let plugin = curl::to_plugin(&cmd).unwrap();
    match plugin.auth() {
        Some(Auth::AwsSigV4(sigv4)) => {
            assert_eq!(sigv4.region().value(), Some("ap-south-1"));
            assert_eq!(sigv4.service().value(), Some("execute-api"));
        }
        other => panic!("auth {:?}", other),
    }
    let cmd = curl::parse("curl --aws-sigv4 aws:amz -u k:s https://api.example.com/x").unwrap();
    let err = curl::to_plugin(&cmd).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Unsupported);
    assert!(
        err.to_string().contains("aws:amz:REGION:SERVICE"),
        "{}",
        err
    );
}

#[test]
fn other_providers_are_refused() {
    for command in [
        "curl --aws-sigv4 osc:osc:eu:api -u k:s https://x.test",
        "curl --aws-sigv4 aws:amz:a:b:c -u k:s https://x.test",
    ] {
        let err = curl::parse(command).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Unsupported, "{}", command);
        assert_eq!(err.arg_index(), Some(1), "{}", command);
    }
}

#[test]
fn without_credentials_nothing_is_signed_and_a_note_says_so() {
    let cmd = curl::parse("curl --aws-sigv4 aws:amz:us-east-1:s3 https://x.test/a").unwrap();
    assert!(cmd.auth().is_none());
    assert!(cmd
        .notes()
        .iter()
        .any(|n| n.to_string().contains("--aws-sigv4 without -u")));
}
