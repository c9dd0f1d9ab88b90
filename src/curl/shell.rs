//! Splits a command line into arguments the way bash does for one simple command.
//!
//! What is read (bash manual, "Quoting" and "Comments"):
//!
//! - blanks (space, tab) separate words; an unescaped newline ends the command, and anything
//!   but blanks and comments after it is a second command ([`ErrorKind::SecondCommand`](crate::curl::ErrorKind::SecondCommand));
//! - `\c` outside quotes is the character `c`; `\` before a newline (or CR LF) joins lines;
//! - `'...'` keeps everything up to the next `'`;
//! - `"..."` keeps everything but `\\`, `\"`, `\$`, `` \` `` and `\` newline, which are
//!   escapes; `$"..."` reads the same (no message catalog is consulted);
//! - `$'...'` decodes the ANSI-C escapes `\a \b \e \E \f \n \r \t \v \\ \' \" \?`, `\nnn`
//!   (octal), `\xHH`, `\uHHHH`, `\UHHHHHHHH` and `\cX`, to bytes and UTF-8 as bash does
//!   in a UTF-8 locale; an unknown escape keeps its backslash;
//! - `#` at the start of a word begins a comment that runs to the end of the line;
//! - a first word that is a plain `$` is a copied prompt and is dropped;
//! - a plain variable, `$NAME` or `${NAME}` outside single quotes, is written into the word
//!   as `${NAME}` (the plugin file's variable syntax) and listed in [`Word::variables`]:
//!   nothing is read from the environment. `$1`, `$$`, `${NAME:-x}` and every other
//!   parameter expansion are errors.
//!
//! Everything that would make bash do more than run one command with literal arguments is
//! an error naming what was found and where: pipes, lists, `&`, redirections, subshells,
//! command and process substitution, expansions other than a plain variable, `*` globs, brace and tilde expansion, NUL
//! bytes (no argument can hold one), and the line continuations of cmd (`^`) and
//! PowerShell (`` ` ``). Unquoted `?` and `[` are kept literally: bash leaves a pattern
//! that matches no file as written, and URLs written without quotes rely on that.
//!
//! The input is a `&str`, so every byte that means something to the shell is ASCII and can
//! be matched byte by byte without splitting a UTF-8 sequence. Words are bytes: `$'\xff'`
//! makes an argument that is not UTF-8, and the option reader decides where that is allowed.
//! Each byte is looked at a bounded number of times and there is no recursion, so the time
//! is linear in the input and nesting depth costs nothing.

use super::error::{Error, Quote, Reason};

/// One argument, with the byte offset where it starts in the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Word {
    /// The argument as the program would receive it.
    pub(crate) bytes: Vec<u8>,
    /// Byte offset of its first character in the input.
    pub(crate) offset: usize,
    /// The shell variables (`$NAME`, `${NAME}`) it references, in order: each is written
    /// into `bytes` as `${NAME}`, the plugin file's own variable syntax.
    pub(crate) variables: Vec<String>,
}

/// Splits `input` into the arguments of one command, as bash would pass them.
pub(crate) fn split(input: &str) -> Result<Vec<Word>, Error> {
    Lexer::new(input).run()
}

/// What bash says about syntax it would act on.
const ONE_COMMAND: &str = "httptool reads one curl command with literal arguments; quote it \
                           or remove it";

struct Lexer<'a> {
    src: &'a [u8],
    pos: usize,
    words: Vec<Word>,
    /// The word being read.
    current: Vec<u8>,
    /// Offset where the current word started; `None` between words.
    start: Option<usize>,
    /// The current word used no quotes or escapes (only such a `$` can be a prompt).
    plain: bool,
    /// Offset of an unquoted `{` in the current word that may open a brace expansion.
    brace: Option<usize>,
    /// An unquoted `,` or `..` follows that `{`.
    brace_list: bool,
    /// Set once a newline has ended the command.
    ended: bool,
    /// The first word has been seen (a prompt can only be the first word).
    prompt_checked: bool,
    /// The variables the current word references.
    variables: Vec<String>,
}

impl<'a> Lexer<'a> {
    fn new(input: &'a str) -> Self {
        Lexer {
            src: input.as_bytes(),
            pos: 0,
            words: Vec::new(),
            current: Vec::new(),
            start: None,
            plain: true,
            brace: None,
            brace_list: false,
            ended: false,
            prompt_checked: false,
            variables: Vec::new(),
        }
    }

    fn run(mut self) -> Result<Vec<Word>, Error> {
        while let Some(byte) = self.peek(0) {
            if self.ended {
                self.after_end(byte)?;
            } else {
                self.unquoted(byte)?;
            }
        }
        self.finish_word();
        Ok(self.words)
    }

    fn peek(&self, ahead: usize) -> Option<u8> {
        self.src.get(self.pos + ahead).copied()
    }

