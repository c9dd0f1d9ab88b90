//! Reads curl's arguments into a [`CurlCommand`], the way curl's `tool_getparam.c` does.
//!
//! Short options bundle (`-sSL`) and take their value from the rest of the word (`-XPOST`)
//! or from the next argument; long options take theirs from the next argument or, as a
//! leniency curl itself lacks, after `=` (with a note). `--no-NAME` turns a switch off. An
//! argument that is not an option is the URL; `--` ends the options.

use std::collections::HashMap;
use std::time::Duration;

use super::command::{Auth, CurlCommand, DataKind, DataPart, DataSource, FormPart, Header, Note};
use super::error::{Error, Reason};
use super::form::{self, FormError};
use super::options::{self, Action, Arg, Spec};
use super::shell::Word;
use crate::http::is_token;

/// The request body kinds curl refuses to mix ("you can only select one HTTP request
/// method"); `-G` is not one of them in curl 7.88 and later.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Body {
    Data,
    Form,
    Head,
    Upload,
}

/// An option's value and the index of the argument it came from.
#[derive(Clone, Copy)]
struct Value<'a> {
    bytes: &'a [u8],
    index: usize,
}

impl<'a> Value<'a> {
    fn none(index: usize) -> Self {
        Value { bytes: &[], index }
    }

    fn text(&self) -> Result<String, Error> {
        String::from_utf8(self.bytes.to_vec()).map_err(|_| {
            Error::from(Reason::InvalidUtf8 {
                arg_index: self.index,
            })
        })
    }
}

/// The most URLs a command may name: each becomes an endpoint.
pub(crate) const MAX_URLS: usize = 64;

/// Everything read so far.
#[derive(Default)]
struct Reader {
    method: Option<(String, usize)>,
    url: Option<(String, usize)>,
    /// The URLs after the first, each a request of its own (curl sends them all).
    more_urls: Vec<(String, usize)>,
    headers: Vec<Header>,
    removed_headers: Vec<String>,
    data: Vec<DataPart>,
    form: Vec<FormPart>,
    body: Option<(Body, String, usize)>,
    get: Option<usize>,
    head: bool,
    user: Option<(String, Option<String>, usize)>,
    bearer: Option<(String, usize)>,
    /// `--digest` (the last of `--digest` and `--basic` wins, as in curl).
    digest: bool,
    /// `--aws-sigv4`: the region and service when given, and the argument index.
    aws_sigv4: Option<(Option<String>, Option<String>, usize)>,
    user_agent: Option<String>,
    referer: Option<String>,
    cookies: Vec<String>,
    location: bool,
    max_redirs: Option<u32>,
    insecure: bool,
    compressed: bool,
    globoff: bool,
    max_time: Option<Duration>,
    connect_timeout: Option<Duration>,
    proxy: Option<String>,
    proto_default: Option<String>,
    /// The `--url-query` pieces, encoded, in order.
    url_query: Vec<String>,
    /// The `-r/--range` value and its argument.
    range: Option<(String, usize)>,
    notes: Vec<Note>,
}

/// Reads the arguments of a command whose first word is the program name.
pub(crate) fn read(words: Vec<Word>) -> Result<CurlCommand, Error> {
    let variables = variable_names(&words)?;
    let args: Vec<Vec<u8>> = words.into_iter().map(|word| word.bytes).collect();
    let mut command = read_args(&args)?;
    command.variables = variables;
    Ok(command)
}

/// The shell variables the words reference, each once, in order of first use. Each is
/// `${NAME}` in its word; the same text written literally (`'${NAME}'`) could not be told
/// from it, so it is an error.
fn variable_names(words: &[Word]) -> Result<Vec<String>, Error> {
    let mut names: Vec<String> = Vec::new();
    // Name -> its place in `names`: a command may reference thousands, and searching each
    // word for each name was quadratic.
    let mut order: HashMap<&str, usize> = HashMap::new();
    for word in words {
        for name in &word.variables {
            if !order.contains_key(name.as_str()) {
                order.insert(name, names.len());
                names.push(name.clone());
            }
        }
    }
    for (arg_index, word) in words.iter().enumerate() {
        let written = written_variables(&word.bytes, &order);
        if written.is_empty() {
            continue;
        }
        let mut referenced: HashMap<&str, usize> = HashMap::new();
        for name in &word.variables {
            *referenced.entry(name.as_str()).or_insert(0) += 1;
        }
        // The first name (in order of first use) written more often than referenced.
        let over = written
            .iter()
            .filter(|(name, n)| **n > referenced.get(*name).copied().unwrap_or(0))
            .filter_map(|(name, _)| order.get(name).copied())
            .min();
        if let Some(first) = over {
            return Err(Error::from(Reason::VariablePlace {
                name: names[first].clone(),
                arg_index,
                reason: "the command also holds the text `${NAME}` for it literally, which \
                         a plugin file could not tell from the variable; write one of them \
                         otherwise",
            }));
        }
    }
    Ok(names)
}

