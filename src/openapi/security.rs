//! Security schemes (OpenAPI 3.1 section 4.8.27, Swagger 2.0 "Security Definitions Object")
//! as secret slots filled from `${NAME}` variables.

use super::error::{child, Warning};
use super::text;
use super::Version;
use crate::json::{Json, Map};

/// Where one scheme's credential goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Slot {
    /// `Authorization: Bearer ${VAR}` (http bearer, oauth2, openIdConnect).
    Bearer,
    /// `Authorization: Basic ...` from `${VAR_USERNAME}` and `${VAR_PASSWORD}`.
    Basic,
    /// An API key in a header, the query or a cookie.
    Key {
        location: &'static str,
        name: String,
    },
    /// OAuth 2.0 client credentials (an `oauth2` scheme's `clientCredentials` flow, Swagger's
    /// `application` flow): the plugin fetches its tokens from `token_url` with
    /// `${VAR_CLIENT_ID}` and `${VAR_CLIENT_SECRET}`. As a per-endpoint parameter it is a
    /// bearer slot.
    ClientCredentials { token_url: String, scope: String },
    /// AWS Signature Version 4 (an AWS document's `apiKey` scheme with
    /// `x-amazon-apigateway-authtype: awsSigv4`, or `awsS3`), with the standard
    /// `${AWS_ACCESS_KEY_ID}` and `${AWS_SECRET_ACCESS_KEY}`. As a per-endpoint parameter it
    /// is an `Authorization` header slot.
    AwsSigV4 { region: String, service: String },
}

/// The variables an AWS Signature Version 4 scheme reads: AWS's own names, which the AWS
/// command line and SDKs read too.
const AWS_VARIABLES: [&str; 2] = ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"];

/// One scheme the importer can fill.
#[derive(Clone, Debug)]
pub(crate) struct Scheme {
    pub name: String,
    pub slot: Slot,
    /// The variable, or for basic the prefix of `_USERNAME` and `_PASSWORD`.
    pub variable: String,
}

impl Scheme {
    /// The variables the scheme reads.
    pub(crate) fn variables(&self) -> Vec<String> {
        match self.slot {
            Slot::ClientCredentials { .. } => vec![
                format!("{}_CLIENT_ID", self.variable),
                format!("{}_CLIENT_SECRET", self.variable),
            ],
            Slot::Basic => vec![
                format!("{}_USERNAME", self.variable),
                format!("{}_PASSWORD", self.variable),
            ],
            Slot::AwsSigV4 { .. } => AWS_VARIABLES.iter().map(|v| v.to_string()).collect(),
            _ => vec![self.variable.clone()],
        }
    }

    /// The plugin `auth` for this scheme alone.
    pub(crate) fn auth(&self) -> Json {
        let mut map = Map::new();
        match &self.slot {
            Slot::Bearer => {
                map.insert("type", "bearer");
                map.insert("token", format!("${{{}}}", self.variable));
            }
            Slot::Basic => {
                map.insert("type", "basic");
                map.insert("username", format!("${{{}_USERNAME}}", self.variable));
                map.insert("password", format!("${{{}_PASSWORD}}", self.variable));
            }
            Slot::Key { location, name } => {
                map.insert("type", *location);
                map.insert("name", name.as_str());
                map.insert("value", format!("${{{}}}", self.variable));
            }
            Slot::ClientCredentials { token_url, scope } => {
                map.insert("type", "oauth2_client_credentials");
                map.insert("token_url", token_url.as_str());
                map.insert("client_id", format!("${{{}_CLIENT_ID}}", self.variable));
                map.insert(
                    "client_secret",
                    format!("${{{}_CLIENT_SECRET}}", self.variable),
                );
                if !scope.is_empty() {
                    map.insert("scope", scope.as_str());
                }
            }
            Slot::AwsSigV4 { region, service } => {
                map.insert("type", "aws_sigv4");
                map.insert("region", region.as_str());
                map.insert("service", service.as_str());
                map.insert("access_key_id", format!("${{{}}}", AWS_VARIABLES[0]));
                map.insert("secret_access_key", format!("${{{}}}", AWS_VARIABLES[1]));
            }
        }
        Json::Object(map)
    }

    /// Whether a plugin `auth` can say it (a cookie key cannot).
    pub(crate) fn has_auth(&self) -> bool {
        !matches!(&self.slot, Slot::Key { location, .. } if *location == "cookie")
    }

