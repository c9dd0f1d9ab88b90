//! The YAML 1.2 scanner: text into tokens (YAML 1.2.2 chapters 5 to 9).
//!
//! It works the way the spec's productions are usually implemented: block structure comes
//! from an indentation stack (`BlockSequenceStart`, `BlockMappingStart` and `BlockEnd`
//! tokens), and an implicit key (`key: value` with no `?`) is found by remembering where a
//! "simple key" could start and inserting the `Key` token there once the `:` shows up.
//! Nothing recurses; the queue of tokens waiting for a possible key is bounded by the
//! 1024-character limit on implicit keys (section 7.4.2, "at most 1024 Unicode characters").

use std::borrow::Cow;
use std::collections::VecDeque;

use super::error::{Error, Reason};

/// The style a scalar was written in (section 7.3 and 8.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Style {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
    Folded,
}

#[derive(Debug, PartialEq)]
pub(crate) enum Tok<'a> {
    StreamEnd,
    VersionDirective,
    TagDirective(String, String),
    /// A reserved directive (section 6.8): ignored.
    OtherDirective,
    DocumentStart,
    DocumentEnd,
    BlockSequenceStart,
    BlockMappingStart,
    BlockEnd,
    FlowSequenceStart,
    FlowSequenceEnd,
    FlowMappingStart,
    FlowMappingEnd,
    BlockEntry,
    FlowEntry,
    Key,
    Value,
    Alias(&'a str),
    Anchor(&'a str),
    /// Handle (`!`, `!!`, `!name!`, or empty for a verbatim tag) and suffix.
    Tag(Box<(String, String)>),
    Scalar(Cow<'a, str>, Style),
}

#[derive(Debug)]
pub(crate) struct Token<'a> {
    pub(crate) tok: Tok<'a>,
    /// Byte offset where the token starts.
    pub(crate) at: usize,
}

#[derive(Clone, Copy)]
struct SimpleKey {
    tab_before: Option<usize>,
    possible: bool,
    required: bool,
    token_number: usize,
    pos: usize,
    line: usize,
    col: usize,
}

const NO_KEY: SimpleKey = SimpleKey {
    tab_before: None,
    possible: false,
    required: false,
    token_number: 0,
    pos: 0,
    line: 0,
    col: 0,
};

/// Section 7.4.2: an implicit key is at most 1024 characters (counted here in bytes).
const MAX_SIMPLE_KEY: usize = 1024;

pub(crate) struct Scanner<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    line: usize,
    col: usize,
    tokens: VecDeque<Token<'a>>,
    tokens_parsed: usize,
    stream_ended: bool,
    indent: isize,
    indents: Vec<isize>,
    flow_level: usize,
    simple_key_allowed: bool,
    simple_keys: Vec<SimpleKey>,
    /// Whether the last token was a quoted scalar, a flow collection or an alias: in flow
    /// context a `:` right after one is a value indicator even without a space after it
    /// (section 7.4.2, JSON-like keys).
    after_json_node: bool,
    /// Where a tab was skipped (in block context) right before the current token.
    tab_before: Option<usize>,
    /// The spaces (before any tab) that start the current line.
    line_spaces: usize,
    /// Every simple key below this index is not possible (see `stale_simple_keys`).
    key_floor: usize,
    /// For each open flow collection, whether it is a mapping (its keys may span lines).
    flow_mappings: Vec<bool>,
    error: Option<Error>,
}

fn is_blank(b: Option<u8>) -> bool {
    matches!(b, Some(b' ' | b'\t'))
}

fn is_break(b: Option<u8>) -> bool {
    matches!(b, Some(b'\n' | b'\r'))
}

fn is_blankz(b: Option<u8>) -> bool {
    matches!(b, None | Some(b' ' | b'\t' | b'\n' | b'\r'))
}

fn is_flow_indicator(b: Option<u8>) -> bool {
    matches!(b, Some(b',' | b'[' | b']' | b'{' | b'}'))
}

impl<'a> Scanner<'a> {
    pub(crate) fn new(text: &'a str) -> Scanner<'a> {
        let mut s = Scanner {
            text,
            bytes: text.as_bytes(),
            pos: 0,
            line: 0,
            col: 0,
            tokens: VecDeque::new(),
            tokens_parsed: 0,
            stream_ended: false,
            indent: -1,
            indents: Vec::new(),
            flow_level: 0,
            simple_key_allowed: true,
            simple_keys: vec![NO_KEY],
            after_json_node: false,
            tab_before: None,
            line_spaces: 0,
            flow_mappings: Vec::new(),
            key_floor: 0,
            error: None,
        };
        // Section 5.2: a byte order mark may start the stream.
        if text.starts_with('\u{FEFF}') {
            s.pos = 3;
        }
        s
    }

    pub(crate) fn text(&self) -> &'a str {
        self.text
    }