/// How many times each of `known` is written `${NAME}` in `bytes`. A name is letters,
/// digits and `_`, so each `${` starts at most one, and each byte is looked at about once.
fn written_variables<'a>(bytes: &'a [u8], known: &HashMap<&str, usize>) -> HashMap<&'a str, usize> {
    let mut found: HashMap<&'a str, usize> = HashMap::new();
    let mut at = 0;
    while let Some(pos) = bytes
        .get(at..)
        .and_then(|rest| rest.windows(2).position(|w| w == b"${"))
    {
        let start = at + pos + 2;
        let rest = bytes.get(start..).unwrap_or(&[]);
        let len = rest
            .iter()
            .position(|&b| !(b == b'_' || b.is_ascii_alphanumeric()))
            .unwrap_or(rest.len());
        if rest.get(len) == Some(&b'}') {
            if let Ok(name) = std::str::from_utf8(&rest[..len]) {
                if known.contains_key(name) {
                    *found.entry(name).or_insert(0) += 1;
                }
            }
        }
        at = start + len;
    }
    found
}

/// Reads `args`, where `args[0]` is the program name.
pub(crate) fn read_args<S: AsRef<[u8]>>(args: &[S]) -> Result<CurlCommand, Error> {
    let program = match args.first() {
        Some(program) => program.as_ref(),
        None => return Err(Error::from(Reason::Empty)),
    };
    if !is_curl(program) {
        return Err(Error::from(Reason::NotCurl));
    }
    let mut reader = Reader::default();
    let mut index = 1;
    let mut options_done = false;
    while let Some(arg) = args.get(index) {
        let arg = arg.as_ref();
        index += if options_done || !arg.starts_with(b"-") {
            reader.url(Value { bytes: arg, index })?;
            1
        } else if arg == b"--" {
            options_done = true;
            1
        } else if let Some(long) = arg.strip_prefix(b"--") {
            reader.long(long, args, index)?
        } else {
            reader.short(arg, args, index)?
        };
    }
    reader.finish()
}

/// `curl`, `curl.exe`, or a path ending in one of them (either slash).
fn is_curl(program: &[u8]) -> bool {
    let name = program
        .rsplit(|&b| b == b'/' || b == b'\\')
        .next()
        .unwrap_or(program);
    name.eq_ignore_ascii_case(b"curl") || name.eq_ignore_ascii_case(b"curl.exe")
}

/// An option as written, for error messages, UTF-8 or not: cut and escaped by the crate's
/// one quoting rule.
fn shown(prefix: &str, name: &[u8]) -> String {
    let name = crate::quote::excerpt(&String::from_utf8_lossy(name));
    format!("{}{}", prefix, name)
}

impl Reader {
    /// Reads the long option `--body` at `args[index]`; returns how many arguments it used.
    fn long<S: AsRef<[u8]>>(
        &mut self,
        body: &[u8],
        args: &[S],
        index: usize,
    ) -> Result<usize, Error> {
        let (name, inline) = match body.iter().position(|&b| b == b'=') {
            Some(eq) => (&body[..eq], Some(&body[eq + 1..])),
            None => (body, None),
        };
        let (spec, negated) = lookup_long(name, index)?;
        if !spec.takes_value() {
            if inline.is_some() {
                return Err(Error::from(Reason::UnexpectedValue {
                    option: spec.name(),
                    arg_index: index,
                }));
            }
            self.apply(spec, negated, Value::none(index), index)?;
            return Ok(1);
        }
        if let Some(bytes) = inline {
            self.note(
                index,
                format!(
                    "--{}=value is read as --{} value; curl itself rejects the `=` form",
                    spec.long, spec.long
                ),
            );
            self.apply(spec, false, Value { bytes, index }, index)?;
            return Ok(1);
        }
        let value = self.next_value(args, spec, index)?;
        self.apply(spec, false, value, index)?;
        Ok(2)
    }

    /// Reads the short options bundled in `arg`, which is `args[index]`; returns how many
    /// arguments they used.
    fn short<S: AsRef<[u8]>>(
        &mut self,
        arg: &[u8],
        args: &[S],
        index: usize,
    ) -> Result<usize, Error> {
        if arg.len() == 1 {
            return Err(Error::from(Reason::UnknownOption {
                option: "-".to_owned(),
                arg_index: index,
                suggestion: None,
            }));
        }
        for (at, &letter) in arg.iter().enumerate().skip(1) {
            let spec = match options::short(letter) {
                Some(spec) => spec,
                None => {
                    let letter: String = String::from_utf8_lossy(&arg[at..])
                        .chars()
                        .take(1)
                        .collect();
                    return Err(Error::from(Reason::UnknownOption {
                        option: format!("-{}", letter),
                        arg_index: index,
                        suggestion: None,
                    }));
                }
            };
            if !spec.takes_value() {
                self.apply(spec, false, Value::none(index), index)?;
                continue;
            }
            let attached = &arg[at + 1..];
            if !attached.is_empty() {
                self.apply(
                    spec,
                    false,
                    Value {
                        bytes: attached,
                        index,
                    },
                    index,
                )?;
                return Ok(1);
            }
            let value = self.next_value(args, spec, index)?;
            self.apply(spec, false, value, index)?;
            return Ok(2);
        }
        Ok(1)
    }