    /// Index the word being read will have.
    fn arg_index(&self) -> usize {
        self.words.len()
    }

    /// After the newline that ended the command: only blanks and comments may follow.
    fn after_end(&mut self, byte: u8) -> Result<(), Error> {
        match byte {
            b' ' | b'\t' | b'\r' | b'\n' => {
                self.pos += 1;
                Ok(())
            }
            b'#' => self.comment(),
            b'\0' => Err(self.nul(self.pos)),
            _ => Err(Error::from(Reason::SecondCommand {
                offset: self.pos,
                line: 1 + self.src[..self.pos].iter().filter(|&&b| b == b'\n').count(),
            })),
        }
    }

    fn unquoted(&mut self, byte: u8) -> Result<(), Error> {
        match byte {
            b' ' | b'\t' => self.blank(),
            b'\n' => self.newline(),
            b'\r' if matches!(self.peek(1), None | Some(b'\n')) => self.blank(),
            b'\\' => self.backslash(),
            b'\'' => self.single_quoted(),
            b'"' => {
                self.begin_quoted();
                self.pos += 1;
                self.double_quoted(self.pos - 1)
            }
            b'$' => self.dollar(),
            b'#' if self.start.is_none() => self.comment(),
            b'\0' => Err(self.nul(self.pos)),
            b'{' | b'}' | b',' | b'.' => {
                self.brace_syntax(byte)?;
                self.literal(byte);
                Ok(())
            }
            _ => {
                self.reject_operator(byte)?;
                self.literal(byte);
                Ok(())
            }
        }
    }

    fn literal(&mut self, byte: u8) {
        self.begin_word();
        self.current.push(byte);
        self.pos += 1;
    }

    fn begin_word(&mut self) {
        if self.start.is_none() {
            self.start = Some(self.pos);
        }
    }

    fn begin_quoted(&mut self) {
        self.begin_word();
        self.plain = false;
    }

    fn blank(&mut self) -> Result<(), Error> {
        self.finish_word();
        self.pos += 1;
        Ok(())
    }

    fn newline(&mut self) -> Result<(), Error> {
        self.finish_word();
        // Blank lines and comment lines before the command do not end it.
        if !self.words.is_empty() {
            self.ended = true;
        }
        self.pos += 1;
        Ok(())
    }

    fn finish_word(&mut self) {
        let start = self.start.take();
        self.brace = None;
        self.brace_list = false;
        let plain = std::mem::replace(&mut self.plain, true);
        let offset = match start {
            Some(offset) => offset,
            None => return,
        };
        let bytes = std::mem::take(&mut self.current);
        let variables = std::mem::take(&mut self.variables);
        if !self.prompt_checked {
            self.prompt_checked = true;
            if plain && bytes == b"$" {
                return;
            }
        }
        self.words.push(Word {
            bytes,
            offset,
            variables,
        });
    }

    fn comment(&mut self) -> Result<(), Error> {
        while let Some(byte) = self.peek(0) {
            match byte {
                b'\n' => return Ok(()),
                b'\0' => return Err(self.nul(self.pos)),
                _ => self.pos += 1,
            }
        }
        Ok(())
    }

    /// `\` outside quotes: a line continuation, or the next character taken literally.
    fn backslash(&mut self) -> Result<(), Error> {
        match (self.peek(1), self.peek(2)) {
            (Some(b'\n'), _) => self.pos += 2,
            (Some(b'\r'), Some(b'\n')) => self.pos += 3,
            (Some(b'\0'), _) => return Err(self.nul(self.pos + 1)),
            (Some(next), _) => {
                self.begin_quoted();
                self.current.push(next);
                self.pos += 2;
            }
            // bash -c keeps a backslash that ends the input.
            (None, _) => self.literal(b'\\'),
        }
        Ok(())
    }

    fn single_quoted(&mut self) -> Result<(), Error> {
        let open = self.pos;
        self.begin_quoted();
        let body = &self.src[open + 1..];
        let len = match body.iter().position(|&b| b == b'\'') {
            Some(len) => len,
            None => return Err(self.unterminated(Quote::Single, open)),
        };
        if let Some(at) = body[..len].iter().position(|&b| b == 0) {
            return Err(self.nul(open + 1 + at));
        }
        self.current.extend_from_slice(&body[..len]);
        self.pos = open + len + 2;
        Ok(())
    }

    /// Reads the body of `"..."` from `self.pos`; `open` is the offset of the quote.
    fn double_quoted(&mut self, open: usize) -> Result<(), Error> {
        loop {
            let byte = match self.peek(0) {
                Some(byte) => byte,
                None => return Err(self.unterminated(Quote::Double, open)),
            };
            match byte {
                b'"' => {
                    self.pos += 1;
                    return Ok(());
                }
                b'\\' => self.double_quoted_backslash(open)?,
                b'$' => self.double_quoted_dollar()?,
                b'`' => return Err(self.backtick()),
                b'\0' => return Err(self.nul(self.pos)),
                _ => {
                    self.current.push(byte);
                    self.pos += 1;
                }
            }
        }
    }

