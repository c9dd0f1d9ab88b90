//! Headers: static headers, credentials, and what is left out.

use super::body::Body;
use super::Converter;
use crate::curl::infer;
use crate::curl::sent::{effective_headers, SentHeader};
use crate::http::{is_credential_name, media};
use crate::plugin::{Auth, ConfigValue};

impl Converter<'_> {
    /// Every header curl would send but its own defaults: static headers, credentials, or
    /// left out with a note.
    pub(super) fn headers(&mut self, body: &Body) {
        for header in effective_headers(self.cmd) {
            self.header(header, body);
        }
        self.join_repeated_headers();
        for removed in self.cmd.removed_headers().to_vec() {
            let message = match removed.to_ascii_lowercase().as_str() {
                "user-agent" => {
                    "-H 'User-Agent:' removes curl's User-Agent; httptool sends its own"
                }
                "content-type" if !body.is_none() => {
                    "-H 'Content-Type:' removes the body's type; httptool sends one"
                }
                "host" => "-H 'Host:' removes the Host header; httptool always sends it",
                _ => continue,
            };
            self.note(0, message.to_string());
        }
    }

    fn header(&mut self, header: SentHeader, body: &Body) {
        let SentHeader {
            name,
            value,
            arg_index,
            implied,
        } = header;
        // curl's own form type for data that goes to the query instead (but not for empty
        // data, which curl sends as an empty body of that type).
        if implied && body.is_none() && !self.empty_data {
            return;
        }
        if let Some(reason) = self.left_out(&name, &value, body) {
            if !implied {
                let message = format!("header `{}` is left out: {}", name, reason);
                self.note(arg_index, message);
            }
            return;
        }
        let lower = name.to_ascii_lowercase();
        if lower == "authorization" {
            return self.authorization_header(&name, &value, arg_index);
        }
        if lower == "content-type" && !implied && !self.is_last(&name, arg_index) {
            // One type, not a list: the last one decides, as it does for the body.
            let message = "the Content-Type header is repeated; only the last is kept";
            return self.note(arg_index, message.to_string());
        }
        if lower == "cookie" {
            return self.cookie(&name, &value, arg_index);
        }
        if is_credential_name(&name)
            || infer::is_secret_value(&value)
            || self.has_secret_variable(&value)
            || self.is_secret_header(&name)
        {
            return self.secret_header(&name, &value, arg_index);
        }
        if lower == "content-type" && matches!(body, Body::Json(..)) && media::is_form(&value) {
            let message = "the data is JSON but curl sends it as \
                           application/x-www-form-urlencoded; the tool sends the same type: \
                           add -H 'Content-Type: application/json' if the API expects JSON";
            self.note(arg_index, message.to_string());
        }
        self.static_header(&name, &value, arg_index);
    }

    /// Whether the `-H` header at `arg_index` is the last with this name.
    fn is_last(&self, name: &str, arg_index: usize) -> bool {
        self.last_header.get(&name.to_ascii_lowercase()) == Some(&arg_index)
    }

    /// The last `Authorization` header is in the auth slot (or, empty, a static header);
    /// curl would send the others too.
    fn authorization_header(&mut self, name: &str, value: &str, arg_index: usize) {
        if !self.is_last(name, arg_index) {
            let message = "the Authorization header is repeated; only the last is kept";
            self.note(arg_index, message.to_string());
        } else if value.is_empty() {
            self.static_header(name, value, arg_index);
        }
    }

    /// Why a header is left out, if it is.
    pub(super) fn left_out(&self, name: &str, value: &str, body: &Body) -> Option<&'static str> {
        let lower = name.to_ascii_lowercase();
        match lower.as_str() {
            "host" if self.is_url_host(value) => Some("it names the URL's own host"),
            "content-length" | "transfer-encoding" | "connection" | "keep-alive" => {
                Some("the client writes it")
            }
            "expect" => Some("the client does not wait for 100 Continue"),
            "x-amz-security-token" | "x-amz-date" | "x-amz-content-sha256"
                if matches!(self.auth, Some(Auth::AwsSigV4(_))) =>
            {
                Some("the plugin's AWS signature writes it")
            }
            "accept-encoding" => {
                Some("httptool does not decompress responses, so it asks for none")
            }
            _ if lower.starts_with("proxy-") => {
                Some("it is for a proxy, which is not carried over")
            }
            "content-type" if body.is_multipart() => {
                Some("a multipart body's type carries the client's own boundary")
            }
            "content-type"
                if matches!(body, Body::Form(..))
                    && media::is_form(value)
                    && !value.contains(';') =>
            {
                Some("the plugin sends the same type with a form body")
            }
            _ if !self.options.keep_browser_headers && infer::is_browser_header(&lower) => {
                Some("a browser adds it and the API does not need it")
            }
            _ => None,
        }
    }

    /// Whether a `Host` value names the URL's own host and port (a port left out being the
    /// scheme's default, RFC 9110 section 7.2).
    fn is_url_host(&self, value: &str) -> bool {
        let value = value.trim();
        let default = self.url.scheme().default_port();
        let (host, port) = match value.rfind(':') {
            Some(at) if !value[at..].contains(']') => (&value[..at], value[at + 1..].parse().ok()),
            _ => (value, Some(default)),
        };
        host.eq_ignore_ascii_case(self.url.host_str())
            && port == Some(self.url.port().unwrap_or(default))
    }

    pub(super) fn cookie(&mut self, name: &str, value: &str, arg_index: usize) {
        if self.header_position(name).is_some() {
            let message = "the Cookie header is repeated; only its first value is kept";
            self.note(arg_index, message.to_string());
            return;
        }
        let secret = self.secret("cookie", "the cookies", value);
        self.push_header(name, secret);
    }

    /// A static header; a repeated one is joined with `, ` (RFC 9110 section 5.3). A value
    /// holding a shell variable is its `${NAME}` template.
    pub(super) fn static_header(&mut self, name: &str, value: &str, arg_index: usize) {
        let purpose = format!("the value of the {} header", name);
        if let Some(at) = self.header_position(name) {
            let message = format!(
                "header `{}` is repeated; its values are joined with \", \" into one",
                name
            );
            self.note(arg_index, message);
            // This value's variables are listed now, in the order met; the header's value
            // is made from the joined text once all are read (`join_repeated_headers`).
            if self.has_variable(value) {
                self.shell_template(value, &purpose);
            }
            if let Some((text, repeated)) = self.header_text.get_mut(&at) {
                text.push_str(", ");
                text.push_str(value);
                *repeated = true;
            }
            return;
        }
        let config = self.header_value(value, &purpose);
        self.header_text
            .insert(self.headers.len(), (value.to_string(), false));
        self.push_header(name, config);
    }

    /// A static header's value: its text, or its `${NAME}` template.
    fn header_value(&mut self, text: &str, purpose: &str) -> ConfigValue {
        if self.has_variable(text) {
            self.shell_template(text, purpose)
        } else {
            ConfigValue::literal(text.to_string())
        }
    }

    /// Gives each repeated static header its joined value, once.
    fn join_repeated_headers(&mut self) {
        let mut repeated: Vec<(usize, String)> = std::mem::take(&mut self.header_text)
            .into_iter()
            .filter(|(_, (_, repeated))| *repeated)
            .map(|(at, (text, _))| (at, text))
            .collect();
        repeated.sort_unstable_by_key(|(at, _)| *at);
        for (at, text) in repeated {
            let name = match self.headers.get(at) {
                Some((name, _)) => name.clone(),
                None => continue,
            };
            let config = self.header_value(&text, &format!("the value of the {} header", name));
            if let Some((_, slot)) = self.headers.get_mut(at) {
                *slot = config;
            }
        }
    }

    /// Where the header `name` (any case) is among the headers gathered.
    pub(super) fn header_position(&self, name: &str) -> Option<usize> {
        self.header_at.get(&name.to_ascii_lowercase()).copied()
    }

    /// Adds a header not gathered yet.
    pub(super) fn push_header(&mut self, name: &str, value: ConfigValue) {
        self.header_at
            .insert(name.to_ascii_lowercase(), self.headers.len());
        self.headers.push((name.to_string(), value));
    }
}