    fn next_value<'a, S: AsRef<[u8]>>(
        &self,
        args: &'a [S],
        spec: &Spec,
        index: usize,
    ) -> Result<Value<'a>, Error> {
        match args.get(index + 1) {
            Some(bytes) => Ok(Value {
                bytes: bytes.as_ref(),
                index: index + 1,
            }),
            None => Err(Error::from(Reason::MissingValue {
                option: spec.name(),
                arg_index: index,
            })),
        }
    }

    fn note(&mut self, arg_index: usize, message: String) {
        self.notes.push(Note { arg_index, message });
    }

    /// Carries out one option given at argument `at`.
    fn apply(&mut self, spec: &Spec, negated: bool, value: Value, at: usize) -> Result<(), Error> {
        let on = !negated;
        match spec.action {
            Action::Request => self.method(spec, value, at)?,
            Action::Header => self.header(spec, value, at)?,
            Action::Data(kind) => self.data(spec, kind, value, at)?,
            Action::Form => self.form(spec, value, at)?,
            Action::FormString => self.form_string(spec, value, at)?,
            Action::Get => self.get = if on { Some(at) } else { None },
            Action::Head => self.head(spec, on, at)?,
            Action::User => self.user(value, at)?,
            Action::Bearer => self.bearer = Some((one_line(spec, value, at)?, at)),
            Action::Digest => self.digest = on,
            Action::Basic => self.digest &= !on,
            Action::AwsSigV4 => self.aws_sigv4(spec, value, at)?,
            Action::UserAgent => self.user_agent = Some(one_line(spec, value, at)?),
            Action::Referer => self.referer(spec, value, at)?,
            Action::Cookie => self.cookie(spec, value, at)?,
            Action::Location => self.location = on,
            Action::LocationNote(message) => {
                self.location = on;
                if on {
                    self.note(at, format!("{}: {}", spec.name(), message));
                }
            }
            Action::MaxRedirs => self.max_redirs(spec, value, at)?,
            Action::Insecure => self.insecure = on,
            Action::Compressed => self.compressed = on,
            Action::Globoff => self.globoff = on,
            Action::MaxTime => {
                self.max_time = seconds(spec, value, at)?;
                if self.max_time.is_none() {
                    let message = format!(
                        "{} 0 means no limit in curl; httptool's own timeout applies",
                        spec.name()
                    );
                    self.note(at, message);
                }
            }
            Action::ConnectTimeout => self.connect_timeout = seconds(spec, value, at)?,
            Action::Proxy => {
                let proxy = value.text()?;
                self.proxy = if proxy.is_empty() { None } else { Some(proxy) };
            }
            Action::Url => self.url(value)?,
            Action::UrlQuery => self.url_query(spec, value, at)?,
            Action::Range => self.range(spec, value, at)?,
            Action::Upload => self.upload(spec, value, at)?,
            Action::ProtoDefault => self.proto_default = Some(value.text()?.to_ascii_lowercase()),
            Action::Ignore => {}
            Action::Note(message) => self.note(at, format!("{}: {}", spec.name(), message)),
            Action::Refuse(reason) => {
                return Err(Error::from(Reason::Unsupported {
                    option: spec.name(),
                    arg_index: at,
                    reason,
                }))
            }
        }
        Ok(())
    }

    fn method(&mut self, spec: &Spec, value: Value, at: usize) -> Result<(), Error> {
        let method = value.text()?;
        if !is_token(&method) {
            return Err(invalid(
                spec,
                at,
                "an HTTP method made of token characters, such as POST",
            ));
        }
        self.method = Some((method, at));
        Ok(())
    }

    /// `-H`: `Name: value`, `Name:` (curl leaves out its own header), `Name;` (an empty
    /// header), or `@file` (not read).
    fn header(&mut self, spec: &Spec, value: Value, at: usize) -> Result<(), Error> {
        let line = value.text()?;
        if line.starts_with('@') {
            let message = format!(
                "{}: curl would read headers from a file; httptool reads no file, they are \
                 left out",
                spec.name()
            );
            self.note(at, message);
            return Ok(());
        }
        let (name, value) = match line.find(':') {
            Some(colon) => (&line[..colon], line[colon + 1..].trim_matches(is_blank)),
            None => match line.strip_suffix(';') {
                Some(name) => (name, ""),
                None => {
                    let message = format!(
                        "{}: curl sends no header without a `:`; it is left out",
                        spec.name()
                    );
                    self.note(at, message);
                    return Ok(());
                }
            },
        };
        if !is_token(name) {
            return Err(invalid(
                spec,
                at,
                "a header `Name: value` whose name is a token (letters, digits and \
                 !#$%&'*+-.^_`|~)",
            ));
        }
        if value.contains(['\r', '\n']) {
            return Err(invalid(
                spec,
                at,
                "a header value on one line (no CR or LF)",
            ));
        }
        if has_control(value) {
            return Err(invalid(spec, at, CONTROL_IN_HEADER));
        }
        if value.is_empty() && line.contains(':') {
            self.removed_headers.push(name.to_owned());
        } else {
            self.headers.push(Header {
                name: name.to_owned(),
                value: value.to_owned(),
                arg_index: at,
            });
        }
        Ok(())
    }

    /// Records which kind of body the command sends; curl refuses to mix them.
    fn body(&mut self, kind: Body, spec: &Spec, at: usize) -> Result<(), Error> {
        match &self.body {
            Some((seen, _, _)) if *seen == kind => Ok(()),
            Some((_, previous, previous_index)) => Err(Error::from(Reason::Conflict {
                option: spec.name(),
                arg_index: at,
                previous: previous.clone(),
                previous_index: *previous_index,
            })),
            None => {
                self.body = Some((kind, spec.name(), at));
                Ok(())
            }
        }
    }

    fn data(&mut self, spec: &Spec, kind: DataKind, value: Value, at: usize) -> Result<(), Error> {
        self.body(Body::Data, spec, at)?;
        let (name, source) = match (kind, value.bytes.split_first()) {
            (DataKind::Raw, _) => (None, DataSource::Inline(value.bytes.to_vec())),
            (DataKind::UrlEncode, _) => urlencode(value)?,
            (_, Some((b'@', path))) => (None, DataSource::File(file_path(path, value)?)),
            _ => (None, DataSource::Inline(value.bytes.to_vec())),
        };
        if let DataSource::File(_) = source {
            let message = format!(
                "{}: curl would read this data from a file; it is kept as an inert reference \
                 and not read",
                spec.name()
            );
            self.note(at, message);
        }
        self.data.push(DataPart {
            kind,
            name,
            source,
            arg_index: at,
        });
        Ok(())
    }

    fn upload(&mut self, spec: &Spec, value: Value, at: usize) -> Result<(), Error> {
        self.body(Body::Upload, spec, at)?;
        let path = value.text()?;
        let message = format!(
            "{}: curl would send this file as the body (and add its name to a URL that ends \
             in `/`); it is kept as an inert reference and not read",
            spec.name()
        );
        self.note(at, message);
        self.data.push(DataPart {
            kind: DataKind::Upload,
            name: None,
            source: DataSource::File(path),
            arg_index: at,
        });
        Ok(())
    }

    fn form(&mut self, spec: &Spec, value: Value, at: usize) -> Result<(), Error> {
        self.body(Body::Form, spec, at)?;
        let parsed =
            form::parse(value.bytes, at).map_err(|err| form_error(err, spec, value, at))?;
        for message in parsed.notes {
            self.note(at, format!("{}: {}", spec.name(), message));
        }
        if parsed.part.file().is_some() {
            let message = format!(
                "{}: curl would read this part from a file; it is kept as an inert reference \
                 and not read",
                spec.name()
            );
            self.note(at, message);
        }
        self.form.push(parsed.part);
        Ok(())
    }

    fn form_string(&mut self, spec: &Spec, value: Value, at: usize) -> Result<(), Error> {
        self.body(Body::Form, spec, at)?;
        let part =
            form::parse_string(value.bytes, at).map_err(|err| form_error(err, spec, value, at))?;
        self.form.push(part);
        Ok(())
    }

    fn head(&mut self, spec: &Spec, on: bool, at: usize) -> Result<(), Error> {
        self.head = on;
        if on {
            return self.body(Body::Head, spec, at);
        }
        if matches!(self.body, Some((Body::Head, _, _))) {
            self.body = None;
        }
        Ok(())
    }

    /// `-u user:password`; without a colon curl would prompt for the password.
    fn user(&mut self, value: Value, at: usize) -> Result<(), Error> {
        let text = value.text()?;
        let (user, password) = match text.find(':') {
            Some(colon) => (text[..colon].to_owned(), Some(text[colon + 1..].to_owned())),
            None => {
                self.note(
                    at,
                    "-u/--user without `:password`: curl would ask for the password on the \
                     terminal; none is kept"
                        .to_owned(),
                );
                (text, None)
            }
        };
        self.user = Some((user, password, at));
        Ok(())
    }

    /// `--aws-sigv4 aws:amz[:REGION[:SERVICE]]`: the providers say which signature (only
    /// AWS's, `AWS4-HMAC-SHA256` with `X-Amz-*` headers, is made here); a region or
    /// service left out is read from the host later, as curl does.
    fn aws_sigv4(&mut self, spec: &Spec, value: Value, at: usize) -> Result<(), Error> {
        let text = one_line(spec, value, at)?;
        let mut parts = text.split(':');
        let provider1 = parts.next().unwrap_or("");
        let provider2 = parts.next().unwrap_or("amz");
        if !provider1.eq_ignore_ascii_case("aws") || !provider2.eq_ignore_ascii_case("amz") {
            return Err(Error::from(Reason::Unsupported {
                option: spec.name(),
                arg_index: at,
                reason:
                    "httptool signs with AWS's own algorithm only: write `aws:amz:REGION:SERVICE`",
            }));
        }
        let part = |p: Option<&str>| p.filter(|s| !s.is_empty()).map(str::to_owned);
        let region = part(parts.next());
        let service = part(parts.next());
        if parts.next().is_some() {
            return Err(Error::from(Reason::Unsupported {
                option: spec.name(),
                arg_index: at,
                reason: "it takes at most four parts: `aws:amz:REGION:SERVICE`",
            }));
        }
        self.aws_sigv4 = Some((region, service, at));
        Ok(())
    }

    /// `-e URL`, `-e URL;auto` or `-e ;auto`.
    fn referer(&mut self, spec: &Spec, value: Value, at: usize) -> Result<(), Error> {
        let mut referer = one_line(spec, value, at)?;
        if let Some(auto) = referer.find(";auto") {
            referer.truncate(auto);
            let message = format!(
                "{}: `;auto` (update the referer on redirects) is not carried over",
                spec.name()
            );
            self.note(at, message);
        }
        self.referer = if referer.is_empty() {
            None
        } else {
            Some(referer)
        };
        Ok(())
    }

    /// `-b name=value[; ...]` is cookie data; anything without `=` names a cookie file.
    fn cookie(&mut self, spec: &Spec, value: Value, at: usize) -> Result<(), Error> {
        let cookie = one_line(spec, value, at)?;
        if cookie.contains('=') {
            self.cookies.push(cookie);
        } else {
            let message = format!(
                "{}: curl would read cookies from a file; httptool reads no file, they are \
                 left out",
                spec.name()
            );
            self.note(at, message);
        }
        Ok(())
    }

    fn max_redirs(&mut self, spec: &Spec, value: Value, at: usize) -> Result<(), Error> {
        let text = value.text()?;
        if text == "-1" {
            self.max_redirs = None;
            let message = format!(
                "{} -1 (no limit) is not carried over; httptool's own limit applies",
                spec.name()
            );
            self.note(at, message);
            return Ok(());
        }
        let count = if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
            text.parse::<u32>().ok()
        } else {
            None
        };
        match count {
            Some(count) => {
                self.max_redirs = Some(count);
                Ok(())
            }
            None => Err(invalid(spec, at, "a number of redirects: 0 or more, or -1")),
        }
    }

    fn url(&mut self, value: Value) -> Result<(), Error> {
        let url = value.text()?;
        if let (Some((_, first_index)), true) = (&self.url, self.more_urls.len() + 1 >= MAX_URLS) {
            return Err(Error::from(Reason::SeveralUrls {
                first_index: *first_index,
                second_index: value.index,
            }));
        }
        if url.is_empty() {
            return Err(Error::from(Reason::InvalidValue {
                option: "URL".to_owned(),
                arg_index: value.index,
                expected: "a URL such as https://example.com/path",
            }));
        }
        if self.url.is_some() {
            self.more_urls.push((url, value.index));
        } else {
            self.url = Some((url, value.index));
        }
        Ok(())
    }

    /// `--url-query` as curl 7.87 reads it: `+content` is added as written; else, as
    /// `--data-urlencode` reads its value, `content`, `=content` and `name=content` add the
    /// content percent-encoded (the name as written), and `@file` and `name@file` would read
    /// a file, which httptool does not.
    fn url_query(&mut self, spec: &Spec, value: Value, at: usize) -> Result<(), Error> {
        if let Some(raw) = value.bytes.strip_prefix(b"+") {
            let raw = Value {
                bytes: raw,
                ..value
            }
            .text()?;
            if raw.contains(['#', ' ']) || has_control(&raw) {
                return Err(invalid(
                    spec,
                    at,
                    "`+name=value` already encoded for a URL: no space, `#` or control character",
                ));
            }
            self.url_query.push(raw);
            return Ok(());
        }
        let (name, source) = urlencode(value)?;
        let content = match source {
            DataSource::Inline(bytes) => bytes,
            DataSource::File(_) => {
                return Err(Error::from(Reason::Unsupported {
                    option: spec.name(),
                    arg_index: at,
                    reason: "curl would read the value from a file; httptool reads no file, \
                             write `name=value` instead",
                }))
            }
        };
        let mut piece = Vec::new();
        if let Some(name) = name {
            if name.contains(['#', ' ']) || has_control(&name) {
                return Err(invalid(
                    spec,
                    at,
                    "a name already encoded for a URL: no space, `#` or control character",
                ));
            }
            piece.extend_from_slice(name.as_bytes());
            piece.push(b'=');
        }
        super::sent::curl_escape(&mut piece, &content);
        // Only ASCII was written.
        self.url_query
            .push(String::from_utf8_lossy(&piece).into_owned());
        Ok(())
    }

    /// `-r/--range`: byte ranges such as `0-499`, `500-`, `-500` or `0-0,-1`; curl adds a
    /// missing `-` to a lone number, with a warning.
    fn range(&mut self, spec: &Spec, value: Value, at: usize) -> Result<(), Error> {
        let mut range = value.text()?;
        let valid = !range.is_empty()
            && range
                .bytes()
                .all(|b| b.is_ascii_digit() || b == b'-' || b == b',');
        if !valid {
            return Err(invalid(
                spec,
                at,
                "byte ranges such as 0-499, 500-, -500 or 0-0,-1",
            ));
        }
        if !range.contains('-') {
            range.push('-');
            let message = format!(
                "{}: a range without `-` is read as `{}`, as curl does",
                spec.name(),
                range
            );
            self.note(at, message);
        }
        self.range = Some((range, at));
        Ok(())
    }

    fn finish(mut self) -> Result<CurlCommand, Error> {
        let (url, url_index) = self.url.take().ok_or(Error::from(Reason::NoUrl))?;
        let url = with_scheme(url, url_index, self.proto_default.as_deref())?;
        let url = with_query(url, &self.url_query);
        let mut more_urls = Vec::with_capacity(self.more_urls.len());
        for (more, index) in std::mem::take(&mut self.more_urls) {
            let more = with_scheme(more, index, self.proto_default.as_deref())?;
            more_urls.push((with_query(more, &self.url_query), index));
        }
        self.range_header();
        if !self.globoff && has_glob(&url) {
            self.note(
                url_index,
                "curl would read `[...]` and `{...}` in the URL as a pattern for several \
                 requests unless -g/--globoff is given; the URL is read as written"
                    .to_owned(),
            );
        }
        self.json_headers();
        let method = self.implied_method();
        let auth = self.auth();
        if let (Some(get), false) = (self.get, self.form.is_empty()) {
            let message = "-G/--get has no effect with -F/--form, as in curl".to_owned();
            self.note(get, message);
        }
        // Notes are pushed as options are read, a few at the end: show them in order.
        crate::sort::by_key(&mut self.notes, |note| note.arg_index as u64);
        let method_explicit = self.method.is_some();
        Ok(CurlCommand {
            method: self.method.map_or(method, |(method, _)| method),
            method_explicit,
            url,
            url_index,
            more_urls,
            headers: self.headers,
            removed_headers: self.removed_headers,
            data: self.data,
            form: self.form,
            get: self.get.is_some(),
            head: self.head,
            auth,
            digest: self.digest,
            user_agent: self.user_agent,
            referer: self.referer,
            cookies: self.cookies,
            location: self.location,
            max_redirs: self.max_redirs,
            insecure: self.insecure,
            compressed: self.compressed,
            max_time: self.max_time,
            connect_timeout: self.connect_timeout,
            proxy: self.proxy,
            notes: self.notes,
            variables: Vec::new(),
        })
    }

    /// `-r` sends `Range: bytes=...` (RFC 9110 section 14.2) unless a `-H Range` is given,
    /// which replaces curl's own header.
    fn range_header(&mut self) {
        let (range, arg_index) = match self.range.take() {
            Some(range) => range,
            None => return,
        };
        let given = self
            .headers
            .iter()
            .any(|h| h.name.eq_ignore_ascii_case("range"))
            || self
                .removed_headers
                .iter()
                .any(|h| h.eq_ignore_ascii_case("range"));
        if !given {
            self.headers.push(Header {
                name: "Range".to_owned(),
                value: format!("bytes={}", range),
                arg_index,
            });
        }
    }

    /// `--json` adds `Content-Type` and `Accept` unless a header (or a removal) names them.
    fn json_headers(&mut self) {
        let json = self.data.iter().find(|part| part.kind == DataKind::Json);
        let arg_index = match json {
            Some(part) => part.arg_index,
            None => return,
        };
        for name in ["Content-Type", "Accept"] {
            let given = self
                .headers
                .iter()
                .any(|h| h.name.eq_ignore_ascii_case(name))
                || self
                    .removed_headers
                    .iter()
                    .any(|h| h.eq_ignore_ascii_case(name));
            if !given {
                self.headers.push(Header {
                    name: name.to_owned(),
                    value: "application/json".to_owned(),
                    arg_index,
                });
            }
        }
    }

    /// The method curl picks when `-X` does not give one.
    fn implied_method(&self) -> String {
        let method = match self.body {
            Some((Body::Head, _, _)) => "HEAD",
            Some((Body::Upload, _, _)) => "PUT",
            Some((Body::Form, _, _)) => "POST",
            _ if self.get.is_some() => "GET",
            Some((Body::Data, _, _)) => "POST",
            None => "GET",
        };
        method.to_owned()
    }

    /// The bearer token wins over `-u`, as in curl.
    fn auth(&mut self) -> Option<Auth> {
        match (self.bearer.take(), self.user.take()) {
            // `--digest` beside `--oauth2-bearer` asks for either: curl sends neither until
            // the server's challenge picks one, and answers a Digest one with `-u`.
            (Some((_, at)), Some((user, password, _))) if self.digest => {
                let message = "--oauth2-bearer is not sent: with --digest and -u, curl waits \
                               for the server's challenge and answers it with Digest"
                    .to_owned();
                self.note(at, message);
                Some(Auth::Digest { user, password })
            }
            (Some((token, _)), user) => {
                if let Some((_, _, at)) = user {
                    let message =
                        "-u/--user is not sent: --oauth2-bearer wins, as in curl".to_owned();
                    self.note(at, message);
                }
                Some(Auth::Bearer { token })
            }
            (None, Some((user, password, _))) if self.aws_sigv4.is_some() => {
                let (region, service, _) = self.aws_sigv4.take()?;
                Some(Auth::AwsSigV4 {
                    access_key_id: user,
                    secret_access_key: password.unwrap_or_default(),
                    region,
                    service,
                })
            }
            (None, Some((user, password, _))) if self.digest => {
                Some(Auth::Digest { user, password })
            }
            (None, Some((user, password, _))) => Some(Auth::Basic { user, password }),
            (None, None) => {
                if let Some((_, _, at)) = self.aws_sigv4.take() {
                    let message = "--aws-sigv4 without -u KEY:SECRET signs nothing".to_owned();
                    self.note(at, message);
                }
                None
            }
        }
    }
}

