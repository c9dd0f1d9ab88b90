//! Credentials: the auth slot, secret headers and query values, `${NAME}` variables.

use super::{Converter, Variable};
use crate::curl::command::Auth as CurlAuth;
use crate::curl::infer;
use crate::curl::sent::{base64_decode, userinfo};
use crate::plugin::{Auth, ConfigValue, Location, ParamBuilder};

impl Converter<'_> {
    // ------------------------------------------------------------- credentials

    /// A credential's value: as it is with [`ImportOptions::keep_secrets`] (or when it is
    /// empty), else a `${NAME}` variable (within `template`, where `{}` stands for it) that
    /// holds the value in memory.
    pub(super) fn secret(
        &mut self,
        suffix: &str,
        purpose: String,
        value: &str,
        template: &str,
    ) -> ConfigValue {
        if self.options.keep_secrets || value.is_empty() {
            return ConfigValue::literal(value);
        }
        let name = unique_variable(&infer::env_name(&self.env_prefix, suffix), &self.variables);
        let text = template.replace("{}", &format!("${{{}}}", name));
        let full = template.replace("{}", value);
        self.variables.push(Variable { name, purpose });
        ConfigValue::from_template(text, full)
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
                let value = self.secret("token", "the bearer token".to_string(), &token, "{}");
                self.auth = Some(Auth::bearer(value));
            }
            Some(CurlAuth::Basic { user, password }) => {
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

    pub(super) fn basic(&mut self, user: &str, password: &str) {
        let purpose = "the basic auth user name".to_string();
        let username = self.secret("username", purpose, user, "{}");
        let purpose = "the basic auth password".to_string();
        let password = self.secret("password", purpose, password, "{}");
        self.auth = Some(Auth::basic(username, password));
    }

    /// An `Authorization` value: bearer and basic credentials become that auth, any other
    /// scheme a header auth whose credential (after the scheme) is the secret part.
    pub(super) fn authorization(&mut self, value: &str) {
        let (scheme, credential) = match value.split_once(' ') {
            Some((scheme, credential)) => (scheme, credential.trim()),
            None => ("", value),
        };
        if scheme.eq_ignore_ascii_case("bearer") {
            let token = self.secret("token", "the bearer token".to_string(), credential, "{}");
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
        let template = if scheme.is_empty() {
            "{}".to_string()
        } else {
            format!("{} {{}}", scheme)
        };
        let purpose = "the credential of the Authorization header".to_string();
        let secret = self.secret("authorization", purpose, credential, &template);
        self.auth = Some(Auth::header("Authorization", secret));
    }

    /// A credential-looking header: the auth slot when it is free, else a secret header
    /// parameter (hidden from the model).
    pub(super) fn secret_header(&mut self, name: &str, value: &str, arg_index: usize) {
        let auth_header = self.auth.as_ref().and_then(Auth::header_name);
        let repeated = auth_header.map_or(false, |h| h.eq_ignore_ascii_case(name))
            || self.params.iter().any(|p| {
                p.location() == Location::Header && p.wire_name().eq_ignore_ascii_case(name)
            });
        if repeated {
            let message = format!(
                "header `{}` is repeated; only its first value is kept",
                name
            );
            self.note(arg_index, message);
            return;
        }
        let purpose = format!("the value of the {} header", name);
        let secret = self.secret(name, purpose, value, "{}");
        if self.auth.is_none() {
            self.auth = Some(Auth::header(name, secret));
            return;
        }
        let builder = self.named(Location::Header, name).secret(true);
        self.push_secret_param(builder, secret);
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
        let secret = self.secret(name, purpose, value, "{}");
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

fn unique_variable(name: &str, taken: &[Variable]) -> String {
    let names: Vec<String> = taken.iter().map(|v| v.name.clone()).collect();
    infer::unique(name, &names)
}
