//! Credentials: the auth slot, secret headers and query values, `${NAME}` variables.

use super::{Converter, Variable};
use crate::curl::command::Auth as CurlAuth;
use crate::curl::error::{Error, Reason};
use crate::curl::sent::userinfo;
use crate::http::{self, base64_decode};
use crate::plugin::naming;
use crate::plugin::{Auth, AwsSigV4, ConfigValue, Location, ParamBuilder};

impl Converter<'_> {
    /// A credential's value: as it is with [`ImportOptions::keep_secrets`] (or when it is
    /// empty), else a `${NAME}` variable that holds the value in memory.
    ///
    /// [`ImportOptions::keep_secrets`]: super::ImportOptions::keep_secrets
    pub(super) fn secret(&mut self, suffix: &str, purpose: &str, value: &str) -> ConfigValue {
        self.secret_after("", suffix, purpose, value)
    }

    /// As [`secret`](Self::secret), after a `prefix` that is not secret (the scheme of an
    /// `Authorization` value, `Token `): only the part after it becomes the variable.
    fn secret_after(
        &mut self,
        prefix: &str,
        suffix: &str,
        purpose: &str,
        value: &str,
    ) -> ConfigValue {
        let full = format!("{}{}", prefix, value);
        if self.has_variable(&full) {
            return self.shell_template(&full, purpose);
        }
        if self.options.keep_secrets || value.is_empty() {
            return ConfigValue::literal(full);
        }
        let name = unique_variable(
            &naming::env_name(&[&self.env_prefix, suffix]),
            &self.variables,
            self.cmd.variables(),
        );
        // `$${` writes a literal `${` in a template position.
        let template = format!("{}${{{}}}", prefix.replace("${", "$${"), name);
        self.listed.insert(name.clone());
        self.variables.push(Variable {
            name,
            purpose: purpose.to_string(),
        });
        ConfigValue::from_template(template, full)
    }

    /// Whether `text` references one of the command's shell variables (`${NAME}` in it).
    pub(super) fn has_variable(&self, text: &str) -> bool {
        self.variables_in(text).next().is_some()
    }

    /// Whether `text` references a shell variable whose name says it is a credential
    /// (`$STRIPE_KEY`, `$GITHUB_TOKEN`), judged as header and query names are.
    pub(super) fn has_secret_variable(&self, text: &str) -> bool {
        self.variables_in(text).any(http::is_credential_name)
    }

    /// The command's shell variables `text` references, each `${NAME}` looked up once (a
    /// search for every variable in every value was quadratic). Every `${` is tried, so
    /// `${A${B}` finds `B`.
    fn variables_in<'t>(&'t self, text: &'t str) -> impl Iterator<Item = &'t str> + 't {
        text.match_indices("${").filter_map(move |(at, _)| {
            let after = &text[at + 2..];
            let name = &after[..after.find('}')?];
            self.shell_names.contains(name).then_some(name)
        })
    }

    /// A value holding shell variables: a `${NAME}` template under the user's own names (other
    /// `${` written `$${`, literal in the file), each name listed once in the variables. The
    /// plugin in memory holds the text as written, `${NAME}` and all: nothing reads the
    /// environment here; loading the written file does.
    pub(super) fn shell_template(&mut self, text: &str, purpose: &str) -> ConfigValue {
        let mut template = String::with_capacity(text.len() + 8);
        let mut rest = text;
        while let Some(at) = rest.find("${") {
            template.push_str(&rest[..at]);
            let after = &rest[at + 2..];
            let name = after.find('}').map(|end| &after[..end]);
            match name.filter(|n| self.shell_names.contains(n)) {
                Some(name) => {
                    if template.ends_with('$') && self.failed.is_none() {
                        // `$${NAME}` would read back as the literal text `${NAME}`.
                        self.failed = Some(Error::from(Reason::VariablePlace {
                            name: name.to_string(),
                            arg_index: 0,
                            reason: "a `$` right before it cannot be written in a plugin \
                                     file; write that `$` otherwise",
                        }));
                    }
                    template.push_str("${");
                    template.push_str(name);
                    template.push('}');
                    if self.listed.insert(name.to_string()) {
                        self.variables.push(Variable {
                            name: name.to_string(),
                            purpose: purpose.to_string(),
                        });
                    }
                    rest = &after[name.len() + 1..];
                }
                None => {
                    template.push_str("$${");
                    rest = after;
                }
            }
        }
        template.push_str(rest);
        ConfigValue::from_template(template, text.to_string())
    }

    /// The auth slot, from what curl sends as `Authorization`: an `-H Authorization` header
    /// wins, then `--oauth2-bearer`, then `-u`, then credentials in the URL, as in curl.
    pub(super) fn credentials(&mut self) {
        let header = self
            .cmd
            .headers()
            .iter()
            .rev()
            .find(|h| h.name().eq_ignore_ascii_case("authorization"));
        if let Some(header) = header {
            if self.cmd.auth().is_some() {
                let message =
                    "-u/--oauth2-bearer is not sent: the Authorization header wins, as in curl";
                self.note(header.arg_index(), message.to_string());
            }
            // An empty header is sent as it is, as a static header.
            if !header.value().is_empty() {
                let value = header.value().to_string();
                self.authorization(&value);
            }
            return;
        }
        match self.cmd.auth() {
            Some(CurlAuth::Bearer { token }) => {
                let token = token.clone();
                let value = self.secret("token", "the bearer token", &token);
                self.auth = Some(Auth::bearer(value));
            }
            Some(CurlAuth::AwsSigV4 {
                access_key_id,
                secret_access_key,
                region,
                service,
            }) => {
                let (key, secret) = (access_key_id.clone(), secret_access_key.clone());
                let (region, service) = (region.clone(), service.clone());
                self.aws_sigv4(&key, &secret, region, service);
            }
            Some(CurlAuth::Basic { user, password })
            | Some(CurlAuth::Digest { user, password }) => {
                let (user, password) = (user.clone(), password.clone());
                if password.is_none() {
                    let message = "-u/--user has no password: the plugin's password is empty \
                                   until you set it";
                    self.note(0, message.to_string());
                }
                self.basic(&user, password.as_deref().unwrap_or(""));
            }
            _ => {
                if let Some((user, password)) = userinfo(self.cmd.url()) {
                    self.basic(&user, &password);
                }
            }
        }
    }

    /// `--aws-sigv4 -u KEY:SECRET`: AWS Signature Version 4, the key and secret as
    /// variables, a region or service the option leaves out read from the host
    /// (`SERVICE.REGION.amazonaws.com`, as curl reads it), and an `X-Amz-Security-Token`
    /// header the session token of temporary credentials.
    fn aws_sigv4(
        &mut self,
        key: &str,
        secret: &str,
        region: Option<String>,
        service: Option<String>,
    ) {
        let (host_service, host_region) = aws_host_parts(self.url.host_str());
        let region = region.or(host_region);
        let service = service.or(host_service);
        let (region, service) = match (region, service) {
            (Some(region), Some(service)) => (region, service),
            (region, service) => {
                if self.failed.is_none() {
                    self.failed = Some(Error::from(Reason::Unsupported {
                        option: "--aws-sigv4".to_string(),
                        arg_index: 0,
                        reason: "the region and service are neither given nor read from the \
                                 host (SERVICE.REGION.amazonaws.com): write \
                                 `aws:amz:REGION:SERVICE`",
                    }));
                }
                (region.unwrap_or_default(), service.unwrap_or_default())
            }
        };
        let key = self.secret("access_key_id", "the AWS access key id", key);
        let secret = self.secret("secret_access_key", "the AWS secret access key", secret);
        let mut sigv4 = AwsSigV4::new(region, service, key, secret);
        let token = self
            .cmd
            .headers()
            .iter()
            .rev()
            .find(|h| h.name().eq_ignore_ascii_case("x-amz-security-token"))
            .map(|h| h.value().to_string());
        if let Some(token) = token.filter(|t| !t.is_empty()) {
            let token = self.secret("session_token", "the AWS session token", &token);
            sigv4 = sigv4.with_session_token(token);
        }
        self.auth = Some(Auth::from(sigv4));
    }

    /// `-u` (or the URL's) credentials: Basic, or Digest after `--digest`.
    pub(super) fn basic(&mut self, user: &str, password: &str) {
        let kind = if self.cmd.digest { "digest" } else { "basic" };
        let username = self.secret("username", &format!("the {} auth user name", kind), user);
        let password = self.secret("password", &format!("the {} auth password", kind), password);
        self.auth = Some(if self.cmd.digest {
            Auth::digest(username, password)
        } else {
            Auth::basic(username, password)
        });
    }

    /// An `Authorization` value: bearer and basic credentials become that auth, any other
    /// scheme a header auth whose credential (after the scheme) is the secret part.
    pub(super) fn authorization(&mut self, value: &str) {
        let (scheme, credential) = match value.split_once(' ') {
            Some((scheme, credential)) => (scheme, credential.trim()),
            None => ("", value),
        };
        if scheme.eq_ignore_ascii_case("bearer") {
            let token = self.secret("token", "the bearer token", credential);
            self.auth = Some(Auth::bearer(token));
            return;
        }
        if scheme.eq_ignore_ascii_case("basic") {
            let decoded = base64_decode(credential).and_then(|b| String::from_utf8(b).ok());
            if let Some((user, password)) = decoded.as_deref().and_then(|d| d.split_once(':')) {
                let (user, password) = (user.to_string(), password.to_string());
                self.basic(&user, &password);
                return;
            }
        }
        let prefix = if scheme.is_empty() {
            String::new()
        } else {
            format!("{} ", scheme)
        };
        let purpose = "the credential of the Authorization header";
        let secret = self.secret_after(&prefix, "authorization", purpose, credential);
        self.auth = Some(Auth::header("Authorization", secret));
    }

    /// A credential-looking header: the auth slot when it is free, else a secret header
    /// parameter (hidden from the model).
    pub(super) fn secret_header(&mut self, name: &str, value: &str, arg_index: usize) {
        // A header repeated with a credential in one of its values keeps its first value,
        // secret or not: joining would put the credential in a static header.
        let repeated = self.is_secret_header(name) || self.header_position(name).is_some();
        if repeated {
            let message = format!(
                "header `{}` is repeated; only its first value is kept",
                name
            );
            self.note(arg_index, message);
            return;
        }
        let purpose = format!("the value of the {} header", name);
        let secret = self.secret(name, &purpose, value);
        if self.auth.is_none() {
            self.auth = Some(Auth::header(name, secret));
            return;
        }
        let builder = self.named(Location::Header, name).secret(true);
        self.push_secret_param(builder, secret);
    }

    /// Whether a header of this name already holds a credential (the auth's, or a secret
    /// parameter's).
    pub(super) fn is_secret_header(&self, name: &str) -> bool {
        let auth_header = self.auth.as_ref().and_then(Auth::header_name);
        auth_header.map_or(false, |h| h.eq_ignore_ascii_case(name))
            || self.params.iter().any(|p| {
                p.location() == Location::Header && p.wire_name().eq_ignore_ascii_case(name)
            })
    }

    /// A credential-looking query value: the auth slot when it is free, else a secret query
    /// parameter.
    pub(super) fn secret_query(&mut self, name: &str, value: &str) {
        let repeated = self
            .params
            .iter()
            .any(|p| p.is_secret() && p.wire_name() == name)
            || matches!(&self.auth, Some(Auth::Query { name: n, .. }) if n == name);
        if repeated {
            let message = format!(
                "query parameter `{}` is repeated; only its first value is kept",
                name
            );
            self.note(self.cmd.url_index(), message);
            return;
        }
        let purpose = format!("the {} query parameter", name);
        let secret = self.secret(name, &purpose, value);
        if self.auth.is_none() {
            self.auth = Some(Auth::query(name, secret));
            return;
        }
        let builder = self.named(Location::Query, name).secret(true);
        self.push_secret_param(builder, secret);
    }

    /// A secret parameter whose default is the credential (its `${NAME}` in the file).
    pub(super) fn push_secret_param(&mut self, builder: ParamBuilder, value: ConfigValue) {
        let mut param = builder
            .default(value.value().unwrap_or("").to_string())
            .build();
        param.default_template = value.template().map(str::to_string);
        self.push_param(param, None);
    }
}