/// Finds a long option by name, or by `no-NAME` for a switch.
fn lookup_long(name: &[u8], index: usize) -> Result<(&'static Spec, bool), Error> {
    let unknown = |suggestion| {
        Error::from(Reason::UnknownOption {
            option: shown("--", name),
            arg_index: index,
            suggestion,
        })
    };
    let name = std::str::from_utf8(name).map_err(|_| unknown(None))?;
    if let Some(spec) = options::long(name) {
        return Ok((spec, false));
    }
    if let Some(spec) = name.strip_prefix("no-").and_then(options::long) {
        if spec.arg == Arg::Bool {
            return Ok((spec, true));
        }
        return Err(Error::from(Reason::NotBoolean {
            option: spec.name(),
            arg_index: index,
        }));
    }
    if name
        .strip_prefix(options::EXPAND_PREFIX)
        .and_then(options::long)
        .is_some()
    {
        return Err(Error::from(Reason::Unsupported {
            option: shown("--", name.as_bytes()),
            arg_index: index,
            reason: options::EXPAND_REASON,
        }));
    }
    // curl reads a prefix of exactly one long name as that option; `--no-` switches are
    // not abbreviated.
    match options::prefixed(name).as_slice() {
        [] => Err(unknown(crate::tool::closest(name, options::names()))),
        [spec] => Ok((spec, false)),
        several => Err(Error::from(Reason::AmbiguousOption {
            option: shown("--", name.as_bytes()),
            arg_index: index,
            candidates: several
                .iter()
                .map(|spec| format!("--{}", spec.long))
                .collect(),
        })),
    }
}

