//! The body: JSON members, form fields and multipart parts as parameters.

use std::collections::HashMap;

use super::{distinct, group, typed_values, Converter};
use crate::curl::command::{FormPart, FormValue};
use crate::curl::error::{Error, Reason};
use crate::curl::infer;
use crate::curl::multipart;
use crate::curl::sent::{decode, decode_pairs, joined_data, pairs_are_text};
use crate::http::{is_credential_name, media, Method};
use crate::json::{self, Json, Map};
use crate::plugin::{Location, ParamBuilder, ParamType, MAX_TYPE_DEPTH};

/// The note for data that is not text.
pub(super) const NOT_TEXT: &str = "the data holds bytes that are not UTF-8 (raw or \
                                   percent-encoded); each is replaced with U+FFFD";

/// A form field's value.
enum Field {
    Text(String),
    /// A file; the sample is its path or name.
    File(String),
    /// Text curl would read from a file.
    FromFile,
}

/// What the request's body is.
pub(super) enum Body {
    None,
    /// Parsed JSON, from the data part at this index.
    Json(Json, usize),
    /// JSON that curl would read from a file.
    JsonFile(usize),
    /// `name=value` pairs, decoded.
    Form(Vec<(String, String)>, usize),
    /// `-F` parts.
    Multipart,
    /// A multipart body written out as data (a browser's "Copy as cURL" does so).
    RawMultipart(Vec<multipart::Part>, usize),
}

impl Body {
    pub(super) fn is_none(&self) -> bool {
        matches!(self, Body::None)
    }

    pub(super) fn is_multipart(&self) -> bool {
        matches!(self, Body::Multipart | Body::RawMultipart(..))
    }
}