    /// The secret parameter that carries it on one endpoint (named `param_name`). Basic
    /// credentials are one variable there: `${VAR}`, the Base64 of `user:password`.
    pub(crate) fn param(&self, param_name: &str) -> Json {
        let mut map = Map::new();
        map.insert("name", param_name);
        let (wire, location, value) = match &self.slot {
            Slot::AwsSigV4 { .. } => (
                "Authorization".to_string(),
                "header",
                format!("${{{}}}", self.variable),
            ),
            Slot::Bearer | Slot::ClientCredentials { .. } => (
                "Authorization".to_string(),
                "header",
                format!("Bearer ${{{}}}", self.variable),
            ),
            Slot::Basic => (
                "Authorization".to_string(),
                "header",
                format!("Basic ${{{}_BASIC}}", self.variable),
            ),
            Slot::Key { location, name } => {
                (name.clone(), *location, format!("${{{}}}", self.variable))
            }
        };
        if wire != param_name {
            map.insert("wire_name", wire);
        }
        map.insert("in", location);
        map.insert("secret", true);
        map.insert("default", value);
        Json::Object(map)
    }

    /// The variables the per-endpoint parameter reads.
    pub(crate) fn param_variables(&self) -> Vec<String> {
        match self.slot {
            Slot::Basic => vec![format!("{}_BASIC", self.variable)],
            _ => vec![self.variable.clone()],
        }
    }
}

/// The schemes of the document, by name, in document order; what cannot be filled is a
/// warning.
pub(crate) fn schemes(
    root: &Json,
    version: Version,
    prefix: &str,
    warnings: &mut Vec<Warning>,
) -> Vec<Scheme> {
    let at = if version == Version::Swagger2 {
        String::from("/securityDefinitions")
    } else {
        String::from("/components/securitySchemes")
    };
    let map = match root.pointer(&at).and_then(Json::as_object) {
        Some(map) => map,
        None => return Vec::new(),
    };
    let mut out = Vec::new();
    for (name, scheme) in map.iter() {
        let here = child(&at, name);
        let kind = scheme.get("type").and_then(Json::as_str).unwrap_or("");
        let variable = text::env_name(prefix, name);
        let aws = scheme
            .get("x-amazon-apigateway-authtype")
            .and_then(Json::as_str);
        let slot = match (kind, aws) {
            ("apiKey", Some("awsSigv4")) | ("apiKey", Some("awsS3")) => aws_sigv4(root, aws),
            ("apiKey", Some(other)) => {
                warnings.push(Warning::new(
                    here,
                    format!(
                        "x-amazon-apigateway-authtype '{}' is not supported (only awsSigv4 and awsS3): not imported",
                        other
                    ),
                ));
                continue;
            }
            ("apiKey", None) => {
                let location = match scheme.get("in").and_then(Json::as_str) {
                    Some("header") => "header",
                    Some("query") => "query",
                    Some("cookie") => "cookie",
                    _ => {
                        warnings.push(Warning::new(here, "an apiKey scheme needs 'in' to be header, query or cookie: not imported"));
                        continue;
                    }
                };
                let key_name = match scheme.get("name").and_then(Json::as_str) {
                    Some(n) if !n.is_empty() => n.to_string(),
                    _ => {
                        warnings.push(Warning::new(
                            here,
                            "an apiKey scheme needs a 'name': not imported",
                        ));
                        continue;
                    }
                };
                Slot::Key {
                    location,
                    name: key_name,
                }
            }
            ("basic", _) => Slot::Basic,
            ("http", _) => match scheme
                .get("scheme")
                .and_then(Json::as_str)
                .map(str::to_ascii_lowercase)
                .as_deref()
            {
                Some("bearer") => Slot::Bearer,
                Some("basic") => Slot::Basic,
                other => {
                    warnings.push(Warning::new(
                        here,
                        format!(
                            "http scheme '{}' is not supported: not imported",
                            other.unwrap_or("")
                        ),
                    ));
                    continue;
                }
            },
            ("oauth2", _) => match client_credentials(root, scheme, name) {
                Some(slot) => slot,
                None => {
                    warnings.push(Warning::new(
                        here,
                        format!(
                            "oauth2 scheme: a bearer token slot ${{{}}}; the token is not fetched, set it yourself",
                            variable
                        ),
                    ));
                    Slot::Bearer
                }
            },
            ("openIdConnect", _) => {
                warnings.push(Warning::new(
                    here,
                    format!(
                        "{} scheme: a bearer token slot ${{{}}}; the token is not fetched, set it yourself",
                        kind, variable
                    ),
                ));
                Slot::Bearer
            }
            (other, _) => {
                warnings.push(Warning::new(
                    here,
                    format!(
                        "security scheme type '{}' is not supported: not imported",
                        other
                    ),
                ));
                continue;
            }
        };
        out.push(Scheme {
            name: name.clone(),
            slot,
            variable,
        });
    }
    out
}