fn invalid(spec: &Spec, at: usize, expected: &'static str) -> Error {
    Error::from(Reason::InvalidValue {
        option: spec.name(),
        arg_index: at,
        expected,
    })
}

fn form_error(err: FormError, spec: &Spec, value: Value, at: usize) -> Error {
    match err {
        FormError::NoEquals => invalid(spec, at, "name=content, name=@file or name=<file"),
        FormError::NotText => Error::from(Reason::InvalidUtf8 {
            arg_index: value.index,
        }),
        FormError::LineBreak => invalid(
            spec,
            at,
            "names, types, file names and part headers on one line (no CR or LF)",
        ),
    }
}

/// A value that becomes a header line: UTF-8 and without CR or LF.
fn one_line(spec: &Spec, value: Value, at: usize) -> Result<String, Error> {
    let text = value.text()?;
    if text.contains(['\r', '\n']) {
        return Err(invalid(spec, at, "a value on one line (no CR or LF)"));
    }
    if has_control(&text) {
        return Err(invalid(spec, at, CONTROL_IN_HEADER));
    }
    Ok(text)
}

/// What a header value may not hold, said once for every option that makes a header.
const CONTROL_IN_HEADER: &str = "a value without control characters (tab is fine)";

/// RFC 9110 section 5.5: a field value holds no control character but HTAB. curl sends
/// them; the client refuses them, so a command holding one would convert to a plugin that
/// no call could use (or, in a secret header, one that fails on every call).
fn has_control(value: &str) -> bool {
    value.bytes().any(|b| b != b'\t' && (b < 0x20 || b == 0x7f))
}

