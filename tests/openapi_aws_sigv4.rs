//! AWS documents of the APIs-guru directory declare their signing as an `apiKey` scheme
//! named `hmac` with `x-amazon-apigateway-authtype: awsSigv4` (S3's says `awsS3`); the
//! importer makes it `aws_sigv4` auth for the document's signing name and the region its
//! base URL is made with. The documents here are cut down from the directory's.

use httptool::json::{self, Json};
use httptool::openapi;

/// An AWS-style document: the `hmac` scheme with `authtype`, `info` with `extra`.
fn document(authtype: &str, extra_info: &str, servers: &str) -> Json {
    json::parse(&format!(
        r#"{{"openapi": "3.0.0",
            "info": {{"title": "Amazon Thing", "version": "2020-01-01",
                      "x-serviceName": "thing"{}}},
            "servers": {},
            "paths": {{"/things/{{id}}": {{"get": {{"operationId": "GetThing",
                "parameters": [{{"name": "id", "in": "path", "required": true,
                                 "schema": {{"type": "string"}}}}],
                "responses": {{"200": {{"description": "ok"}}}}}}}}}},
            "components": {{"securitySchemes": {{"hmac": {{"type": "apiKey",
                "name": "Authorization", "in": "header",
                "description": "Amazon Signature authorization v4",
                "x-amazon-apigateway-authtype": "{}"}}}}}},
            "security": [{{"hmac": []}}]}}"#,
        extra_info, servers, authtype
    ))
    .unwrap()
}

const REGIONAL: &str = r#"[{"url": "https://thing.{region}.amazonaws.com",
    "variables": {"region": {"default": "eu-west-1", "enum": ["eu-west-1", "us-east-1"]}}}]"#;

fn auth_of(document: &Json) -> Json {
    let import = openapi::import(document).unwrap();
    import.plugin().to_json().get("auth").cloned().unwrap()
}

#[test]
fn an_aws_sigv4_scheme_becomes_aws_sigv4_auth_with_the_signing_name_and_region() {
    let doc = document(
        "awsSigv4",
        r#", "x-aws-signingName": "thingsigner""#,
        REGIONAL,
    );
    let import = openapi::import(&doc).unwrap();
    assert_eq!(
        import.plugin().base_url().as_str(),
        "https://thing.eu-west-1.amazonaws.com/"
    );
    assert_eq!(
        import.plugin().to_json().get("auth").unwrap(),
        &json::parse(
            r#"{"type": "aws_sigv4", "region": "eu-west-1", "service": "thingsigner",
                "access_key_id": "${AWS_ACCESS_KEY_ID}",
                "secret_access_key": "${AWS_SECRET_ACCESS_KEY}"}"#
        )
        .unwrap()
    );
}

#[test]
fn without_a_signing_name_the_service_name_signs_and_a_global_endpoint_signs_in_us_east_1() {
    let doc = document(
        "awsSigv4",
        "",
        r#"[{"url": "https://thing.amazonaws.com"},
            {"url": "https://thing.{region}.amazonaws.com",
             "variables": {"region": {"default": "us-gov-west-1"}}}]"#,
    );
    let auth = auth_of(&doc);
    assert_eq!(auth.get("service").and_then(Json::as_str), Some("thing"));
    assert_eq!(auth.get("region").and_then(Json::as_str), Some("us-east-1"));
}

#[test]
fn s3s_scheme_signs_for_s3() {
    let auth = auth_of(&document("awsS3", "", REGIONAL));
    assert_eq!(auth.get("type").and_then(Json::as_str), Some("aws_sigv4"));
    assert_eq!(auth.get("service").and_then(Json::as_str), Some("s3"));
}

#[test]
fn signature_version_2_is_a_warning_and_no_auth() {
    let import = openapi::import(&document("awsSigv2", "", REGIONAL)).unwrap();
    assert!(import.plugin().auth().is_none());
    let warnings: Vec<String> = import.warnings().iter().map(|w| w.to_string()).collect();
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("'awsSigv2' is not supported")),
        "{:?}",
        warnings
    );
}