    pub(crate) fn error(&self, reason: Reason, at: usize) -> Error {
        Error::new(reason, self.text, at)
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn peek_at(&self, n: usize) -> Option<u8> {
        self.bytes.get(self.pos + n).copied()
    }

    /// Moves past one character that is not a line break.
    fn skip(&mut self) {
        if let Some(&b) = self.bytes.get(self.pos) {
            self.pos += utf8_len(b);
            self.col += 1;
        }
    }

    /// Moves past `n` bytes holding no line break, counting characters for the column.
    fn skip_bytes(&mut self, n: usize) {
        let end = (self.pos + n).min(self.bytes.len());
        let chars = self
            .bytes
            .get(self.pos..end)
            .unwrap_or_default()
            .iter()
            .filter(|&&b| (b & 0xC0) != 0x80)
            .count();
        self.pos = end;
        self.col += chars;
    }

    /// Moves past a line break (`\r\n`, `\n` or `\r`, section 5.4).
    fn skip_break(&mut self) {
        match self.peek() {
            Some(b'\r') if self.peek_at(1) == Some(b'\n') => self.pos += 2,
            Some(b'\r' | b'\n') => self.pos += 1,
            _ => return,
        }
        self.line += 1;
        self.col = 0;
    }

    fn is_document_indicator(&self) -> bool {
        self.col == 0
            && matches!(
                self.bytes.get(self.pos..self.pos + 3),
                Some(b"---") | Some(b"...")
            )
            && is_blankz(self.peek_at(3))
    }

    /// The next token, or the error that stopped the scanner (returned again on every call).
    pub(crate) fn next_token(&mut self) -> Result<Token<'a>, Error> {
        self.fetch_more()?;
        match self.tokens.pop_front() {
            Some(t) => {
                self.tokens_parsed += 1;
                Ok(t)
            }
            None => Ok(Token {
                tok: Tok::StreamEnd,
                at: self.pos,
            }),
        }
    }