    fn double_quoted_backslash(&mut self, open: usize) -> Result<(), Error> {
        match (self.peek(1), self.peek(2)) {
            (Some(escaped @ (b'\\' | b'"' | b'$' | b'`')), _) => {
                self.current.push(escaped);
                self.pos += 2;
            }
            (Some(b'\n'), _) => self.pos += 2,
            (Some(b'\r'), Some(b'\n')) => self.pos += 3,
            (Some(_), _) => {
                // Any other backslash stays, and the next byte is read normally.
                self.current.push(b'\\');
                self.pos += 1;
            }
            (None, _) => return Err(self.unterminated(Quote::Double, open)),
        }
        Ok(())
    }

    fn double_quoted_dollar(&mut self) -> Result<(), Error> {
        if !self.variable()? {
            self.current.push(b'$');
            self.pos += 1;
        }
        Ok(())
    }

    /// `$` outside quotes: `$'...'`, `$"..."`, a variable, another expansion (an error), or
    /// a literal `$`.
    fn dollar(&mut self) -> Result<(), Error> {
        match self.peek(1) {
            Some(b'\'') => {
                self.begin_quoted();
                self.ansi_c()
            }
            Some(b'"') => {
                self.begin_quoted();
                let open = self.pos;
                self.pos += 2;
                self.double_quoted(open)
            }
            _ => {
                self.begin_word();
                if !self.variable()? {
                    self.literal(b'$');
                }
                Ok(())
            }
        }
    }