impl Converter<'_> {
    /// What the body is, from the data or form parts and the content type.
    pub(super) fn body(&mut self) -> Result<Body, Error> {
        if let Some(part) = self.cmd.form().first() {
            return self.check_body_method(Body::Multipart, part.arg_index());
        }
        let data = self.cmd.data();
        let first = match data.first() {
            Some(first) if !self.cmd.get() => first.arg_index(),
            _ => return Ok(Body::None),
        };
        let content_type = self.cmd.header("content-type");
        // `-H 'Content-Type:'` matters only when no value is given too.
        let removed = content_type.is_none()
            && self
                .cmd
                .removed_headers()
                .iter()
                .any(|h| h.eq_ignore_ascii_case("content-type"));
        let json = content_type.map_or(false, media::is_json);
        if data.iter().any(|p| p.file().is_some()) {
            if json {
                return self.check_body_method(Body::JsonFile(first), first);
            }
            return Err(Error::from(Reason::UnsupportedBody {
                arg_index: first,
                reason: "curl would read the data from a file, which httptool does not read; \
                         write the data out, or send JSON (-H 'Content-Type: \
                         application/json') to take it as one `body` parameter"
                    .to_string(),
            }));
        }
        let bytes = joined_data(self.cmd);
        if bytes.is_empty() {
            // `-d ''`: an empty body, which a plugin's POST sends without parameters, with
            // the type curl gives it.
            self.empty_data = true;
            return Ok(Body::None);
        }
        let body = self.data_body(bytes, content_type, removed, first)?;
        self.check_body_method(body, first)
    }

    /// The body of inline data: JSON, multipart parts or form pairs, by the content type.
    fn data_body(
        &mut self,
        bytes: Vec<u8>,
        content_type: Option<&str>,
        removed: bool,
        first: usize,
    ) -> Result<Body, Error> {
        if content_type.map_or(false, media::is_json) {
            let value = json::parse_bytes(&bytes).map_err(|error| {
                Error::from(Reason::InvalidJson {
                    arg_index: first,
                    error,
                })
            })?;
            return Ok(Body::Json(value, first));
        }
        if let Some(boundary) = content_type.and_then(multipart::boundary) {
            let parts = multipart::parse(&bytes, boundary).ok_or_else(|| {
                let reason = "it is multipart/form-data that does not read as parts with the \
                              boundary of its Content-Type";
                Error::from(Reason::UnsupportedBody {
                    arg_index: first,
                    reason: reason.to_string(),
                })
            })?;
            let message = "the multipart data is read into its parts; the tool sends them \
                           with its own boundary";
            self.note(first, message.to_string());
            return Ok(Body::RawMultipart(parts, first));
        }
        if !removed && !content_type.map_or(true, media::is_form) {
            let essence = media::essence(content_type.unwrap_or(""));
            return Err(Error::from(Reason::UnsupportedBody {
                arg_index: first,
                reason: format!(
                    "it is `{}` data; a plugin sends JSON, urlencoded or multipart bodies",
                    shorten(essence)
                ),
            }));
        }
        if !removed {
            // `-d '{"a":1}'` with curl's form type (or one written out): JSON labelled as a
            // form, kept so (the type is a static header).
            if let Ok(value @ (Json::Object(_) | Json::Array(_))) = json::parse_bytes(&bytes) {
                return Ok(Body::Json(value, first));
            }
        }
        if !pairs_are_text(&bytes) {
            self.note(first, NOT_TEXT.to_string());
        }
        Ok(Body::Form(decode_pairs(&bytes), first))
    }

    /// HEAD and OPTIONS have no body in a plugin: form data goes to the query (with a note),
    /// anything else is an error. A GET keeps its body as curl sends it (`-X GET -d`), JSON
    /// or a form, through the endpoint's `allow_get_body` (as search engines' `_search`
    /// reads it), with a note: RFC 9110 gives a GET body no meaning.
    pub(super) fn check_body_method(
        &mut self,
        body: Body,
        arg_index: usize,
    ) -> Result<Body, Error> {
        if !matches!(self.method, Method::Get | Method::Head | Method::Options) {
            return Ok(body);
        }
        if let (Method::Get, Body::Form(_, at)) = (&self.method, &body) {
            let message = "a GET with a form body: the endpoint sets allow_get_body, so the \
                           tool sends the body as curl does (use -G to send the pairs in the \
                           query)";
            let at = *at;
            self.note(at, message.to_string());
            return Ok(body);
        }
        if let Body::Form(_, at) = body {
            let message = format!(
                "curl sends this data in the body of a {} request; the tool sends it in the \
                 query, as -G would",
                self.method
            );
            self.note(at, message);
            self.data_in_query = true;
            return Ok(Body::None);
        }
        if self.method == Method::Get && matches!(body, Body::Json(..) | Body::JsonFile(..)) {
            let message = "a GET with a JSON body: the endpoint sets allow_get_body, so the tool \
                           sends the body as curl does";
            self.note(arg_index, message.to_string());
            return Ok(body);
        }
        Err(Error::from(Reason::UnsupportedBody {
            arg_index,
            reason: format!(
                "a {} request with a body: a plugin sends the body parameters of {} in the \
                 query; use POST if the API accepts it, or -G for query pairs",
                self.method, self.method
            ),
        }))
    }

    /// Limits the parameters and headers before any is made: a hostile command may hold
    /// many, and the plugin's checks compare each with the others. Repeated names share a
    /// parameter, so distinct names are counted.
    pub(super) fn check_param_count(&self, body: &Body) -> Result<(), Error> {
        let max = self.options.max_params;
        let path = if self.options.infer_path_params {
            let segments = self.url.path().split('/');
            segments
                .filter(|s| infer::is_id_segment(&decode(s)))
                .count()
        } else {
            0
        };
        let query = distinct(self.query_pairs().into_iter().map(|(n, _)| n));
        let body = match body {
            Body::None => 0,
            Body::Json(Json::Object(map), _) => map.len(),
            Body::Json(..) | Body::JsonFile(_) => 1,
            Body::Form(pairs, _) => distinct(pairs.iter().map(|(n, _)| n.clone())),
            Body::Multipart => distinct(self.cmd.form().iter().map(|p| p.name().to_string())),
            Body::RawMultipart(parts, _) => distinct(parts.iter().map(|p| p.name.clone())),
        };
        let headers = self.cmd.headers().len() + self.cmd.cookies().len();
        let count = path + query + body + headers;
        if count > max {
            return Err(Error::from(Reason::TooManyParams { count, max }));
        }
        Ok(())
    }

    pub(super) fn body_params(&mut self, body: Body) -> Result<(), Error> {
        match body {
            Body::None => Ok(()),
            Body::Json(value, at) => self.json_params(value, at),
            Body::JsonFile(at) => {
                let message = "curl would read the JSON body from a file, which is not read; \
                               the tool takes the whole body as its `body` parameter";
                self.note(at, message.to_string());
                let param = self
                    .named(Location::Body, "body")
                    .whole_body(true)
                    .ty(ParamType::object([]))
                    .required(true);
                self.push_param(param.build(), None);
                Ok(())
            }
            Body::Form(mut pairs, at) => {
                if pairs.iter().any(|(name, _)| name.is_empty()) {
                    pairs.retain(|(name, _)| !name.is_empty());
                    let message = "a form pair without a name is left out";
                    self.note(at, message.to_string());
                }
                for (name, values) in group(pairs) {
                    self.grouped_field(&name, &values, at);
                }
                Ok(())
            }
            Body::Multipart => {
                self.form_parts();
                Ok(())
            }
            Body::RawMultipart(parts, at) => {
                self.raw_parts(parts, at);
                Ok(())
            }
        }
    }

    /// A JSON object's members become body parameters; any other value (or an object a
    /// type cannot describe member by member) one whole-body parameter.
    pub(super) fn json_params(&mut self, value: Json, at: usize) -> Result<(), Error> {
        // Anything but a non-empty object is one parameter (`{}` an optional one).
        if value.as_object().map_or(true, Map::is_empty) {
            return self.whole_body(value, at);
        }
        let map = value.into_object().unwrap_or_default();
        let typed = map
            .iter()
            .all(|(k, v)| !k.is_empty() && (v.is_null() || infer::json_type(v, 1).is_some()));
        if !typed {
            let message = "the JSON body holds a member no parameter can stand for (one \
                           without a name, or an array that mixes types or holds null); the \
                           tool takes the whole body as one `body` object";
            self.note(at, message.to_string());
            return self.whole_body(Json::Object(map), at);
        }
        for (key, member) in map {
            let builder = self.named(Location::Body, &key);
            if member.is_null() {
                let message = format!(
                    "body member `{}` is null: it becomes an optional string, left out of \
                     the body unless given",
                    key
                );
                self.note(at, message);
                self.push_param(builder.build(), None);
                continue;
            }
            if let Some((ty, widened)) = infer::json_type(&member, 1) {
                if widened {
                    let message = format!(
                        "body member `{}` holds values no type describes member by member \
                         (null, arrays mixing types, or nesting deeper than {} levels); it is \
                         typed as any object",
                        key, MAX_TYPE_DEPTH
                    );
                    self.note(at, message);
                }
                self.body_param(builder.ty(ty), &key, member, at);
            }
        }
        Ok(())
    }

    /// One form parameter for a name and its text values.
    fn grouped_field(&mut self, wire: &str, values: &[String], at: usize) {
        let (ty, sample) = typed_values(values);
        let builder = self.named(Location::Form, wire).ty(ty);
        self.body_param(builder, wire, sample, at);
    }

    /// A body or form parameter. One that looks like a credential (by its name or value, the
    /// rule of query and header values) is a hidden parameter whose default is the value (a
    /// `${NAME}` in the file), as `client_secret` in an OAuth token request must be; a
    /// credential that is not a string (a number, an array) cannot be such a default: the
    /// model fills it, and its sample is never a default.
    fn body_param(&mut self, builder: ParamBuilder, wire: &str, sample: Json, at: usize) {
        let text = sample.as_str();
        let variable = text.map_or(false, |t| self.has_variable(t));
        if !variable && self.has_variable(&sample.to_string()) && self.failed.is_none() {
            self.failed = Some(self.variable_in_body(at));
        }
        let credential = is_credential_name(wire)
            || text.map_or(false, |t| {
                infer::is_secret_value(t) || self.has_secret_variable(t)
            });
        if variable && !credential {
            // The user's value, not the model's: a hidden parameter whose default is the
            // `${NAME}` template.
            let purpose = format!("the {} body field", wire);
            let value = self.shell_template(text.unwrap_or(""), &purpose);
            return self.push_secret_param(builder.hidden(true), value);
        }
        if !credential || text == Some("") {
            return self.sampled(builder, sample);
        }
        if let Some(text) = text {
            let purpose = format!("the {} body field", wire);
            let secret = self.secret(wire, &purpose, text);
            return self.push_secret_param(builder.hidden(true), secret);
        }
        let message = format!(
            "body field `{}` looks like a credential but is not a string, so it cannot be a \
             hidden default: the model fills it and the sample is no default",
            wire
        );
        self.note(at, message);
        self.push_param(builder.required(true).build(), Some(sample));
    }

    /// A shell variable deeper in the body than a member or field of its own.
    pub(super) fn variable_in_body(&self, at: usize) -> Error {
        let name = self.cmd.variables().first().cloned().unwrap_or_default();
        Error::from(Reason::VariablePlace {
            name,
            arg_index: at,
            reason: "it is inside a nested JSON value or a whole body, where a plugin file \
                     reads no variable; make it a top-level string member or a form field",
        })
    }

    /// One parameter that is the whole JSON body.
    pub(super) fn whole_body(&mut self, value: Json, at: usize) -> Result<(), Error> {
        let ty = match &value {
            Json::Object(_) => ParamType::object([]),
            other => match infer::json_type(other, 1) {
                Some((ty, _)) => ty,
                None => {
                    return Err(Error::from(Reason::UnsupportedBody {
                        arg_index: at,
                        reason: "the JSON body is null, or an array that mixes types, which \
                                 no parameter type describes"
                            .to_string(),
                    }))
                }
            },
        };
        let builder = self.named(Location::Body, "body").whole_body(true).ty(ty);
        // `{}` carries no sample worth requiring.
        let empty = matches!(&value, Json::Object(map) if map.is_empty());
        if empty {
            let param = builder.default(value.clone()).build();
            self.push_param(param, Some(value));
        } else {
            self.sampled(builder, value);
        }
        Ok(())
    }

    /// `-F` parts: text fields, file uploads (file parameters, for the host's resolver)
    /// and fields whose content curl would read from a file.
    pub(super) fn form_parts(&mut self) {
        let mut fields = Vec::with_capacity(self.cmd.form().len());
        for part in self.cmd.form() {
            let at = part.arg_index();
            self.lost_part_settings(part, at);
            let value = match part.value() {
                FormValue::Text(bytes) => {
                    if std::str::from_utf8(bytes).is_err() {
                        let message = format!(
                            "form part `{}` is not UTF-8: the bytes that are not are replaced",
                            part.name()
                        );
                        self.note(at, message);
                    }
                    Field::Text(String::from_utf8_lossy(bytes).into_owned())
                }
                FormValue::File(path) => Field::File(path.clone()),
                FormValue::FileContent(_) => Field::FromFile,
            };
            fields.push((part.name().to_string(), value, at));
        }
        self.fields(fields);
    }

    /// Multipart data written out: text parts, and file parts (those with a file name).
    pub(super) fn raw_parts(&mut self, parts: Vec<multipart::Part>, at: usize) {
        let fields = parts
            .into_iter()
            .map(|part| {
                let value = match part.filename {
                    Some(filename) => Field::File(filename),
                    None => Field::Text(String::from_utf8_lossy(&part.content).into_owned()),
                };
                (part.name, value, at)
            })
            .collect();
        self.fields(fields);
    }

    /// Form fields as parameters, in order of first appearance: repeated text fields make
    /// an array; a name repeated with a file is kept once.
    fn fields(&mut self, fields: Vec<(String, Field, usize)>) {
        let mut entries: Vec<(String, Field, Vec<String>, usize)> = Vec::new();
        // Where each name is in `entries`: 10,000 parts would scan them once each.
        let mut entry_at: HashMap<String, usize> = HashMap::new();
        for (name, value, at) in fields {
            if name.is_empty() {
                self.note(at, "a form part without a name is left out".to_string());
                continue;
            }
            let found = entry_at.get(&name).copied();
            if found.is_none() {
                entry_at.insert(name.clone(), entries.len());
            }
            match (found.and_then(|i| entries.get_mut(i)), value) {
                (Some((_, Field::Text(_), values, _)), Field::Text(text)) => values.push(text),
                (Some(_), _) => {
                    let message = format!(
                        "form part `{}` repeats the name of a file part; only the first is kept",
                        name
                    );
                    self.note(at, message);
                }
                (None, Field::Text(text)) => {
                    entries.push((name, Field::Text(String::new()), vec![text], at))
                }
                (None, other) => entries.push((name, other, Vec::new(), at)),
            }
        }
        for (name, field, values, at) in entries {
            match field {
                Field::Text(_) => self.grouped_field(&name, &values, at),
                Field::File(sample) => self.file_field(&name, Some(sample), at),
                Field::FromFile => self.file_field(&name, None, at),
            }
        }
    }

    /// A file part (`sample` is the file's path or name), or a field curl would read from a
    /// file (no sample): a required parameter without a default.
    fn file_field(&mut self, name: &str, sample: Option<String>, at: usize) {
        let builder = self.named(Location::Form, name).required(true);
        let (builder, message) = match &sample {
            None => {
                let message = format!(
                    "form part `{}` would be read from a file, which is not read: it is a \
                     required text parameter with no sample",
                    name
                );
                (builder, message)
            }
            Some(_) => {
                let message = format!(
                    "form part `{}` is a file: the tool takes a handle that the \
                     application's file resolver turns into bytes (nothing reads a local path)",
                    name
                );
                (builder.file(true), message)
            }
        };
        self.note(at, message);
        self.push_param(builder.build(), sample.map(Json::from));
    }

    pub(super) fn lost_part_settings(&mut self, part: &FormPart, at: usize) {
        let lost = [
            (
                part.content_type().is_some(),
                "its type= (text fields carry none; the file resolver types files)",
            ),
            (
                part.filename().is_some(),
                "its filename= (the file resolver names files)",
            ),
            (!part.headers().is_empty(), "its headers="),
            (part.encoder().is_some(), "its encoder="),
        ];
        for (is_lost, what) in lost {
            if is_lost {
                let message = format!("form part `{}`: {} is not carried over", part.name(), what);
                self.note(at, message);
            }
        }
    }
}

fn shorten(text: &str) -> String {
    crate::quote::excerpt(text)
}
