//! The value syntax of `-F`/`--form`, as curl's `tool_formparse.c` reads it.
//!
//! ```text
//! name=content[;param]...        a text field; content may be "quoted" (\" and \\ escapes)
//! name=@file[;param]...          a file upload (file may be quoted; `,` lists several)
//! name=<file[;param]...          a text field whose content comes from a file
//! param: type=TYPE | filename=NAME | headers=HEADER | encoder=ENCODING
//! ```
//!
//! Unquoted words end at `;` (and at `,` in a file list) and lose their trailing blanks;
//! blanks after a `;` are skipped; parameter names are case-insensitive. `type=` runs up to
//! the next `;` that starts a known parameter, so `type=text/plain;charset=utf-8` keeps its
//! charset. curl ignores unknown parameters and text after a closing quote; so does this,
//! with a note. Files are never opened: they stay as references.

use super::command::{FormPart, FormValue};

/// The form part, and the notes about what was ignored in it.
pub(crate) struct Parsed {
    pub(crate) part: FormPart,
    pub(crate) notes: Vec<&'static str>,
}

/// Why a `-F` value could not be read.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum FormError {
    /// No `=` between name and content.
    NoEquals,
    /// A name, file name, type or header that is not UTF-8.
    NotText,
    /// A name, file name, type or header with CR or LF: they become multipart header lines.
    LineBreak,
}

const PARAMS: &[&str] = &["type=", "filename=", "headers=", "encoder="];

/// Reads a `-F` value.
pub(crate) fn parse(arg: &[u8], arg_index: usize) -> Result<Parsed, FormError> {
    let eq = arg
        .iter()
        .position(|&b| b == b'=')
        .ok_or(FormError::NoEquals)?;
    let name = text(&arg[..eq])?;
    let content = &arg[eq + 1..];
    let mut parsed = Parsed {
        part: FormPart {
            name,
            value: FormValue::Text(Vec::new()),
            content_type: None,
            filename: None,
            headers: Vec::new(),
            encoder: None,
            arg_index,
        },
        notes: Vec::new(),
    };
    let rest = match content.first() {
        Some(b'@') => {
            let (path, rest, more) = file_list(&content[1..], &mut parsed.notes)?;
            if more {
                parsed.notes.push(
                    "curl would attach several files in one multipart/mixed part; only the \
                     first is kept",
                );
            }
            parsed.part.value = FormValue::File(path);
            rest
        }
        Some(b'<') => {
            let (word, rest) = word(&content[1..], b";", &mut parsed.notes);
            parsed.part.value = FormValue::FileContent(text(&word)?);
            rest
        }
        _ => {
            let (word, rest) = word(content, b";", &mut parsed.notes);
            parsed.part.value = FormValue::Text(word);
            rest
        }
    };
    params(rest, &mut parsed)?;
    check_lines(&parsed.part)?;
    Ok(parsed)
}

/// Refuses CR and LF in what becomes a multipart header line.
fn check_lines(part: &FormPart) -> Result<(), FormError> {
    let optional = [part.content_type.as_ref(), part.filename.as_ref()];
    let mut texts = std::iter::once(&part.name)
        .chain(optional.into_iter().flatten())
        .chain(part.headers.iter());
    if texts.any(|text| text.contains(['\r', '\n'])) {
        return Err(FormError::LineBreak);
    }
    Ok(())
}

/// Reads a `--form-string` value: `name=value`, taken literally.
pub(crate) fn parse_string(arg: &[u8], arg_index: usize) -> Result<FormPart, FormError> {
    let eq = arg
        .iter()
        .position(|&b| b == b'=')
        .ok_or(FormError::NoEquals)?;
    let part = FormPart {
        name: text(&arg[..eq])?,
        value: FormValue::Text(arg[eq + 1..].to_vec()),
        content_type: None,
        filename: None,
        headers: Vec::new(),
        encoder: None,
        arg_index,
    };
    check_lines(&part)?;
    Ok(part)
}