fn file_path(path: &[u8], value: Value) -> Result<String, Error> {
    String::from_utf8(path.to_vec()).map_err(|_| {
        Error::from(Reason::InvalidUtf8 {
            arg_index: value.index,
        })
    })
}

/// The URL with the `--url-query` pieces added to its query, before any fragment, after
/// `&` (or `?` when it has no query), as curl adds them.
fn with_query(url: String, pieces: &[String]) -> String {
    if pieces.is_empty() {
        return url;
    }
    let (base, fragment) = match url.find('#') {
        Some(at) => (&url[..at], &url[at..]),
        None => (url.as_str(), ""),
    };
    let mut out = base.to_owned();
    for piece in pieces {
        match out.find('?') {
            None => out.push('?'),
            // An empty query, or one ending in `&`, needs no separator.
            Some(at) if at + 1 == out.len() || out.ends_with('&') => {}
            Some(_) => out.push('&'),
        }
        out.push_str(piece);
    }
    out.push_str(fragment);
    out
}

/// `--data-urlencode`: `content`, `=content`, `name=content`, `@file` or `name@file`. The
/// first `=` decides; without one, the first `@` does.
fn urlencode(value: Value) -> Result<(Option<String>, DataSource), Error> {
    let bytes = value.bytes;
    let name = |end: usize| -> Result<Option<String>, Error> {
        if end == 0 {
            return Ok(None);
        }
        file_path(&bytes[..end], value).map(Some)
    };
    if let Some(eq) = bytes.iter().position(|&b| b == b'=') {
        return Ok((name(eq)?, DataSource::Inline(bytes[eq + 1..].to_vec())));
    }
    if let Some(at) = bytes.iter().position(|&b| b == b'@') {
        let path = file_path(&bytes[at + 1..], value)?;
        return Ok((name(at)?, DataSource::File(path)));
    }
    Ok((None, DataSource::Inline(bytes.to_vec())))
}

