//! Security schemes (OpenAPI 3.1 section 4.8.27, Swagger 2.0 "Security Definitions Object")
//! as secret slots filled from `${NAME}` variables.

use super::error::{child, Warning};
use super::options::Version;
use crate::json::{Json, Map};
use crate::plugin::naming;
use crate::plugin::{Auth, AwsSigV4, ConfigValue, Location, OAuth2, Param};

/// Where one scheme's credential goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Slot {
    /// `Authorization: Bearer ${VAR}` (http bearer, oauth2, openIdConnect).
    Bearer,
    /// `Authorization: Basic ...` from `${VAR_USERNAME}` and `${VAR_PASSWORD}`.
    Basic,
    /// An API key in a header, the query or a cookie.
    Key { location: Location, name: String },
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
    /// The variable, or for basic the prefix of `_USERNAME` and `_PASSWORD`: set by
    /// [`Scheme::for_host`] from the host the credential goes to.
    pub variable: String,
    /// Whether an AWS signing scheme reads AWS's own variables (its host is AWS's).
    aws_names: bool,
}

/// The prefix of every credential variable an imported plugin reads.
pub(crate) const VARIABLE_PREFIX: &str = "HTTPTOOL_";

/// The variable a credential for scheme `scheme` sent to `base_url` is read from:
/// `HTTPTOOL_`, the host (and port) the credential goes to, `___`, the scheme's name, upper
/// case with `_` for every run of other characters (`https://api.github.com` and `token`
/// give `HTTPTOOL_API_GITHUB_COM___TOKEN`). A document names its schemes and its title
/// freely, but not the prefix, and not the host in the name without sending the credential
/// there: it cannot make a plugin read `GITHUB_TOKEN`, or another host's credential.
pub(crate) fn credential_variable(base_url: &str, scheme: &str) -> String {
    let mut out = String::from(VARIABLE_PREFIX);
    push_upper(&mut out, &host_of(base_url));
    out.push_str("___");
    push_upper(&mut out, scheme);
    out
}

/// `host[:port]` of an absolute URL, lower case.
fn host_of(url: &str) -> String {
    let after = url.find("://").map_or(url, |i| &url[i + 3..]);
    let end = after.find(['/', '?', '#']).unwrap_or(after.len());
    let authority = &after[..end];
    let host = authority.rsplit('@').next().unwrap_or(authority);
    host.to_ascii_lowercase()
}

/// `text` in upper case, each run of characters outside `A-Z 0-9` one `_`, none at either
/// end (so `___` in a variable is only ever the separator); `X` when nothing is left.
fn push_upper(out: &mut String, text: &str) {
    if !naming::push_upper_snake(out, text) {
        out.push('X');
    }
}