fn text(bytes: &[u8]) -> Result<String, FormError> {
    String::from_utf8(bytes.to_vec()).map_err(|_| FormError::NotText)
}

/// Reads `file[;param]...[,file...]`: the first path, its parameters, and whether more
/// files follow.
fn file_list<'a>(
    input: &'a [u8],
    notes: &mut Vec<&'static str>,
) -> Result<(String, &'a [u8], bool), FormError> {
    let (first, rest) = word(input, b";,", notes);
    let end = unquoted_comma(rest);
    Ok((text(&first)?, &rest[..end], end < rest.len()))
}

/// The offset of the first `,` outside double quotes, or the length.
fn unquoted_comma(input: &[u8]) -> usize {
    let mut quoted = false;
    let mut at = 0;
    while let Some(&byte) = input.get(at) {
        match byte {
            b'"' => quoted = !quoted,
            b'\\' if quoted => at += 1,
            b',' if !quoted => return at,
            _ => {}
        }
        at += 1;
    }
    input.len()
}

/// Reads one word up to a byte in `stops`: quoted (`"..."` with `\"` and `\\`) or not (trailing
/// blanks dropped). Returns the word and the input from the stop byte on.
fn word<'a>(input: &'a [u8], stops: &[u8], notes: &mut Vec<&'static str>) -> (Vec<u8>, &'a [u8]) {
    if input.first() == Some(&b'"') {
        if let Some((word, after)) = quoted(&input[1..]) {
            let end = after
                .iter()
                .position(|b| stops.contains(b))
                .unwrap_or(after.len());
            if after[..end].iter().any(|&b| b != b' ' && b != b'\t') {
                notes.push("curl ignores the text after a closing quote in a form value");
            }
            return (word, &after[end..]);
        }
        // No closing quote: curl reads the word as unquoted, quote included.
    }
    let end = input
        .iter()
        .position(|b| stops.contains(b))
        .unwrap_or(input.len());
    let mut word = input[..end].to_vec();
    while matches!(word.last(), Some(b' ' | b'\t')) {
        word.pop();
    }
    (word, &input[end..])
}

/// The body of a quoted word (after the opening quote) and the input after its closing quote.
fn quoted(input: &[u8]) -> Option<(Vec<u8>, &[u8])> {
    let mut word = Vec::new();
    let mut at = 0;
    while let Some(&byte) = input.get(at) {
        match (byte, input.get(at + 1)) {
            (b'"', _) => return Some((word, &input[at + 1..])),
            (b'\\', Some(&next)) if next == b'"' || next == b'\\' => {
                word.push(next);
                at += 2;
            }
            _ => {
                word.push(byte);
                at += 1;
            }
        }
    }
    None
}

/// Reads `;param=value` pairs.
fn params(mut rest: &[u8], parsed: &mut Parsed) -> Result<(), FormError> {
    while let Some(b';') = rest.first() {
        rest = skip_blanks(&rest[1..]);
        let param = PARAMS.iter().find(|p| starts_with_ignore_case(rest, p));
        let param = match param {
            Some(param) => *param,
            None => {
                let end = rest.iter().position(|&b| b == b';').unwrap_or(rest.len());
                if end > 0 {
                    parsed
                        .notes
                        .push("curl ignores an unknown form parameter; it is left out");
                }
                rest = &rest[end..];
                continue;
            }
        };
        rest = &rest[param.len()..];
        if param == "type=" {
            rest = skip_blanks(rest);
            let end = type_end(rest);
            let value = trim_end(&rest[..end]);
            parsed.part.content_type = Some(text(value)?);
            rest = &rest[end..];
            continue;
        }
        let (value, after) = word(rest, b";", &mut parsed.notes);
        rest = after;
        let value = text(&value)?;
        match param {
            "filename=" => parsed.part.filename = Some(value),
            "encoder=" => parsed.part.encoder = Some(value),
            _ if value.starts_with('@') => parsed
                .notes
                .push("curl would read this part's headers from a file; they are left out"),
            _ => parsed.part.headers.push(value),
        }
    }
    Ok(())
}