    /// The next token without taking it.
    pub(crate) fn peek_token(&mut self) -> Result<&Token<'a>, Error> {
        self.fetch_more()?;
        if self.tokens.is_empty() {
            self.tokens.push_back(Token {
                tok: Tok::StreamEnd,
                at: self.pos,
            });
        }
        match self.tokens.front() {
            Some(t) => Ok(t),
            None => Err(self.error(Reason::UnexpectedCharacter, self.pos)),
        }
    }

    fn fetch_more(&mut self) -> Result<(), Error> {
        if let Some(e) = &self.error {
            return Err(e.clone());
        }
        let result = self.fetch_more_inner();
        if let Err(e) = &result {
            self.error = Some(e.clone());
        }
        result
    }

    fn fetch_more_inner(&mut self) -> Result<(), Error> {
        loop {
            if self.stream_ended {
                return Ok(());
            }
            // A token may be handed out once no simple key could still put a `Key` token
            // before it. (A key gone stale only costs one more token of lookahead here:
            // fetching checks staleness.)
            // The first possible key has the smallest token number: it is the only one
            // that can sit at the head of the queue.
            self.advance_key_floor();
            let parsed = self.tokens_parsed;
            let need = self.tokens.is_empty()
                || self
                    .simple_keys
                    .get(self.key_floor)
                    .map_or(false, |k| k.possible && k.token_number == parsed);
            if !need {
                return Ok(());
            }
            self.fetch_next_token()?;
        }
    }

    fn push(&mut self, tok: Tok<'a>, at: usize) {
        self.tokens.push_back(Token { tok, at });
    }

    fn fetch_next_token(&mut self) -> Result<(), Error> {
        self.scan_to_next_token()?;
        self.stale_simple_keys()?;
        self.unroll_indent(self.col as isize);
        let b = match self.peek() {
            None => return self.fetch_stream_end(),
            Some(b) => b,
        };
        if self.col == 0 && b == b'%' {
            return self.fetch_directive();
        }
        if self.is_document_indicator() {
            let tok = if b == b'-' {
                Tok::DocumentStart
            } else {
                Tok::DocumentEnd
            };
            return self.fetch_document_indicator(tok);
        }
        let next = self.peek_at(1);
        let flow = self.flow_level > 0;
        let after_json_node = std::mem::replace(&mut self.after_json_node, false);
        match b {
            b'[' => self.fetch_flow_start(Tok::FlowSequenceStart),
            b'{' => self.fetch_flow_start(Tok::FlowMappingStart),
            b']' => self.fetch_flow_end(Tok::FlowSequenceEnd),
            b'}' => self.fetch_flow_end(Tok::FlowMappingEnd),
            b',' => self.fetch_flow_entry(),
            b'-' if is_blankz(next) => self.fetch_block_entry(),
            b'?' if is_blankz(next) => self.fetch_key(),
            b':' if is_blankz(next) || (flow && (is_flow_indicator(next) || after_json_node)) => {
                self.fetch_value()
            }
            b'*' => self.fetch_anchor(true),
            b'&' => self.fetch_anchor(false),
            b'!' => self.fetch_tag(),
            b'|' if !flow => self.fetch_block_scalar(true),
            b'>' if !flow => self.fetch_block_scalar(false),
            b'\'' => self.fetch_flow_scalar(true),
            b'"' => self.fetch_flow_scalar(false),
            // Section 7.3.3: a plain scalar cannot start with an indicator, except `-`, `?`
            // and `:` followed by a "safe" character.
            b'-' | b'?' | b':' if !(is_blankz(next) || (flow && is_flow_indicator(next))) => {
                self.fetch_plain()
            }
            b'-' | b'?' | b':' | b'#' | b'|' | b'>' | b'%' | b'@' | b'`' => {
                let reason = if matches!(b, b'|' | b'>') {
                    Reason::BlockInFlow
                } else {
                    Reason::UnexpectedCharacter
                };
                Err(self.error(reason, self.pos))
            }
            b'\t' => Err(self.error(Reason::TabIndent, self.pos)),
            _ => self.fetch_plain(),
        }
    }

    /// Skips separation spaces, comments and line breaks before the next token.
    fn scan_to_next_token(&mut self) -> Result<(), Error> {
        self.tab_before = None;
        let mut crossed_line = false;
        loop {
            let line_start = self.col == 0;
            let mut spaces = 0;
            let mut only_spaces = line_start;
            while let Some(b) = self.peek() {
                if b == b' ' {
                    if only_spaces {
                        spaces += 1;
                    }
                } else if b == b'\t' {
                    only_spaces = false;
                    if self.flow_level == 0 && self.tab_before.is_none() {
                        self.tab_before = Some(self.pos);
                    }
                } else {
                    break;
                }
                self.pos += 1;
                self.col += 1;
            }
            if line_start {
                self.line_spaces = spaces;
            }
            let after_space = self.pos == 0
                || matches!(
                    self.bytes.get(self.pos - 1),
                    Some(b' ' | b'\t' | b'\n' | b'\r')
                )
                || (self.pos == 3 && self.text.starts_with('\u{FEFF}'));
            if self.peek() == Some(b'#') {
                if !after_space {
                    return Err(self.error(Reason::CommentWithoutSpace, self.pos));
                }
                while !is_break(self.peek()) && self.peek().is_some() {
                    self.pos += 1;
                }
            }
            if is_break(self.peek()) {
                self.skip_break();
                crossed_line = true;
                self.tab_before = None;
                if self.flow_level == 0 {
                    self.simple_key_allowed = true;
                }
                continue;
            }
            // Section 7.4: the lines of a flow collection inside a block collection are
            // indented more than it, with spaces.
            if crossed_line
                && self.flow_level > 0
                && self.indent >= 0
                && self.peek().is_some()
                && (self.line_spaces as isize) <= self.indent
            {
                return Err(self.error(Reason::BadIndentation, self.pos));
            }
            return Ok(());
        }
    }

    /// Section 6.1: tabs are not indentation. A tab in the whitespace before a token that
    /// opens a block collection entry (`-`, `?`, `:` or an implicit key) is refused.
    fn check_tab(&self, tab: Option<usize>) -> Result<(), Error> {
        match tab {
            Some(at) if self.flow_level == 0 => Err(self.error(Reason::TabIndent, at)),
            _ => Ok(()),
        }
    }

    /// Marks the keys that can no longer be implicit keys: on an earlier line (except in a
    /// flow mapping, whose keys may span lines) or more than 1024 bytes back. Keys deeper
    /// in the stack start later, so the walk starts at the first possible key and stops
    /// at the first one still fresh: constant time a token, amortised, at any depth.
    fn stale_simple_keys(&mut self) -> Result<(), Error> {
        let (line, pos) = (self.line, self.pos);
        let mut i = self.key_floor;
        while let Some(key) = self.simple_keys.get(i).copied() {
            if key.possible {
                let in_flow_mapping = i > 0 && self.flow_mappings.get(i - 1) == Some(&true);
                let stale = (key.line < line && !in_flow_mapping) || key.pos + MAX_SIMPLE_KEY < pos;
                if !stale {
                    break;
                }
                if key.required {
                    return Err(self.error(Reason::ExpectedValueAfterKey, key.pos));
                }
                if let Some(k) = self.simple_keys.get_mut(i) {
                    k.possible = false;
                }
            }
            i += 1;
        }
        self.advance_key_floor();
        Ok(())
    }

    /// Moves `key_floor` past keys that are no longer possible (it stays on the last level).
    fn advance_key_floor(&mut self) {
        let last = self.simple_keys.len().saturating_sub(1);
        while self.key_floor < last
            && !self
                .simple_keys
                .get(self.key_floor)
                .map_or(false, |k| k.possible)
        {
            self.key_floor += 1;
        }
    }

    fn save_simple_key(&mut self) -> Result<(), Error> {
        let required = self.flow_level == 0 && self.indent == self.col as isize;
        if self.simple_key_allowed {
            self.remove_simple_key()?;
            let key = SimpleKey {
                tab_before: self.tab_before,
                possible: true,
                required,
                token_number: self.tokens_parsed + self.tokens.len(),
                pos: self.pos,
                line: self.line,
                col: self.col,
            };
            if let Some(last) = self.simple_keys.last_mut() {
                *last = key;
            }
            self.key_floor = self.key_floor.min(self.simple_keys.len() - 1);
        }
        Ok(())
    }

    fn remove_simple_key(&mut self) -> Result<(), Error> {
        if let Some(last) = self.simple_keys.last_mut() {
            if last.possible && last.required {
                return Err(Error::new(
                    Reason::ExpectedValueAfterKey,
                    self.text,
                    last.pos,
                ));
            }
            last.possible = false;
        }
        Ok(())
    }

    /// Opens a block collection at `column` when it is deeper than the current one,
    /// inserting its start token at `number` (a token position) or at the end.
    fn roll_indent(&mut self, column: usize, tok: Tok<'a>, number: Option<usize>, at: usize) {
        if self.flow_level > 0 {
            return;
        }
        let column = column as isize;
        if self.indent < column {
            self.indents.push(self.indent);
            self.indent = column;
            let token = Token { tok, at };
            match number {
                Some(n) => {
                    let i = n.saturating_sub(self.tokens_parsed).min(self.tokens.len());
                    self.tokens.insert(i, token);
                }
                None => self.tokens.push_back(token),
            }
        }
    }

    fn unroll_indent(&mut self, column: isize) {
        if self.flow_level > 0 {
            return;
        }
        while self.indent > column {
            self.push(Tok::BlockEnd, self.pos);
            self.indent = self.indents.pop().unwrap_or(-1);
        }
    }

    fn fetch_stream_end(&mut self) -> Result<(), Error> {
        if self.flow_level > 0 {
            return Err(self.error(Reason::UnclosedFlow, self.pos));
        }
        self.unroll_indent(-1);
        self.remove_simple_key()?;
        self.simple_key_allowed = false;
        self.push(Tok::StreamEnd, self.pos);
        self.stream_ended = true;
        Ok(())
    }

    fn fetch_document_indicator(&mut self, tok: Tok<'a>) -> Result<(), Error> {
        self.unroll_indent(-1);
        self.remove_simple_key()?;
        self.simple_key_allowed = false;
        let at = self.pos;
        self.skip_bytes(3);
        let is_end = tok == Tok::DocumentEnd;
        self.push(tok, at);
        if is_end {
            // Section 9.1.4: only a comment may follow `...` on its line.
            self.skip_blanks();
            if !is_break(self.peek()) && self.peek().is_some() && self.peek() != Some(b'#') {
                return Err(self.error(Reason::TrailingContent, self.pos));
            }
        }
        Ok(())
    }

    fn skip_blanks(&mut self) {
        while is_blank(self.peek()) {
            self.pos += 1;
            self.col += 1;
        }
    }

    fn fetch_flow_start(&mut self, tok: Tok<'a>) -> Result<(), Error> {
        self.save_simple_key()?;
        self.simple_keys.push(NO_KEY);
        self.flow_mappings.push(tok == Tok::FlowMappingStart);
        self.flow_level += 1;
        self.simple_key_allowed = true;
        let at = self.pos;
        self.skip();
        self.push(tok, at);
        Ok(())
    }

    fn fetch_flow_end(&mut self, tok: Tok<'a>) -> Result<(), Error> {
        self.remove_simple_key()?;
        if self.flow_level == 0 {
            return Err(self.error(Reason::UnexpectedFlowEnd, self.pos));
        }
        self.flow_level -= 1;
        self.simple_keys.pop();
        self.key_floor = self.key_floor.min(self.simple_keys.len().saturating_sub(1));
        self.flow_mappings.pop();
        self.simple_key_allowed = false;
        let at = self.pos;
        self.skip();
        self.push(tok, at);
        self.after_json_node = true;
        self.check_after_flow_node()
    }

    fn fetch_flow_entry(&mut self) -> Result<(), Error> {
        self.remove_simple_key()?;
        self.simple_key_allowed = true;
        let at = self.pos;
        self.skip();
        self.push(Tok::FlowEntry, at);
        Ok(())
    }

    fn fetch_block_entry(&mut self) -> Result<(), Error> {
        let at = self.pos;
        if self.flow_level > 0 {
            return Err(self.error(Reason::BlockInFlow, at));
        }
        if !self.simple_key_allowed {
            return Err(self.error(Reason::BlockEntryNotAllowed, at));
        }
        self.check_tab(self.tab_before)?;
        self.roll_indent(self.col, Tok::BlockSequenceStart, None, at);
        self.remove_simple_key()?;
        self.simple_key_allowed = true;
        self.skip();
        self.push(Tok::BlockEntry, at);
        Ok(())
    }

    fn fetch_key(&mut self) -> Result<(), Error> {
        let at = self.pos;
        if self.flow_level == 0 {
            if !self.simple_key_allowed {
                return Err(self.error(Reason::KeyNotAllowed, at));
            }
            self.check_tab(self.tab_before)?;
            self.roll_indent(self.col, Tok::BlockMappingStart, None, at);
        }
        self.remove_simple_key()?;
        self.simple_key_allowed = self.flow_level == 0;
        self.skip();
        self.push(Tok::Key, at);
        Ok(())
    }

    fn fetch_value(&mut self) -> Result<(), Error> {
        let at = self.pos;
        let key = self.simple_keys.last().copied().unwrap_or(NO_KEY);
        if key.possible {
            self.check_tab(key.tab_before)?;
            let i = key
                .token_number
                .saturating_sub(self.tokens_parsed)
                .min(self.tokens.len());
            self.tokens.insert(
                i,
                Token {
                    tok: Tok::Key,
                    at: key.pos,
                },
            );
            self.roll_indent(
                key.col,
                Tok::BlockMappingStart,
                Some(key.token_number),
                key.pos,
            );
            if let Some(last) = self.simple_keys.last_mut() {
                last.possible = false;
            }
            self.simple_key_allowed = false;
        } else {
            if self.flow_level == 0 {
                if !self.simple_key_allowed {
                    return Err(self.error(Reason::ValueNotAllowed, at));
                }
                self.check_tab(self.tab_before)?;
                self.roll_indent(self.col, Tok::BlockMappingStart, None, at);
            }
            self.simple_key_allowed = self.flow_level == 0;
        }
        self.skip();
        self.push(Tok::Value, at);
        Ok(())
    }

    fn fetch_anchor(&mut self, alias: bool) -> Result<(), Error> {
        self.save_simple_key()?;
        self.simple_key_allowed = false;
        let at = self.pos;
        self.skip();
        let start = self.pos;
        let end = anchor_name_end(self.bytes, start);
        if end == start {
            return Err(self.error(Reason::BadAnchor, at));
        }
        self.skip_bytes(end - start);
        let name = self.text.get(start..end).unwrap_or_default();
        self.push(
            if alias {
                Tok::Alias(name)
            } else {
                Tok::Anchor(name)
            },
            at,
        );
        Ok(())
    }

    fn fetch_tag(&mut self) -> Result<(), Error> {
        self.save_simple_key()?;
        self.simple_key_allowed = false;
        let at = self.pos;
        let (handle, suffix) = self.scan_tag()?;
        let next = self.peek();
        if !(is_blankz(next) || (self.flow_level > 0 && next == Some(b','))) {
            return Err(self.error(Reason::BadTag, at));
        }
        self.push(Tok::Tag(Box::new((handle, suffix))), at);
        Ok(())
    }

    /// Section 6.9.1: `!<verbatim>`, `!!suffix`, `!handle!suffix`, `!suffix` or `!`.
    fn scan_tag(&mut self) -> Result<(String, String), Error> {
        let at = self.pos;
        if self.peek_at(1) == Some(b'<') {
            self.skip_bytes(2);
            let suffix = self.scan_tag_uri(true, at)?;
            if self.peek() != Some(b'>') || suffix.is_empty() {
                return Err(self.error(Reason::BadTag, at));
            }
            self.skip();
            return Ok((String::new(), suffix));
        }
        // A handle is `!`, `!!` or `!word!`; otherwise the `!` is the handle and the rest
        // the suffix.
        self.skip();
        let mut end = self.pos;
        while let Some(&b) = self.bytes.get(end) {
            if b.is_ascii_alphanumeric() || b == b'-' {
                end += 1;
            } else {
                break;
            }
        }
        let handle = if self.bytes.get(end) == Some(&b'!') {
            let h = format!("!{}!", self.text.get(self.pos..end).unwrap_or_default());
            self.skip_bytes(end + 1 - self.pos);
            h
        } else {
            String::from("!")
        };
        let suffix = self.scan_tag_uri(false, at)?;
        if suffix.is_empty() && handle != "!" {
            return Err(self.error(Reason::BadTag, at));
        }
        Ok((handle, suffix))
    }

    /// The URI characters of a tag (section 5.6, `ns-uri-char` / `ns-tag-char`), with `%XX`
    /// escapes decoded.
    fn scan_tag_uri(&mut self, verbatim: bool, at: usize) -> Result<String, Error> {
        let mut bytes = Vec::new();
        while let Some(b) = self.peek() {
            let ok = b.is_ascii_alphanumeric()
                || matches!(
                    b,
                    b'-' | b'#'
                        | b';'
                        | b'/'
                        | b'?'
                        | b':'
                        | b'@'
                        | b'&'
                        | b'='
                        | b'+'
                        | b'$'
                        | b'_'
                        | b'.'
                        | b'~'
                        | b'*'
                        | b'\''
                        | b'('
                        | b')'
                )
                || (verbatim && matches!(b, b'!' | b',' | b'[' | b']'));
            if b == b'%' {
                let hex = self
                    .text
                    .get(self.pos + 1..self.pos + 3)
                    .unwrap_or_default();
                match u8::from_str_radix(hex, 16) {
                    Ok(v) if hex.len() == 2 => bytes.push(v),
                    _ => return Err(self.error(Reason::BadTag, at)),
                }
                self.skip_bytes(3);
            } else if ok {
                bytes.push(b);
                self.skip();
            } else {
                break;
            }
        }
        String::from_utf8(bytes).map_err(|_| self.error(Reason::BadTag, at))
    }

    fn fetch_directive(&mut self) -> Result<(), Error> {
        self.unroll_indent(-1);
        self.remove_simple_key()?;
        self.simple_key_allowed = false;
        let at = self.pos;
        self.skip();
        let start = self.pos;
        while !is_blankz(self.peek()) {
            self.skip();
        }
        let name = self.text.get(start..self.pos).unwrap_or_default();
        let tok = match name {
            "YAML" => {
                self.skip_blanks();
                let vstart = self.pos;
                while !is_blankz(self.peek()) {
                    self.skip();
                }
                let version = self.text.get(vstart..self.pos).unwrap_or_default();
                let mut parts = version.split('.');
                let valid = matches!(
                    (parts.next(), parts.next(), parts.next()),
                    (Some(a), Some(b), None)
                        if !a.is_empty() && !b.is_empty()
                            && a.bytes().all(|c| c.is_ascii_digit())
                            && b.bytes().all(|c| c.is_ascii_digit())
                );
                if !valid {
                    return Err(self.error(Reason::BadDirective, at));
                }
                Tok::VersionDirective
            }
            "TAG" => {
                self.skip_blanks();
                if self.peek() != Some(b'!') {
                    return Err(self.error(Reason::BadDirective, at));
                }
                let hstart = self.pos;
                self.skip();
                while let Some(b) = self.peek() {
                    if b.is_ascii_alphanumeric() || b == b'-' {
                        self.skip();
                    } else {
                        break;
                    }
                }
                if self.peek() == Some(b'!') {
                    self.skip();
                }
                let handle = self
                    .text
                    .get(hstart..self.pos)
                    .unwrap_or_default()
                    .to_owned();
                if !is_blank(self.peek()) {
                    return Err(self.error(Reason::BadDirective, at));
                }
                self.skip_blanks();
                let prefix = self.scan_tag_uri(true, at)?;
                if prefix.is_empty() {
                    return Err(self.error(Reason::BadDirective, at));
                }
                Tok::TagDirective(handle, prefix)
            }
            _ => {
                while !is_break(self.peek()) && self.peek().is_some() {
                    self.pos += 1;
                }
                Tok::OtherDirective
            }
        };
        self.skip_blanks();
        if self.peek() == Some(b'#') {
            while !is_break(self.peek()) && self.peek().is_some() {
                self.pos += 1;
            }
        }
        if !is_break(self.peek()) && self.peek().is_some() {
            return Err(self.error(Reason::BadDirective, at));
        }
        self.push(tok, at);
        Ok(())
    }

    /// After a quoted scalar or flow collection: on the same line, only separation, a
    /// comment, `:`, `,` or a closing bracket may follow.
    fn check_after_flow_node(&mut self) -> Result<(), Error> {
        Ok(())
    }

    fn fetch_block_scalar(&mut self, literal: bool) -> Result<(), Error> {
        self.remove_simple_key()?;
        self.simple_key_allowed = true;
        let at = self.pos;
        let value = self.scan_block_scalar(literal)?;
        let style = if literal {
            Style::Literal
        } else {
            Style::Folded
        };
        self.push(Tok::Scalar(Cow::Owned(value), style), at);
        Ok(())
    }

    /// Section 8.1: literal and folded block scalars with their header.
    fn scan_block_scalar(&mut self, literal: bool) -> Result<String, Error> {
        let at = self.pos;
        self.skip();
        // Chomping: -1 strip, 0 clip, 1 keep; an explicit indentation 1 to 9.
        let mut chomping = 0i8;
        let mut increment = 0usize;
        for _ in 0..2 {
            match self.peek() {
                Some(b'+') if chomping == 0 => chomping = 1,
                Some(b'-') if chomping == 0 => chomping = -1,
                Some(b @ b'1'..=b'9') if increment == 0 => increment = usize::from(b - b'0'),
                Some(b'0') => return Err(self.error(Reason::BlockScalarHeader, self.pos)),
                _ => break,
            }
            self.skip();
        }
        let had_blank = is_blank(self.peek());
        self.skip_blanks();
        if self.peek() == Some(b'#') {
            if !had_blank {
                return Err(self.error(Reason::BlockScalarHeader, self.pos));
            }
            while !is_break(self.peek()) && self.peek().is_some() {
                self.pos += 1;
            }
        }
        if !is_break(self.peek()) && self.peek().is_some() {
            return Err(self.error(Reason::BlockScalarHeader, at));
        }
        self.skip_break();

        let parent = self.indent.max(-1);
        let mut indent: usize = 0;
        let mut known = false;
        if increment > 0 {
            indent = (parent + increment as isize).max(0) as usize;
            known = true;
        }
        let mut string = String::new();
        let mut trailing_breaks = String::new();
        let min_indent = (parent + 1).max(0) as usize;
        self.block_scalar_breaks(
            &mut indent,
            &mut known,
            min_indent,
            &mut trailing_breaks,
            at,
        )?;

        let mut leading_break = String::new();
        let mut leading_blank = false;
        while self.col == indent && self.peek().is_some() {
            if self.is_document_indicator() {
                break;
            }
            let trailing_blank = is_blank(self.peek());
            if !literal && leading_break.starts_with('\n') && !leading_blank && !trailing_blank {
                if trailing_breaks.is_empty() {
                    string.push(' ');
                }
                leading_break.clear();
            } else {
                string.push_str(&leading_break);
                leading_break.clear();
            }
            string.push_str(&trailing_breaks);
            trailing_breaks.clear();
            leading_blank = is_blank(self.peek());
            let start = self.pos;
            let mut end = start;
            while let Some(&b) = self.bytes.get(end) {
                if b == b'\n' || b == b'\r' {
                    break;
                }
                end += 1;
            }
            string.push_str(self.text.get(start..end).unwrap_or_default());
            self.skip_bytes(end - start);
            if self.peek().is_none() {
                // The last line ends at the end of the input: it still ends a line.
                leading_break.push('\n');
                break;
            }
            self.skip_break();
            leading_break.push('\n');
            self.block_scalar_breaks(
                &mut indent,
                &mut known,
                min_indent,
                &mut trailing_breaks,
                at,
            )?;
        }
        if chomping != -1 {
            string.push_str(&leading_break);
        }
        if chomping == 1 {
            string.push_str(&trailing_breaks);
        }
        Ok(string)
    }

    /// Empty lines and indentation in a block scalar; detects the indentation from the first
    /// non-empty line when the header gave none (section 8.1.1.1).
    fn block_scalar_breaks(
        &mut self,
        indent: &mut usize,
        known: &mut bool,
        min_indent: usize,
        breaks: &mut String,
        at: usize,
    ) -> Result<(), Error> {
        let mut max_indent = 0;
        loop {
            while (!*known || self.col < *indent) && self.peek() == Some(b' ') {
                self.pos += 1;
                self.col += 1;
            }
            if self.col > max_indent {
                max_indent = self.col;
            }
            if self.peek() == Some(b'\t')
                && (self.col < *indent || (!*known && self.col < min_indent))
            {
                // A tab where indentation is expected: an error when content follows on
                // the line, else an empty line.
                let mut i = self.pos;
                while matches!(self.bytes.get(i), Some(b' ' | b'\t')) {
                    i += 1;
                }
                if !matches!(self.bytes.get(i), None | Some(b'\n' | b'\r')) || !*known {
                    return Err(self.error(Reason::TabIndent, self.pos));
                }
                self.skip_bytes(i - self.pos);
            }
            if self.peek().is_none() && self.col > 0 && !*known {
                // A last line of spaces with no line break is an empty line.
                breaks.push('\n');
            }
            if !is_break(self.peek()) {
                break;
            }
            self.skip_break();
            breaks.push('\n');
        }
        if !*known {
            let detected = if self.peek().is_some() && !self.is_document_indicator() {
                self.col
            } else {
                max_indent
            };
            *indent = detected.max(min_indent);
            if *indent == 0 && min_indent == 0 && self.peek().is_some() && detected == 0 {
                *indent = 0;
            }
            *known = true;
            // Section 8.1.1.1: leading empty lines must not hold more spaces than the
            // first content line.
            if max_indent > *indent && self.col == *indent && self.peek().is_some() {
                return Err(self.error(Reason::BlockScalarIndent, at));
            }
        }
        Ok(())
    }

    fn fetch_flow_scalar(&mut self, single: bool) -> Result<(), Error> {
        self.save_simple_key()?;
        self.simple_key_allowed = false;
        let at = self.pos;
        let value = self.scan_flow_scalar(single)?;
        let style = if single {
            Style::SingleQuoted
        } else {
            Style::DoubleQuoted
        };
        self.push(Tok::Scalar(value, style), at);
        self.after_json_node = true;
        Ok(())
    }

    /// Sections 7.3.1 and 7.3.2: quoted scalars, with escapes and line folding.
    fn scan_flow_scalar(&mut self, single: bool) -> Result<Cow<'a, str>, Error> {
        let at = self.pos;
        let quote = if single { b'\'' } else { b'"' };
        self.skip();
        // Fast path: no escape, no line break before the closing quote.
        {
            let start = self.pos;
            let mut end = start;
            while let Some(&b) = self.bytes.get(end) {
                if b == quote || b == b'\n' || b == b'\r' || (!single && b == b'\\') {
                    break;
                }
                end += 1;
            }
            if self.bytes.get(end) == Some(&quote)
                && !(single && self.bytes.get(end + 1) == Some(&b'\''))
            {
                let s = self.text.get(start..end).unwrap_or_default();
                self.skip_bytes(end - start);
                self.skip();
                return Ok(Cow::Borrowed(s));
            }
        }
        let mut string = String::new();
        let mut leading_break = String::new();
        let mut trailing_breaks = String::new();
        let mut whitespaces = String::new();
        loop {
            if self.is_document_indicator() {
                return Err(self.error(Reason::DocumentMarkerInScalar, self.pos));
            }
            if self.peek().is_none() {
                return Err(self.error(Reason::UnclosedQuote, at));
            }
            let mut leading_blanks = false;
            // Non-blank characters.
            while let Some(b) = self.peek() {
                if matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
                    break;
                }
                if single && b == b'\'' {
                    if self.peek_at(1) == Some(b'\'') {
                        string.push('\'');
                        self.skip_bytes(2);
                        continue;
                    }
                    break;
                }
                if !single && b == b'"' {
                    break;
                }
                if !single && b == b'\\' {
                    if is_break(self.peek_at(1)) {
                        self.skip();
                        self.skip_break();
                        leading_blanks = true;
                        break;
                    }
                    self.scan_escape(&mut string)?;
                    continue;
                }
                // A run of ordinary bytes at once.
                let start = self.pos;
                let mut end = start;
                while let Some(&c) = self.bytes.get(end) {
                    if matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'\\' | b'\'' | b'"') {
                        break;
                    }
                    end += 1;
                }
                if end == start {
                    // A quote of the other kind.
                    end = start + 1;
                }
                string.push_str(self.text.get(start..end).unwrap_or_default());
                self.skip_bytes(end - start);
            }
            if self.peek() == Some(quote) {
                self.skip();
                break;
            }
            // Blanks and line breaks.
            let mut crossed_line = leading_blanks;
            let mut spaces = 0usize;
            let mut counting = leading_blanks;
            while let Some(b) = self.peek() {
                if b == b' ' || b == b'\t' {
                    if b == b' ' && counting {
                        spaces += 1;
                    } else {
                        counting = false;
                    }
                    if !leading_blanks {
                        whitespaces.push(b as char);
                    }
                    self.pos += 1;
                    self.col += 1;
                } else if b == b'\n' || b == b'\r' {
                    self.skip_break();
                    crossed_line = true;
                    spaces = 0;
                    counting = true;
                    if !leading_blanks {
                        whitespaces.clear();
                        leading_break.clear();
                        leading_break.push('\n');
                        leading_blanks = true;
                    } else {
                        trailing_breaks.push('\n');
                    }
                } else {
                    break;
                }
            }
            // Section 7.3.1: continuation lines of a multi-line quoted scalar in block
            // context are indented more than the enclosing block.
            if crossed_line
                && self.flow_level == 0
                && self.peek().is_some()
                && (spaces as isize) <= self.indent
                && !self.is_document_indicator()
            {
                return Err(self.error(Reason::BadIndentation, self.pos));
            }
            if leading_blanks {
                if leading_break.starts_with('\n') {
                    if trailing_breaks.is_empty() {
                        string.push(' ');
                    } else {
                        string.push_str(&trailing_breaks);
                    }
                } else {
                    string.push_str(&leading_break);
                    string.push_str(&trailing_breaks);
                }
                leading_break.clear();
                trailing_breaks.clear();
            } else {
                string.push_str(&whitespaces);
                whitespaces.clear();
            }
        }
        Ok(Cow::Owned(string))
    }

    /// Section 5.7: one escape sequence in a double-quoted scalar (at the `\`).
    fn scan_escape(&mut self, out: &mut String) -> Result<(), Error> {
        let at = self.pos;
        let c = match self.peek_at(1) {
            Some(c) => c,
            None => return Err(self.error(Reason::UnclosedQuote, at)),
        };
        let simple = match c {
            b'0' => Some('\0'),
            b'a' => Some('\u{7}'),
            b'b' => Some('\u{8}'),
            b't' | b'\t' => Some('\t'),
            b'n' => Some('\n'),
            b'v' => Some('\u{B}'),
            b'f' => Some('\u{C}'),
            b'r' => Some('\r'),
            b'e' => Some('\u{1B}'),
            b' ' => Some(' '),
            b'"' => Some('"'),
            b'/' => Some('/'),
            b'\\' => Some('\\'),
            b'N' => Some('\u{85}'),
            b'_' => Some('\u{A0}'),
            b'L' => Some('\u{2028}'),
            b'P' => Some('\u{2029}'),
            _ => None,
        };
        if let Some(ch) = simple {
            out.push(ch);
            self.skip_bytes(2);
            return Ok(());
        }
        let digits = match c {
            b'x' => 2,
            b'u' => 4,
            b'U' => 8,
            _ => return Err(self.error(Reason::InvalidEscape, at)),
        };
        let hex = self
            .text
            .get(self.pos + 2..self.pos + 2 + digits)
            .unwrap_or_default();
        if hex.len() != digits || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(self.error(Reason::InvalidEscape, at));
        }
        let code =
            u32::from_str_radix(hex, 16).map_err(|_| self.error(Reason::InvalidEscape, at))?;
        match char::from_u32(code) {
            Some(ch) => out.push(ch),
            None => return Err(self.error(Reason::InvalidCodePoint, at)),
        }
        self.skip_bytes(2 + digits);
        Ok(())
    }

    fn fetch_plain(&mut self) -> Result<(), Error> {
        self.save_simple_key()?;
        self.simple_key_allowed = false;
        let at = self.pos;
        let (value, crossed) = self.scan_plain()?;
        if crossed {
            self.simple_key_allowed = true;
        }
        self.push(Tok::Scalar(value, Style::Plain), at);
        Ok(())
    }

    /// Section 7.3.3: a plain scalar, possibly over several lines. Returns whether it ended
    /// after line breaks (then a simple key may follow).
    fn scan_plain(&mut self) -> Result<(Cow<'a, str>, bool), Error> {
        let flow = self.flow_level > 0;
        let min_col = (self.indent + 1).max(0) as usize;
        let mut string: Option<String> = None;
        let mut first: Option<(usize, usize)> = None;
        let mut leading_break = false;
        let mut trailing_breaks = 0usize;
        let mut whitespaces = (0usize, 0usize);
        let mut leading_blanks = false;
        loop {
            if self.is_document_indicator() {
                break;
            }
            if self.peek() == Some(b'#') {
                break;
            }
            // A run of non-blank characters (counting characters for the column as it goes).
            let start = self.pos;
            let mut end = start;
            let mut chars = 0;
            while let Some(&b) = self.bytes.get(end) {
                if PLAIN_STOP[usize::from(b)] {
                    let stop = match b {
                        b':' => {
                            let next = self.bytes.get(end + 1).copied();
                            is_blankz(next) || (flow && is_flow_indicator(next))
                        }
                        b',' | b'[' | b']' | b'{' | b'}' => flow,
                        _ => true,
                    };
                    if stop {
                        break;
                    }
                }
                chars += usize::from((b & 0xC0) != 0x80);
                end += 1;
            }
            if end == start {
                break;
            }
            // Join what came before this run.
            if first.is_none() {
                first = Some((start, end));
            } else {
                let s = string.get_or_insert_with(|| {
                    let (a, b) = first.unwrap_or((0, 0));
                    self.text.get(a..b).unwrap_or_default().to_owned()
                });
                if leading_blanks {
                    if leading_break && trailing_breaks == 0 {
                        s.push(' ');
                    } else {
                        for _ in 0..trailing_breaks {
                            s.push('\n');
                        }
                    }
                } else {
                    s.push_str(
                        self.text
                            .get(whitespaces.0..whitespaces.1)
                            .unwrap_or_default(),
                    );
                }
                s.push_str(self.text.get(start..end).unwrap_or_default());
            }
            leading_blanks = false;
            leading_break = false;
            trailing_breaks = 0;
            self.pos = end;
            self.col += chars;
            if !(is_blank(self.peek()) || is_break(self.peek())) {
                break;
            }
            // Blanks and breaks.
            let ws_start = self.pos;
            while let Some(b) = self.peek() {
                if b == b' ' || b == b'\t' {
                    if leading_blanks && self.col < min_col && b == b'\t' && !flow {
                        // A tab inside the indentation of a continuation line: look past
                        // it; it is only an error if content follows on this line.
                        let mut i = self.pos;
                        while matches!(self.bytes.get(i), Some(b' ' | b'\t')) {
                            i += 1;
                        }
                        if !matches!(self.bytes.get(i), None | Some(b'\n' | b'\r' | b'#')) {
                            return Err(self.error(Reason::TabIndent, self.pos));
                        }
                    }
                    self.pos += 1;
                    self.col += 1;
                } else if b == b'\n' || b == b'\r' {
                    self.skip_break();
                    if !leading_blanks {
                        leading_break = true;
                        leading_blanks = true;
                    } else {
                        trailing_breaks += 1;
                    }
                } else {
                    break;
                }
            }
            if !leading_blanks {
                whitespaces = (ws_start, self.pos);
            }
            if !flow && leading_blanks && self.col < min_col {
                break;
            }
        }
        let value = match (string, first) {
            (Some(s), _) => Cow::Owned(s),
            (None, Some((a, b))) => Cow::Borrowed(self.text.get(a..b).unwrap_or_default()),
            (None, None) => Cow::Borrowed(""),
        };
        Ok((value, leading_blanks))
    }
}