/// Whether `name` is an RFC 9110 token (section 5.6.2), as a header name must be.
fn is_token(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// Whether `host` is one of AWS's (`*.amazonaws.com`, `*.amazonaws.com.cn`), where a
/// signing scheme may read AWS's own variable names.
fn is_aws_host(host: &str) -> bool {
    let host = host.split(':').next().unwrap_or(host);
    host.ends_with(".amazonaws.com") || host.ends_with(".amazonaws.com.cn")
}

impl Scheme {
    /// This scheme with the variables of a credential sent to `base_url`. A client
    /// credentials flow's id and secret go to its token URL, and are named by its host.
    pub(crate) fn for_host(&self, base_url: &str) -> Scheme {
        let mut scheme = self.clone();
        let goes_to = match &self.slot {
            Slot::ClientCredentials { token_url, .. } => token_url.as_str(),
            _ => base_url,
        };
        scheme.variable = credential_variable(goes_to, &self.name);
        scheme.aws_names = is_aws_host(&host_of(base_url));
        scheme
    }

    /// Where the credential goes: the location and, for a header, the lower-case name.
    /// Two schemes with the same place cannot both be sent.
    pub(crate) fn place(&self) -> (Location, String) {
        match &self.slot {
            Slot::Key { location, name } if *location == Location::Header => {
                (Location::Header, name.to_ascii_lowercase())
            }
            Slot::Key { location, name } => (*location, name.clone()),
            _ => (Location::Header, String::from("authorization")),
        }
    }

    /// The AWS variables a signing scheme reads: AWS's own names on AWS's hosts, else the
    /// scheme's variable with `_ACCESS_KEY_ID` and `_SECRET_ACCESS_KEY`.
    fn aws_variables(&self) -> [String; 2] {
        if self.aws_names {
            [AWS_VARIABLES[0].to_string(), AWS_VARIABLES[1].to_string()]
        } else {
            [
                format!("{}_ACCESS_KEY_ID", self.variable),
                format!("{}_SECRET_ACCESS_KEY", self.variable),
            ]
        }
    }

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
            Slot::AwsSigV4 { .. } => self.aws_variables().to_vec(),
            _ => vec![self.variable.clone()],
        }
    }

    /// The plugin's auth for this scheme alone, each credential a `${NAME}` variable whose
    /// value `lookup` gives; `None` where an auth cannot say it (a cookie key).
    pub(crate) fn auth(&self, lookup: &dyn Fn(&str) -> String) -> Option<Auth> {
        let variable = |name: String| {
            let value = lookup(&name);
            ConfigValue::from_template(format!("${{{}}}", name), value)
        };
        Some(match &self.slot {
            Slot::Bearer => Auth::Bearer {
                token: variable(self.variable.clone()),
            },
            Slot::Basic => Auth::Basic {
                username: variable(format!("{}_USERNAME", self.variable)),
                password: variable(format!("{}_PASSWORD", self.variable)),
            },
            Slot::Key { location, name } => {
                let name = name.clone();
                let value = variable(self.variable.clone());
                match location {
                    Location::Header => Auth::Header { name, value },
                    Location::Query => Auth::Query { name, value },
                    _ => return None,
                }
            }
            Slot::ClientCredentials { token_url, scope } => {
                let mut oauth = OAuth2::client_credentials(
                    ConfigValue::literal(token_url.as_str()),
                    variable(format!("{}_CLIENT_ID", self.variable)),
                    variable(format!("{}_CLIENT_SECRET", self.variable)),
                );
                if !scope.is_empty() {
                    oauth = oauth.with_scope(scope.as_str());
                }
                Auth::OAuth2(oauth)
            }
            Slot::AwsSigV4 { region, service } => {
                let [key_id, secret] = self.aws_variables();
                Auth::AwsSigV4(AwsSigV4::new(
                    ConfigValue::literal(region.as_str()),
                    ConfigValue::literal(service.as_str()),
                    variable(key_id),
                    variable(secret),
                ))
            }
        })
    }

    /// Whether a plugin auth can say it (a cookie key cannot).
    pub(crate) fn has_auth(&self) -> bool {
        !matches!(&self.slot, Slot::Key { location, .. } if *location == Location::Cookie)
    }

    /// The secret parameter that carries it on one endpoint (named `param_name`), its
    /// default a `${NAME}` variable whose value `lookup` gives. Basic credentials are one
    /// variable there: `${VAR}`, the Base64 of `user:password`.
    pub(crate) fn param(&self, param_name: &str, lookup: &dyn Fn(&str) -> String) -> Param {
        let (wire, location, prefix) = match &self.slot {
            Slot::AwsSigV4 { .. } => ("Authorization".to_string(), Location::Header, ""),
            Slot::Bearer | Slot::ClientCredentials { .. } => {
                ("Authorization".to_string(), Location::Header, "Bearer ")
            }
            Slot::Basic => ("Authorization".to_string(), Location::Header, "Basic "),
            Slot::Key { location, name } => (name.clone(), *location, ""),
        };
        let variable = match self.slot {
            Slot::Basic => format!("{}_BASIC", self.variable),
            _ => self.variable.clone(),
        };
        let value = format!("{}{}", prefix, lookup(&variable));
        let template = format!("{}${{{}}}", prefix, variable);
        let mut builder = Param::builder(param_name)
            .location(location)
            .secret(true)
            .default_config(ConfigValue::from_template(template, value));
        if wire != param_name {
            builder = builder.wire_name(wire);
        }
        builder.build()
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
pub(crate) fn schemes(root: &Json, version: Version, warnings: &mut Vec<Warning>) -> Vec<Scheme> {
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
                    Some("header") => Location::Header,
                    Some("query") => Location::Query,
                    Some("cookie") => Location::Cookie,
                    _ => {
                        warnings.push(Warning::new(here, "an apiKey scheme needs 'in' to be header, query or cookie: not imported"));
                        continue;
                    }
                };
                let key_name = match scheme.get("name").and_then(Json::as_str) {
                    // RFC 9110 section 5.1: a field name is a token.
                    Some(n) if location == Location::Header && !is_token(n) => {
                        warnings.push(Warning::new(
                            here,
                            format!(
                                "apiKey header '{}' is not a header name: not imported",
                                super::refs::short(n)
                            ),
                        ));
                        continue;
                    }
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
                        "oauth2 scheme: a bearer token slot; the token is not fetched, set its variable yourself",
                    ));
                    Slot::Bearer
                }
            },
            ("openIdConnect", _) => {
                warnings.push(Warning::new(
                    here,
                    format!(
                        "{} scheme: a bearer token slot; the token is not fetched, set its variable yourself",
                        kind
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
            variable: String::new(),
            aws_names: false,
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
    for (i, req) in alternatives.iter().enumerate() {
        let names = names_of(req);
        if !known(&names) {
            continue;
        }
        let others: Vec<String> = alternatives
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .map(|(_, r)| names_of(r).join(" + "))
            .collect();
        if !others.is_empty() {
            warnings.push(Warning::new(
                list_at.as_str(),
                format!(
                    "security: '{}' is sent; the alternatives '{}' are not (any one requirement satisfies)",
                    super::refs::short(&names.join(" + ")),
                    super::refs::short(&others.join("', '"))
                ),
            ));
        }
        return merge_places(names, schemes, &list_at, warnings);
    }
    warnings.push(Warning::new(
        list_at,
        "no security requirement uses only schemes that can be filled: the operation is imported without credentials",
    ));
    Vec::new()
}

/// The schemes of one requirement, one a place: schemes that put their credential in the
/// same place (two OAuth 2.0 flows, both `Authorization: Bearer`; bearer and basic) are one
/// credential, the first named; a second of another kind there is a warning.
fn merge_places(
    names: Vec<String>,
    schemes: &[Scheme],
    at: &str,
    warnings: &mut Vec<Warning>,
) -> Vec<String> {
    let mut kept: Vec<(String, &Scheme)> = Vec::with_capacity(names.len());
    for name in names {
        let scheme = match schemes.iter().find(|s| s.name == name) {
            Some(scheme) => scheme,
            None => continue,
        };
        let same = kept.iter().find(|(_, k)| k.place() == scheme.place());
        match same {
            None => kept.push((name, scheme)),
            // The same credential under two names: one variable, one header.
            Some((_, k)) if k.slot == scheme.slot || both_bearer(k, scheme) => {}
            Some((first, _)) => warnings.push(Warning::new(
                at,
                format!(
                    "security schemes '{}' and '{}' both put a credential in {} '{}': '{}' is sent",
                    super::refs::short(first),
                    super::refs::short(&name),
                    scheme.place().0,
                    super::refs::short(&scheme.place().1),
                    super::refs::short(first)
                ),
            )),
        }
    }
    kept.into_iter().map(|(name, _)| name).collect()
}

/// Whether both schemes send `Authorization: Bearer` (a bearer slot, an OAuth 2.0 flow).
fn both_bearer(a: &Scheme, b: &Scheme) -> bool {
    let bearer = |s: &Scheme| matches!(s.slot, Slot::Bearer | Slot::ClientCredentials { .. });
    bearer(a) && bearer(b)
}

#[cfg(test)]
mod tests {
    use super::credential_variable;

    #[test]
    fn variables_are_named_by_host_and_scheme() {
        for (url, scheme, want) in [
            (
                "https://api.github.com",
                "token",
                "HTTPTOOL_API_GITHUB_COM___TOKEN",
            ),
            (
                "https://api.github.com/v3/",
                "bearer Auth",
                "HTTPTOOL_API_GITHUB_COM___BEARER_AUTH",
            ),
            (
                "http://127.0.0.1:4010/x",
                "api_key",
                "HTTPTOOL_127_0_0_1_4010___API_KEY",
            ),
            ("https://Example.COM?q", "__", "HTTPTOOL_EXAMPLE_COM___X"),
            ("https://u@h.example", "k", "HTTPTOOL_H_EXAMPLE___K"),
        ] {
            assert_eq!(credential_variable(url, scheme), want, "{} {}", url, scheme);
        }
    }
}