/// An AWS document's signing scheme: the service is `info.x-aws-signingName` (else
/// `info.x-serviceName`; `s3` for `awsS3`), the region the default of the first server's
/// variable `region` (the server the base URL is made from), else `us-east-1`, where AWS's
/// global endpoints sign.
fn aws_sigv4(root: &Json, authtype: Option<&str>) -> Slot {
    let info = |key: &str| {
        root.pointer(&format!("/info/{}", key))
            .and_then(Json::as_str)
    };
    let service = match authtype {
        Some("awsS3") => "s3",
        _ => info("x-aws-signingName")
            .or_else(|| info("x-serviceName"))
            .unwrap_or(""),
    };
    let region = root
        .pointer("/servers/0/variables/region/default")
        .and_then(Json::as_str)
        .unwrap_or("us-east-1");
    Slot::AwsSigV4 {
        region: region.to_string(),
        service: service.to_string(),
    }
}

/// The client credentials flow of an `oauth2` scheme (OpenAPI 3 `flows.clientCredentials`,
/// Swagger 2 `flow: application`) with an absolute `https` or loopback `tokenUrl`; the scope
/// asked for is every scope the document's security requirements name for the scheme.
fn client_credentials(root: &Json, scheme: &Json, name: &str) -> Option<Slot> {
    let token_url = match scheme.pointer("/flows/clientCredentials") {
        Some(flow) => flow.get("tokenUrl")?.as_str()?,
        None if scheme.get("flow").and_then(Json::as_str) == Some("application") => {
            scheme.get("tokenUrl")?.as_str()?
        }
        None => return None,
    };
    if crate::plugin::token_url_problem(token_url, false).is_some() {
        return None;
    }
    let mut scopes: Vec<&str> = Vec::new();
    if let Some(list) = root.get("security") {
        add_scopes(list, name, &mut scopes);
    }
    let paths = root.get("paths").and_then(Json::as_object);
    for item in paths.into_iter().flat_map(|paths| paths.values()) {
        for op in item.as_object().into_iter().flat_map(|ops| ops.values()) {
            if let Some(list) = op.get("security") {
                add_scopes(list, name, &mut scopes);
            }
        }
    }
    Some(Slot::ClientCredentials {
        token_url: token_url.to_string(),
        scope: scopes.join(" "),
    })
}

/// The scopes a list of security requirements names for scheme `name`, once each.
fn add_scopes<'a>(list: &'a Json, name: &str, scopes: &mut Vec<&'a str>) {
    for requirement in list.as_array().map(Vec::as_slice).unwrap_or(&[]) {
        let names = requirement.get(name).and_then(Json::as_array);
        for scope in names.map(Vec::as_slice).unwrap_or(&[]) {
            if let Some(scope) = scope.as_str() {
                if !scopes.contains(&scope) {
                    scopes.push(scope);
                }
            }
        }
    }
}

/// The scheme names an operation needs: its `security`, else the document's; the first
/// requirement whose schemes are all known (OpenAPI 3.1 section 4.8.30: any one requirement
/// satisfies). `None` when it needs none.
pub(crate) fn requirement(
    op: &Json,
    root: &Json,
    schemes: &[Scheme],
    at: &str,
    warnings: &mut Vec<Warning>,
) -> Vec<String> {
    let (list, list_at) = match op.get("security") {
        Some(list) => (list, child(at, "security")),
        None => match root.get("security") {
            Some(list) => (list, String::from("/security")),
            None => return Vec::new(),
        },
    };
    let alternatives = match list.as_array() {
        Some(list) => list,
        None => return Vec::new(),
    };
    if alternatives.is_empty() {
        return Vec::new();
    }
    let names_of = |req: &Json| -> Vec<String> {
        req.as_object()
            .map(|m| m.keys().map(|k| k.to_string()).collect())
            .unwrap_or_default()
    };
    let known = |names: &[String]| names.iter().all(|n| schemes.iter().any(|s| &s.name == n));
    // An empty requirement (`{}`) in the list makes security optional: none is sent.
    if alternatives
        .iter()
        .any(|r| r.as_object().map_or(false, Map::is_empty))
    {
        return Vec::new();
    }
    for req in alternatives {
        let names = names_of(req);
        if known(&names) {
            return names;
        }
    }
    warnings.push(Warning::new(
        list_at,
        "no security requirement uses only schemes that can be filled: the operation is imported without credentials",
    ));
    Vec::new()
}