/// The bytes that may end a run of a plain scalar: blanks, breaks, `:` and the flow
/// indicators (section 7.3.3).
static PLAIN_STOP: [bool; 256] = {
    let mut table = [false; 256];
    table[b' ' as usize] = true;
    table[b'\t' as usize] = true;
    table[b'\n' as usize] = true;
    table[b'\r' as usize] = true;
    table[b':' as usize] = true;
    table[b',' as usize] = true;
    table[b'[' as usize] = true;
    table[b']' as usize] = true;
    table[b'{' as usize] = true;
    table[b'}' as usize] = true;
    table
};

fn utf8_len(b: u8) -> usize {
    if b < 0x80 {
        1
    } else if b >= 0xF0 {
        4
    } else if b >= 0xE0 {
        3
    } else {
        2
    }
}

/// Where the anchor or alias name that starts at `start` ends. Section 6.9.2: ns-anchor-char
/// is any non-space character but the flow indicators.
pub(crate) fn anchor_name_end(bytes: &[u8], start: usize) -> usize {
    let mut end = start;
    while let Some(&b) = bytes.get(end) {
        if matches!(
            b,
            b' ' | b'\t' | b'\n' | b'\r' | b',' | b'[' | b']' | b'{' | b'}'
        ) {
            break;
        }
        end += 1;
    }
    end
}