fn unique_variable(name: &str, taken: &[Variable], shell: &[String]) -> String {
    let mut names: Vec<String> = taken.iter().map(|v| v.name.clone()).collect();
    // The user's own variables keep their names.
    names.extend(shell.iter().cloned());
    naming::unique(name, &|n| names.iter().any(|t| t == n))
}

/// The service and region of an AWS host, `SERVICE.REGION.amazonaws.com` (an API
/// Gateway's `ID.execute-api.REGION.amazonaws.com` too); a global host,
/// `SERVICE.amazonaws.com`, is in `us-east-1`.
fn aws_host_parts(host: &str) -> (Option<String>, Option<String>) {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    let prefix = match host
        .strip_suffix(".amazonaws.com")
        .or_else(|| host.strip_suffix(".amazonaws.com.cn"))
    {
        Some(prefix) => prefix,
        None => return (None, None),
    };
    let labels: Vec<&str> = prefix.split('.').collect();
    match labels.as_slice() {
        [service] => (Some(service.to_string()), Some("us-east-1".to_string())),
        [.., service, region] => (Some(service.to_string()), Some(region.to_string())),
        [] => (None, None),
    }
}

#[cfg(test)]
mod tests {
    use super::aws_host_parts;

    #[test]
    fn aws_hosts_name_their_service_and_region() {
        let parts = |s: &str, r: &str| (Some(s.to_string()), Some(r.to_string()));
        assert_eq!(
            aws_host_parts("s3.eu-west-1.amazonaws.com"),
            parts("s3", "eu-west-1")
        );
        assert_eq!(
            aws_host_parts("abc123.execute-api.us-west-2.amazonaws.com"),
            parts("execute-api", "us-west-2")
        );
        assert_eq!(
            aws_host_parts("iam.amazonaws.com"),
            parts("iam", "us-east-1")
        );
        assert_eq!(aws_host_parts("api.example.com"), (None, None));
    }
}