/// Where a `type=` value ends: at a `;` that starts a known parameter, or the end.
fn type_end(input: &[u8]) -> usize {
    let mut at = 0;
    while let Some(offset) = input[at..].iter().position(|&b| b == b';') {
        let semi = at + offset;
        let after = skip_blanks(&input[semi + 1..]);
        if PARAMS.iter().any(|p| starts_with_ignore_case(after, p)) {
            return semi;
        }
        at = semi + 1;
    }
    input.len()
}

fn skip_blanks(input: &[u8]) -> &[u8] {
    let start = input
        .iter()
        .position(|&b| b != b' ' && b != b'\t')
        .unwrap_or(input.len());
    &input[start..]
}

fn trim_end(mut input: &[u8]) -> &[u8] {
    while let [head @ .., b' ' | b'\t'] = input {
        input = head;
    }
    input
}

fn starts_with_ignore_case(input: &[u8], prefix: &str) -> bool {
    input.len() >= prefix.len() && input[..prefix.len()].eq_ignore_ascii_case(prefix.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(arg: &str) -> FormPart {
        match parse(arg.as_bytes(), 1) {
            Ok(parsed) => parsed.part,
            Err(err) => panic!("{:?} for {}", err, arg),
        }
    }

    fn notes(arg: &str) -> usize {
        parse(arg.as_bytes(), 1).map_or(usize::MAX, |parsed| parsed.notes.len())
    }

    fn text_of(part: &FormPart) -> &[u8] {
        match part.value() {
            FormValue::Text(bytes) => bytes,
            _ => panic!("not text: {:?}", part),
        }
    }

    macro_rules! text_cases {
        ($($name:ident: $arg:expr => ($field:expr, $value:expr, $type:expr, $filename:expr);)*) => {
            $(
                #[test]
                fn $name() {
                    let part = part($arg);
                    assert_eq!(part.name(), $field);
                    assert_eq!(text_of(&part), $value.as_bytes());
                    assert_eq!(part.content_type(), $type);
                    assert_eq!(part.filename(), $filename);
                }
            )*
        };
    }

    text_cases! {
        plain_value: "a=v" => ("a", "v", None, None);
        empty_value: "a=" => ("a", "", None, None);
        empty_name: "=x" => ("", "x", None, None);
        equals_in_value: "a=b=c" => ("a", "b=c", None, None);
        value_with_type: "a=v;type=text/x" => ("a", "v", Some("text/x"), None);
        trailing_blank_dropped: "a=x ;type=t/x" => ("a", "x", Some("t/x"), None);
        blank_before_param_skipped: "a=x; type=t/x" => ("a", "x", Some("t/x"), None);
        param_name_any_case: "a=x;TYPE=t/z" => ("a", "x", Some("t/z"), None);
        type_keeps_its_parameters: "a=x;type=text/plain;charset=utf-8"
            => ("a", "x", Some("text/plain;charset=utf-8"), None);
        type_ends_at_known_param: "a=x;type=t/w;foo;filename=n"
            => ("a", "x", Some("t/w;foo"), Some("n"));
        type_blank_skipped: "a=x;type= t/y" => ("a", "x", Some("t/y"), None);
        quoted_value_keeps_semicolon: "a=\"x;y\";type=a/b" => ("a", "x;y", Some("a/b"), None);
        quoted_value_escapes: "a=\"x\\\"y\\\\z\"" => ("a", "x\"y\\z", None, None);
        quoted_value_other_backslash_kept: "a=\"x\\ny\"" => ("a", "x\\ny", None, None);
        quoted_at_is_text: "a=\"@file\"" => ("a", "@file", None, None);
        unterminated_quote_is_literal: "a=\"x;type=t" => ("a", "\"x", Some("t"), None);
        quoted_filename: "a=x; filename=\"u v\"" => ("a", "x", None, Some("u v"));
        text_with_filename: "f=x;filename=n.txt" => ("f", "x", None, Some("n.txt"));
    }

    #[test]
    fn file_upload_with_params() {
        let part = part("b=@f.txt;type=text/plain;filename=y.txt");
        assert_eq!(part.value(), &FormValue::File("f.txt".to_owned()));
        assert_eq!(part.content_type(), Some("text/plain"));
        assert_eq!(part.filename(), Some("y.txt"));
    }

    #[test]
    fn quoted_file_name_and_quoted_filename() {
        let part = part("e=@\"my file.txt\";filename=\"q\\\"r.txt\"");
        assert_eq!(part.file(), Some("my file.txt"));
        assert_eq!(part.filename(), Some("q\"r.txt"));
    }

    #[test]
    fn file_content_is_a_reference() {
        let part = part("c=<body.txt");
        assert_eq!(part.value(), &FormValue::FileContent("body.txt".to_owned()));
        assert_eq!(part.file(), Some("body.txt"));
        assert_eq!(part.text(), None);
    }

    #[test]
    fn several_files_keep_the_first_with_a_note() {
        let parsed = parse(b"a=@one.txt;type=t/a,two.txt;type=t/b", 1);
        let parsed = parsed.map_err(|e| format!("{:?}", e));
        let parsed = parsed.as_ref().map(|p| (&p.part, p.notes.len()));
        assert_eq!(parsed.map(|(p, n)| (p.file(), n)), Ok((Some("one.txt"), 1)));
    }

    #[test]
    fn headers_and_encoder() {
        let part = part("a=@f.bin;headers=\"X-H: 1\";headers=X-I: 2;encoder=base64");
        assert_eq!(part.headers(), ["X-H: 1", "X-I: 2"]);
        assert_eq!(part.encoder(), Some("base64"));
    }

    #[test]
    fn notes_for_what_curl_ignores() {
        assert_eq!(notes("a=1;2"), 1);
        assert_eq!(notes("a=x;foo=bar"), 1);
        assert_eq!(notes("b=\"x\" y"), 1);
        assert_eq!(notes("a=x;headers=@hf"), 1);
        assert_eq!(notes("a=x;type=t"), 0);
        assert_eq!(notes("a=x;"), 0);
    }

    #[test]
    fn unknown_param_is_left_out() {
        let part = part("a=1;2");
        assert_eq!(text_of(&part), b"1");
    }

    #[test]
    fn binary_text_value_is_kept() {
        let parsed = parse(b"a=\xff\xfe", 1).map(|p| p.part.value);
        assert_eq!(parsed, Ok(FormValue::Text(vec![0xff, 0xfe])));
    }

    #[test]
    fn errors() {
        assert_eq!(parse(b"noeq", 1).err(), Some(FormError::NoEquals));
        assert_eq!(parse(b"\xff=x", 1).err(), Some(FormError::NotText));
        assert_eq!(parse(b"a=@\xff", 1).err(), Some(FormError::NotText));
        assert_eq!(parse_string(b"noeq", 1).err(), Some(FormError::NoEquals));
        assert_eq!(parse(b"a\nb=x", 1).err(), Some(FormError::LineBreak));
        assert_eq!(
            parse(b"a=x;type=t\r\nX: y", 1).err(),
            Some(FormError::LineBreak)
        );
        assert_eq!(
            parse(b"a=@f;filename=\"a\nb\"", 1).err(),
            Some(FormError::LineBreak)
        );
        assert_eq!(
            parse(b"a=x;headers=\"X: 1\r\n\"", 1).err(),
            Some(FormError::LineBreak)
        );
        assert_eq!(parse_string(b"a\r=x", 1).err(), Some(FormError::LineBreak));
        // A text value may hold line breaks: it is the part's body.
        assert!(parse(b"a=x\ny", 1).is_ok());
    }

    #[test]
    fn form_string_is_literal() {
        let part = parse_string(b"a=@f.txt;type=x", 2).map(|p| p.value);
        assert_eq!(part, Ok(FormValue::Text(b"@f.txt;type=x".to_vec())));
    }
}