    /// At a `$`: reads a plain variable (`$NAME`, `${NAME}`) into the word as `${NAME}` and
    /// returns `true`; returns `false` for a literal `$`; any other expansion is an error.
    fn variable(&mut self) -> Result<bool, Error> {
        let at = self.pos;
        let arg_index = self.arg_index();
        let shell = |found: &'static str| {
            Error::from(Reason::UnsupportedShell {
                found,
                hint: "httptool does not run commands; write the output instead",
                offset: at,
                arg_index,
            })
        };
        let other = |name: &[u8]| {
            let shown = crate::quote::excerpt(&String::from_utf8_lossy(name));
            Error::from(Reason::Variable {
                name: shown,
                offset: at,
                arg_index,
            })
        };
        let rest = &self.src[at + 1..];
        // bash manual, "Shell Parameters": a name is a letter or `_`, then letters, digits
        // and `_`.
        let name_len = |text: &[u8]| {
            text.iter()
                .position(|&b| !(b == b'_' || b.is_ascii_alphanumeric()))
                .unwrap_or(text.len())
        };
        let starts_name = |b: u8| b == b'_' || b.is_ascii_alphabetic();
        let (name, used) = match rest.first() {
            Some(b'(') if rest.get(1) == Some(&b'(') => {
                return Err(shell("an arithmetic expansion `$((`"))
            }
            Some(b'(') => return Err(shell("a command substitution `$(`")),
            Some(b'{') => {
                let body = &rest[1..];
                let len = name_len(body);
                let plain =
                    body.first().map_or(false, |&b| starts_name(b)) && body.get(len) == Some(&b'}');
                if !plain {
                    // `${VAR:-x}`, `${#VAR}`, `${VAR/a/b}`, `${1}`: bash would compute it.
                    let end = rest.iter().position(|&b| b == b'}').unwrap_or(rest.len());
                    let mut shown = rest[..end].to_vec();
                    shown.push(b'}');
                    return Err(other(&shown));
                }
                (&body[..len], len + 3)
            }
            Some(&b) if starts_name(b) => {
                let len = name_len(rest);
                (&rest[..len], len + 1)
            }
            Some(&b) if b.is_ascii_digit() || b"@*#?-$!".contains(&b) => {
                return Err(other(&rest[..1]))
            }
            _ => return Ok(false),
        };
        self.plain = false;
        self.current.extend_from_slice(b"${");
        self.current.extend_from_slice(name);
        self.current.push(b'}');
        // The name is ASCII, so this never loses a byte.
        self.variables
            .push(String::from_utf8_lossy(name).into_owned());
        self.pos = at + used;
        Ok(true)
    }

    /// Reads `$'...'` starting at the `$`.
    fn ansi_c(&mut self) -> Result<(), Error> {
        let open = self.pos;
        self.pos += 2;
        loop {
            let byte = match self.peek(0) {
                Some(byte) => byte,
                None => return Err(self.unterminated(Quote::AnsiC, open)),
            };
            match byte {
                b'\'' => {
                    self.pos += 1;
                    return Ok(());
                }
                b'\\' => self.ansi_c_escape(open)?,
                b'\0' => return Err(self.nul(self.pos)),
                _ => {
                    self.current.push(byte);
                    self.pos += 1;
                }
            }
        }
    }

    /// One escape inside `$'...'`, at the backslash (bash manual, "ANSI-C Quoting").
    fn ansi_c_escape(&mut self, open: usize) -> Result<(), Error> {
        let at = self.pos;
        let next = match self.peek(1) {
            Some(next) => next,
            None => return Err(self.unterminated(Quote::AnsiC, open)),
        };
        let simple = match next {
            b'a' => Some(0x07),
            b'b' => Some(0x08),
            b'e' | b'E' => Some(0x1b),
            b'f' => Some(0x0c),
            b'n' => Some(b'\n'),
            b'r' => Some(b'\r'),
            b't' => Some(b'\t'),
            b'v' => Some(0x0b),
            b'\\' | b'\'' | b'"' | b'?' => Some(next),
            _ => None,
        };
        if let Some(byte) = simple {
            self.current.push(byte);
            self.pos += 2;
            return Ok(());
        }
        match next {
            b'0'..=b'7' => {
                let (value, len) = self.number(self.pos + 1, 8, 3);
                // bash keeps the low eight bits of `\400` to `\777`.
                self.push_escaped_byte((value & 0xff) as u8, at)?;
                self.pos += 1 + len;
            }
            b'x' => self.hex_escape(at, 2)?,
            b'u' => self.unicode_escape(at, 4)?,
            b'U' => self.unicode_escape(at, 8)?,
            b'c' => self.control_escape(at)?,
            _ => {
                // An unknown escape keeps its backslash; the next byte is read normally.
                self.current.push(b'\\');
                self.pos += 1;
            }
        }
        Ok(())
    }

    /// Reads up to `max` digits in `radix` at `from`: the value and how many were read.
    fn number(&self, from: usize, radix: u32, max: usize) -> (u32, usize) {
        let digits = self.src[from..]
            .iter()
            .take(max)
            .map_while(|&b| char::from(b).to_digit(radix));
        digits.fold((0, 0), |(value, len), digit| {
            (value * radix + digit, len + 1)
        })
    }

    fn hex_escape(&mut self, at: usize, max: usize) -> Result<(), Error> {
        let (value, len) = self.number(at + 2, 16, max);
        if len == 0 {
            // `\x` without digits stays as written.
            self.current.extend_from_slice(b"\\x");
        } else {
            self.push_escaped_byte(value as u8, at)?;
        }
        self.pos = at + 2 + len;
        Ok(())
    }

    fn unicode_escape(&mut self, at: usize, max: usize) -> Result<(), Error> {
        let (value, len) = self.number(at + 2, 16, max);
        if len == 0 {
            self.current.extend_from_slice(&self.src[at..at + 2]);
            self.pos = at + 2;
            return Ok(());
        }
        if value == 0 {
            return Err(self.nul(at));
        }
        // bash would write surrogates and values past U+10FFFF as invalid UTF-8.
        let c = match char::from_u32(value) {
            Some(c) => c,
            None => {
                return Err(Error::from(Reason::InvalidEscape {
                    offset: at,
                    arg_index: self.arg_index(),
                }))
            }
        };
        let mut buf = [0; 4];
        self.current
            .extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        self.pos = at + 2 + len;
        Ok(())
    }

    /// `\cX`: the control character of X, as bash computes it (`X & 0x1f`, `\c?` is DEL).
    fn control_escape(&mut self, at: usize) -> Result<(), Error> {
        let x = match self.peek(2) {
            Some(x) => x,
            None => {
                // `\c` at the end: the closing quote is missing anyway.
                self.current.extend_from_slice(b"\\c");
                self.pos = at + 2;
                return Ok(());
            }
        };
        let mut len = 3;
        // bash reads `\c\\` as one escaped backslash.
        if x == b'\\' && self.peek(3) == Some(b'\\') {
            len = 4;
        }
        let value = if x == b'?' { 0x7f } else { x & 0x1f };
        self.push_escaped_byte(value, at)?;
        self.pos = at + len;
        Ok(())
    }

    fn push_escaped_byte(&mut self, byte: u8, at: usize) -> Result<(), Error> {
        if byte == 0 {
            return Err(self.nul(at));
        }
        self.current.push(byte);
        Ok(())
    }

    /// Brace expansion needs an unquoted `{`, then `,` or `..`, then `}` in one word.
    fn brace_syntax(&mut self, byte: u8) -> Result<(), Error> {
        match byte {
            b'{' if self.brace.is_none() => {
                self.brace = Some(self.pos);
                self.brace_list = false;
            }
            b',' => self.brace_list = self.brace.is_some(),
            b'.' if self.peek(1) == Some(b'.') && self.brace.is_some() => self.brace_list = true,
            b'}' => {
                if let (Some(open), true) = (self.brace, self.brace_list) {
                    return Err(Error::from(Reason::UnsupportedShell {
                        found: "a brace expansion `{a,b}`",
                        hint: "quote the argument so bash keeps it as one",
                        offset: open,
                        arg_index: self.arg_index(),
                    }));
                }
                self.brace = None;
            }
            _ => {}
        }
        Ok(())
    }

    /// Unquoted characters that make bash do something else than pass an argument.
    fn reject_operator(&self, byte: u8) -> Result<(), Error> {
        let next = self.peek(1);
        let (found, hint) = match byte {
            b'|' if next == Some(b'|') => ("an or-list `||`", ONE_COMMAND),
            b'|' => ("a pipe `|`", ONE_COMMAND),
            b'&' if next == Some(b'&') => ("an and-list `&&`", ONE_COMMAND),
            b'&' => (
                "a background `&`",
                "an unquoted `&` ends the command; quote URLs that hold `&`",
            ),
            b';' => ("a command separator `;`", ONE_COMMAND),
            b'<' | b'>' if next == Some(b'(') => ("a process substitution", ONE_COMMAND),
            b'<' => ("an input redirection `<`", ONE_COMMAND),
            b'>' => ("an output redirection `>`", ONE_COMMAND),
            b'(' | b')' => ("a subshell parenthesis", ONE_COMMAND),
            b'`' => return Err(self.backtick()),
            b'*' => (
                "a glob `*`",
                "bash would replace it with file names; quote the argument",
            ),
            b'~' if self.start.is_none() => (
                "a tilde expansion `~`",
                "bash would replace it with a home directory; write the path or quote it",
            ),
            b'^' if self.line_ends_at(self.pos + 1) => (
                "a Windows cmd line continuation `^`",
                "cmd syntax is not supported; copy the command as bash (\"Copy as cURL (bash)\")",
            ),
            _ => return Ok(()),
        };
        Err(Error::from(Reason::UnsupportedShell {
            found,
            hint,
            offset: self.pos,
            arg_index: self.arg_index(),
        }))
    }

    fn backtick(&self) -> Error {
        let (found, hint) = if self.line_ends_at(self.pos + 1) {
            (
                "a PowerShell line continuation `` ` ``",
                "PowerShell syntax is not supported; copy the command as bash",
            )
        } else {
            (
                "a command substitution with backticks",
                "httptool does not run commands; write the output instead",
            )
        };
        Error::from(Reason::UnsupportedShell {
            found,
            hint,
            offset: self.pos,
            arg_index: self.arg_index(),
        })
    }

    /// A newline (or CR LF) is at `at`, possibly after blanks.
    fn line_ends_at(&self, at: usize) -> bool {
        let rest = self.src.get(at..).unwrap_or(&[]);
        let len = rest
            .iter()
            .position(|&b| b != b' ' && b != b'\t')
            .unwrap_or(rest.len());
        matches!(
            rest.get(len..),
            Some([b'\n', ..]) | Some([b'\r', b'\n', ..])
        )
    }

    fn unterminated(&self, quote: Quote, offset: usize) -> Error {
        Error::from(Reason::UnterminatedQuote {
            quote,
            offset,
            arg_index: self.arg_index(),
        })
    }

    fn nul(&self, offset: usize) -> Error {
        Error::from(Reason::NulByte {
            offset,
            arg_index: self.arg_index(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curl::error::ErrorKind;

    fn words(input: &str) -> Vec<Vec<u8>> {
        match split(input) {
            Ok(words) => words.into_iter().map(|word| word.bytes).collect(),
            Err(err) => panic!("{:?}: {}", input, err),
        }
    }

    fn owned(expected: &[&[u8]]) -> Vec<Vec<u8>> {
        expected.iter().map(|word| word.to_vec()).collect()
    }

    /// One named test per row: the input and the words bash would pass.
    macro_rules! split_cases {
        ($($name:ident: $input:expr => [$($word:expr),* $(,)?];)*) => {
            $(
                #[test]
                fn $name() {
                    assert_eq!(words($input), owned(&[$(&$word[..]),*]));
                }
            )*
        };
    }

    split_cases! {
        blanks_separate: "curl  -s\tx" => [b"curl", b"-s", b"x"];
        leading_and_trailing_blanks: "  curl x  " => [b"curl", b"x"];
        single_quotes_keep_everything: r#"curl 'a "b" \n $X `y` *'"# => [b"curl", br#"a "b" \n $X `y` *"#];
        empty_single_quotes_make_a_word: "curl '' x" => [b"curl", b"", b"x"];
        quotes_join_a_word: r#"curl -H'A: b'"c"d"# => [b"curl", b"-HA: bcd"];
        double_quotes_escapes: r#"curl "a\\b\"c\$d\`e""# => [b"curl", br#"a\b"c$d`e"#];
        double_quotes_keep_other_backslashes: r#"curl "a\nb\'c""# => [b"curl", br"a\nb\'c"];
        double_quotes_keep_single_quotes: r#"curl "it's""# => [b"curl", b"it's"];
        double_quotes_lone_dollar: r#"curl "a$" "$" "$/" "a$'b""# => [b"curl", b"a$", b"$", b"$/", b"a$'b"];
        double_quotes_keep_newlines: "curl \"a\nb\"" => [b"curl", b"a\nb"];
        double_quotes_continuation: "curl \"a\\\nb\"" => [b"curl", b"ab"];
        double_quotes_crlf_continuation: "curl \"a\\\r\nb\"" => [b"curl", b"ab"];
        locale_string_reads_as_double: r#"curl $"a\"b""# => [b"curl", br#"a"b"#];
        backslash_escapes_next: r"curl a\ b \'c\' \\" => [b"curl", b"a b", b"'c'", b"\\"];
        backslash_keeps_letters: r"curl \n\t" => [b"curl", b"nt"];
        trailing_backslash_is_literal: "curl x\\" => [b"curl", b"x\\"];
        continuation_joins_lines: "curl \\\n  -s \\\n  x" => [b"curl", b"-s", b"x"];
        continuation_inside_word: "curl ab\\\ncd" => [b"curl", b"abcd"];
        crlf_continuation: "curl \\\r\n  -s \\\r\n  x\r\n" => [b"curl", b"-s", b"x"];
        trailing_newlines_are_fine: "curl x\n\n  \n" => [b"curl", b"x"];
        trailing_carriage_return_is_blank: "curl x\r" => [b"curl", b"x"];
        lone_carriage_return_is_kept: "curl a\rb" => [b"curl", b"a\rb"];
        comment_at_end: "curl x # the URL" => [b"curl", b"x"];
        comment_needs_word_start: "curl a#b 'c'#d" => [b"curl", b"a#b", b"c#d"];
        comment_lines_before: "# create a user\n\n# (POST)\ncurl x" => [b"curl", b"x"];
        comment_lines_after: "curl x\n# done\n  # really\n" => [b"curl", b"x"];
        comment_after_continuation: "curl -s \\\n x # all\n" => [b"curl", b"-s", b"x"];
        prompt_is_dropped: "$ curl x" => [b"curl", b"x"];
        indented_prompt_is_dropped: "  $ curl x" => [b"curl", b"x"];
        quoted_dollar_is_not_a_prompt: "'$' curl" => [b"$", b"curl"];
        lone_dollar_later_is_literal: "curl $ x$" => [b"curl", b"$", b"x$"];
        question_mark_and_brackets_kept: "curl http://x/?a=1 a[0]" => [b"curl", b"http://x/?a=1", b"a[0]"];
        braces_without_list_kept: "curl {} {a} a{b}c" => [b"curl", b"{}", b"{a}", b"a{b}c"];
        quoted_braces_kept: r#"curl '{"a":1,"b":2}' "{x,y}""# => [b"curl", br#"{"a":1,"b":2}"#, b"{x,y}"];
        tilde_inside_word_kept: "curl a~b x=~" => [b"curl", b"a~b", b"x=~"];
        quoted_tilde_kept: "curl '~' \\~" => [b"curl", b"~", b"~"];
        caret_not_at_line_end_kept: "curl a^b" => [b"curl", b"a^b"];
        exclamation_kept: "curl 'hi!' hi!" => [b"curl", b"hi!", b"hi!"];
        utf8_kept: "curl 'héllo' wörld" => [b"curl", "héllo".as_bytes(), "wörld".as_bytes()];
        backslash_before_utf8: "curl \\é" => [b"curl", "é".as_bytes()];
        deeply_alternating_quotes: r#"curl 'a'"b"'c'"d"$'e'\f"# => [b"curl", b"abcdef"];
        variable_in_double_quotes: "curl -H \"Authorization: Bearer $TOKEN\"" => [b"curl", b"-H", b"Authorization: Bearer ${TOKEN}"];
        bare_variable: "curl $URL" => [b"curl", b"${URL}"];
        braced_variable: "curl ${BASE}/x \"${B}c\"" => [b"curl", b"${BASE}/x", b"${B}c"];
        variable_ends_at_non_name: "curl -u $KEY: $A-b" => [b"curl", b"-u", b"${KEY}:", b"${A}-b"];
        escaped_dollar_is_literal: r#"curl \$X "\$Y""# => [b"curl", b"$X", b"$Y"];
        equals_and_at_are_literal: "curl -d @file name=value" => [b"curl", b"-d", b"@file", b"name=value"];
    }

    split_cases! {
        ansi_simple_escapes: r"curl $'\a\b\e\E\f\n\r\t\v'" => [b"curl", b"\x07\x08\x1b\x1b\x0c\n\r\t\x0b"];
        ansi_quote_escapes: r#"curl $'\\ \' \" \?'"# => [b"curl", br#"\ ' " ?"#];
        ansi_hex: r"curl $'\x41\x4a\x414\xffz'" => [b"curl", b"AJA4\xffz"];
        ansi_hex_one_digit: r"curl $'\x1'" => [b"curl", b"\x01"];
        ansi_hex_without_digits_kept: r"curl $'\xg'" => [b"curl", b"\\xg"];
        ansi_octal: r"curl $'\101\1010\7'" => [b"curl", b"AA0\x07"];
        ansi_octal_leading_zero: r"curl $'\0101'" => [b"curl", b"\x081"];
        ansi_octal_wraps_like_bash: r"curl $'\777'" => [b"curl", b"\xff"];
        ansi_unicode: r"curl $'\u00e9\u41\U0001F600\U00000041x'" => [b"curl", "éA😀Ax".as_bytes()];
        ansi_unicode_without_digits_kept: r"curl $'\u \UZ'" => [b"curl", b"\\u \\UZ"];
        ansi_control: r"curl $'\cA\cz\c?\c1'" => [b"curl", b"\x01\x1a\x7f\x11"];
        ansi_control_backslash: r"curl $'\c\\x'" => [b"curl", b"\x1cx"];
        ansi_unknown_escape_kept: r"curl $'\q\8\%'" => [b"curl", b"\\q\\8\\%"];
        ansi_newline_kept: "curl $'a\nb'" => [b"curl", b"a\nb"];
        ansi_backslash_newline_kept: "curl $'a\\\nb'" => [b"curl", b"a\\\nb"];
        ansi_joins_other_quotes: r#"curl $'a\n'"b"'c'"# => [b"curl", b"a\nbc"];
        chrome_style_data: r#"curl --data-raw $'{"q":"it\'s"}'"# => [b"curl", b"--data-raw", br#"{"q":"it's"}"#];
    }

    /// One named test per row: the input, the error kind, its offset and argument index.
    macro_rules! error_cases {
        ($($name:ident: $input:expr => ($kind:ident, $offset:expr, $arg:expr);)*) => {
            $(
                #[test]
                fn $name() {
                    let err = match split($input) {
                        Ok(words) => panic!("{:?} split into {:?}", $input, words),
                        Err(err) => err,
                    };
                    assert_eq!(err.kind(), ErrorKind::$kind, "{}", err);
                    assert_eq!(err.offset(), $offset, "{}", err);
                    assert_eq!(err.arg_index(), $arg, "{}", err);
                }
            )*
        };
    }

    error_cases! {
        unterminated_single: "curl 'abc" => (UnterminatedQuote, Some(5), Some(1));
        unterminated_double: "curl -d \"abc" => (UnterminatedQuote, Some(8), Some(2));
        unterminated_double_after_backslash: "curl \"abc\\" => (UnterminatedQuote, Some(5), Some(1));
        unterminated_ansi: "curl $'abc\\'" => (UnterminatedQuote, Some(5), Some(1));
        unterminated_ansi_after_backslash: "curl $'abc\\" => (UnterminatedQuote, Some(5), Some(1));
        unterminated_in_nested_quotes: "curl \"'\"'\"" => (UnterminatedQuote, Some(8), Some(1));
        nul_literal: "curl a\0b" => (NulByte, Some(6), Some(1));
        nul_in_single_quotes: "curl 'a\0'" => (NulByte, Some(7), Some(1));
        nul_in_double_quotes: "curl \"a\0\"" => (NulByte, Some(7), Some(1));
        nul_after_backslash: "curl \\\0" => (NulByte, Some(6), Some(1));
        nul_in_comment: "curl x # a\0" => (NulByte, Some(10), Some(2));
        nul_after_the_command: "curl x\n\0" => (NulByte, Some(7), Some(2));
        nul_hex_escape: r"curl $'a\x00'" => (NulByte, Some(8), Some(1));
        nul_octal_escape: r"curl x $'\0'" => (NulByte, Some(9), Some(2));
        nul_octal_wraps_to_zero: r"curl $'\400'" => (NulByte, Some(7), Some(1));
        nul_unicode_escape: r"curl $'\u0000'" => (NulByte, Some(7), Some(1));
        nul_control_escape: r"curl $'\c@'" => (NulByte, Some(7), Some(1));
        surrogate_escape: r"curl $'\ud800'" => (InvalidEscape, Some(7), Some(1));
        beyond_unicode_escape: r"curl $'\U00110000'" => (InvalidEscape, Some(7), Some(1));
        pipe: "curl x | jq ." => (UnsupportedShell, Some(7), Some(2));
        or_list: "curl x || true" => (UnsupportedShell, Some(7), Some(2));
        and_list: "curl x && echo" => (UnsupportedShell, Some(7), Some(2));
        background: "curl http://x/?a=1&b=2" => (UnsupportedShell, Some(18), Some(1));
        semicolon: "curl x; echo" => (UnsupportedShell, Some(6), Some(1));
        output_redirection: "curl x > out" => (UnsupportedShell, Some(7), Some(2));
        stderr_redirection: "curl x 2>/dev/null" => (UnsupportedShell, Some(8), Some(2));
        input_redirection: "curl -d @- x < body" => (UnsupportedShell, Some(13), Some(4));
        process_substitution: "curl -d @<(echo) x" => (UnsupportedShell, Some(9), Some(2));
        subshell: "(curl x)" => (UnsupportedShell, Some(0), Some(0));
        command_substitution: "curl -H \"X: $(date)\" x" => (UnsupportedShell, Some(12), Some(2));
        arithmetic: "curl x/$((1+1))" => (UnsupportedShell, Some(7), Some(1));
        backticks: "curl -H \"X: `date`\" x" => (UnsupportedShell, Some(12), Some(2));
        unquoted_backticks: "curl `cat url`" => (UnsupportedShell, Some(5), Some(1));
        glob_star: "curl -H Accept:*/* x" => (UnsupportedShell, Some(15), Some(2));
        brace_list: "curl x/{a,b}" => (UnsupportedShell, Some(7), Some(1));
        brace_sequence: "curl x/{1..3}" => (UnsupportedShell, Some(7), Some(1));
        unquoted_json_is_a_brace_expansion: r#"curl -d {"a":1,"b":2} x"# => (UnsupportedShell, Some(8), Some(2));
        tilde: "curl -T ~/f x" => (UnsupportedShell, Some(8), Some(2));
        cmd_continuation: "curl \"x\" ^\n  -H \"a: b\"" => (UnsupportedShell, Some(9), Some(2));
        cmd_continuation_crlf: "curl ^\r\n x" => (UnsupportedShell, Some(5), Some(1));
        powershell_continuation: "curl x `\n -s" => (UnsupportedShell, Some(7), Some(2));
        default_expansion: "curl -H \"A: ${TOKEN:-x}\" x" => (Variable, Some(12), Some(2));
        length_expansion: "curl x/${#NAME}" => (Variable, Some(7), Some(1));
        unclosed_braced_variable: "curl x/${NAME" => (Variable, Some(7), Some(1));
        braced_positional: "curl x/${1}" => (Variable, Some(7), Some(1));
        positional_parameter: "curl x/$1" => (Variable, Some(7), Some(1));
        special_parameter: "curl x/$$" => (Variable, Some(7), Some(1));
        second_command: "curl x\necho hi" => (SecondCommand, Some(7), None);
        second_command_after_blank_line: "curl x\n\ncurl y" => (SecondCommand, Some(8), None);
        missing_continuation: "curl x\n  -H 'a: b'" => (SecondCommand, Some(9), None);
        comment_ends_continued_command: "curl \\\n # note\n -s x" => (SecondCommand, Some(16), None);
    }

    #[test]
    fn offsets_point_at_word_starts() {
        let offsets: Vec<usize> = match split("$ curl  -s 'a b'\\\n x") {
            Ok(words) => words.iter().map(|word| word.offset).collect(),
            Err(err) => panic!("{}", err),
        };
        assert_eq!(offsets, vec![2, 8, 11, 19]);
    }

    #[test]
    fn other_expansions_are_named() {
        let err = split("curl -H \"X: ${API_KEY:-k}\" https://x/$PATH_1");
        assert!(
            matches!(err, Err(Error { reason: Reason::Variable { ref name, .. } }) if name == "{API_KEY:-k}")
        );
        let err = split("curl https://x/$1");
        assert!(
            matches!(err, Err(Error { reason: Reason::Variable { ref name, .. } }) if name == "1")
        );
    }

    #[test]
    fn variables_are_listed_per_word() {
        let words = match split("curl -u \"$USER:${PASS}\" x$A$B 'y$C'") {
            Ok(words) => words,
            Err(err) => panic!("{}", err),
        };
        let listed: Vec<Vec<String>> = words.iter().map(|w| w.variables.clone()).collect();
        assert_eq!(
            listed,
            vec![
                vec![],
                vec![],
                vec!["USER".to_string(), "PASS".to_string()],
                vec!["A".to_string(), "B".to_string()],
                vec![],
            ]
        );
    }

    #[test]
    fn second_command_names_its_line() {
        let err = split("curl \\\n x\n\n curl y");
        assert_eq!(
            err,
            Err(Error::from(Reason::SecondCommand {
                offset: 12,
                line: 4
            }))
        );
    }

    #[test]
    fn nothing_but_comments_is_no_words() {
        assert_eq!(words(" # nothing\n\n"), Vec::<Vec<u8>>::new());
        assert_eq!(words(""), Vec::<Vec<u8>>::new());
    }
}