/// Decimal seconds as curl reads them (`2`, `2.5`, `.5`); `0` reads as `None`.
fn seconds(spec: &Spec, value: Value, at: usize) -> Result<Option<Duration>, Error> {
    let text = value.text()?;
    let duration = parse_seconds(&text)
        .ok_or_else(|| invalid(spec, at, "a number of seconds such as 10 or 2.5"))?;
    Ok(if duration == Duration::ZERO {
        None
    } else {
        Some(duration)
    })
}

fn parse_seconds(text: &str) -> Option<Duration> {
    let (whole, fraction) = match text.find('.') {
        Some(dot) => (&text[..dot], &text[dot + 1..]),
        None => (text, ""),
    };
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if (whole.is_empty() && fraction.is_empty()) || !digits(whole) || !digits(fraction) {
        return None;
    }
    let secs = if whole.is_empty() {
        0
    } else {
        whole.parse::<u64>().ok()?
    };
    // Nanoseconds: the first nine digits, the rest dropped.
    let mut digits = fraction.bytes();
    let mut nanos = 0u32;
    for _ in 0..9 {
        nanos = nanos * 10 + u32::from(digits.next().unwrap_or(b'0') - b'0');
    }
    Some(Duration::new(secs, nanos))
}

/// The URL with a scheme: its own (http or https only), or the one curl would use for a
/// scheme-less URL (`--proto-default`, else guessed from the host name, else http).
fn with_scheme(
    url: String,
    arg_index: usize,
    proto_default: Option<&str>,
) -> Result<String, Error> {
    let unsupported = |scheme: &str| {
        Error::from(Reason::UnsupportedScheme {
            scheme: scheme
                .chars()
                .take(32)
                .collect::<String>()
                .to_ascii_lowercase(),
            arg_index,
        })
    };
    if let Some(scheme) = scheme_of(&url) {
        if scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https") {
            return Ok(url);
        }
        return Err(unsupported(scheme));
    }
    let scheme = match proto_default {
        Some(scheme) => scheme,
        None => guessed_scheme(&url),
    };
    if scheme != "http" && scheme != "https" {
        return Err(unsupported(scheme));
    }
    Ok(format!("{}://{}", scheme, url))
}

/// The scheme before `://` when it is one (RFC 3986 section 3.1:
/// `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`).
fn scheme_of(url: &str) -> Option<&str> {
    let end = url.find("://")?;
    let scheme = &url[..end];
    let mut bytes = scheme.bytes();
    let first_ok = bytes.next().map_or(false, |b| b.is_ascii_alphabetic());
    let rest_ok = bytes.all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'-' || b == b'.');
    if first_ok && rest_ok {
        Some(scheme)
    } else {
        None
    }
}

/// curl guesses the scheme of a scheme-less URL from the host name's first label.
fn guessed_scheme(url: &str) -> &'static str {
    let guesses = [
        ("ftp.", "ftp"),
        ("dict.", "dict"),
        ("ldap.", "ldap"),
        ("imap.", "imap"),
        ("smtp.", "smtp"),
        ("pop3.", "pop3"),
    ];
    for (prefix, scheme) in guesses {
        // Compare bytes: the URL may hold a multi-byte character where the prefix ends.
        let head = url.as_bytes().get(..prefix.len());
        if head.map_or(false, |head| head.eq_ignore_ascii_case(prefix.as_bytes())) {
            return scheme;
        }
    }
    "http"
}

/// `[`, `]`, `{` or `}` after the host: curl's URL globbing would act on them (brackets
/// around an IPv6 host are not a pattern).
fn has_glob(url: &str) -> bool {
    let after_scheme = url.find("://").map_or(0, |at| at + 3);
    let rest = &url[after_scheme..];
    let host_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    rest[host_end..].contains(['[', ']', '{', '}'])
}

fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curl::ErrorKind;

    macro_rules! seconds_cases {
        ($($name:ident: $text:expr => $expected:expr;)*) => {
            $(
                #[test]
                fn $name() {
                    assert_eq!(parse_seconds($text), $expected);
                }
            )*
        };
    }

    seconds_cases! {
        whole_seconds: "10" => Some(Duration::from_secs(10));
        decimal_seconds: "2.5" => Some(Duration::from_millis(2500));
        leading_dot: ".25" => Some(Duration::from_millis(250));
        trailing_dot: "3." => Some(Duration::from_secs(3));
        nanoseconds_kept: "0.000000001" => Some(Duration::from_nanos(1));
        beyond_nanoseconds_dropped: "1.0000000019" => Some(Duration::new(1, 1));
        zero: "0" => Some(Duration::ZERO);
        lone_dot: "." => None;
        empty: "" => None;
        negative: "-1" => None;
        exponent: "1e3" => None;
        comma: "1,5" => None;
        two_dots: "1.2.3" => None;
        overflow: "99999999999999999999999" => None;
    }

    macro_rules! scheme_cases {
        ($($name:ident: $url:expr, $default:expr => $expected:expr;)*) => {
            $(
                #[test]
                fn $name() {
                    let got = with_scheme($url.to_owned(), 1, $default).map_err(|e| e.kind());
                    assert_eq!(got, $expected.map(str::to_owned));
                }
            )*
        };
    }

    scheme_cases! {
        http_kept: "http://x.test/", None => Ok::<_, ErrorKind>("http://x.test/");
        https_any_case_kept: "HTTPS://x.test/", None => Ok::<_, ErrorKind>("HTTPS://x.test/");
        scheme_less_is_http: "x.test/a", None => Ok::<_, ErrorKind>("http://x.test/a");
        scheme_less_with_port: "localhost:8080/a", None => Ok::<_, ErrorKind>("http://localhost:8080/a");
        scheme_in_query_is_not_a_scheme: "x.test/?u=http://y", None
            => Ok::<_, ErrorKind>("http://x.test/?u=http://y");
        proto_default_https: "x.test", Some("https") => Ok::<_, ErrorKind>("https://x.test");
        ftp_refused: "ftp://x.test/", None => Err::<&str, _>(ErrorKind::UnsupportedScheme);
        ftp_host_guessed: "ftp.x.test/", None => Err::<&str, _>(ErrorKind::UnsupportedScheme);
        proto_default_overrides_guess: "ftp.x.test/", Some("https")
            => Ok::<_, ErrorKind>("https://ftp.x.test/");
        // Regression: the guess sliced the URL inside a multi-byte character and panicked.
        multibyte_char_at_guess_prefix_end: "@@xré", None => Ok::<_, ErrorKind>("http://@@xré");
        short_multibyte_url: "é", None => Ok::<_, ErrorKind>("http://é");
    }

    #[test]
    fn globs_after_the_host_are_found() {
        assert!(has_glob("http://x.test/a[1-3]"));
        assert!(has_glob("http://x.test/?f[name]=x"));
        assert!(has_glob("http://x.test/{a,b}"));
        assert!(!has_glob("http://[::1]:8080/a"));
        assert!(!has_glob("http://x.test/a"));
    }

    #[test]
    fn program_names() {
        for name in [
            "curl",
            "CURL",
            "curl.exe",
            "/usr/bin/curl",
            "C:\\tools\\curl.exe",
        ] {
            assert!(is_curl(name.as_bytes()), "{}", name);
        }
        for name in ["wget", "curly", "xcurl", "", "curl/", "/usr/bin/"] {
            assert!(!is_curl(name.as_bytes()), "{}", name);
        }
    }
}
