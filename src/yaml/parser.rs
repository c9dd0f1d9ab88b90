//! Tokens into events (YAML 1.2.2 chapters 8 and 9): a state machine with an explicit stack of
//! states, so nesting never recurses.

use std::borrow::Cow;
use std::collections::HashMap;

use super::error::{Error, Reason};
use super::scanner::{Scanner, Style, Tok, Token};

/// A tag as resolved through the document's `%TAG` directives.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Tag {
    /// `!` alone: the non-specific tag (a plain scalar is then a string).
    NonSpecific,
    /// A full tag, such as `tag:yaml.org,2002:str` or `!local`.
    Full(String),
    /// A tag through a `%TAG` prefix that is longer than any core tag: none of them, so not
    /// spelled out (a long prefix copied for every node that names it made the work grow
    /// with the square of the input).
    Other,
}

/// The longest tag a `%TAG` prefix resolves to that is spelled out: longer than every core
/// tag (`tag:yaml.org,2002:float` is 23 bytes).
const MAX_SPELLED_TAG: usize = 64;

#[derive(Debug)]
pub(crate) struct Props<'a> {
    pub(crate) anchor: Option<&'a str>,
    pub(crate) tag: Option<Box<Tag>>,
}

#[derive(Debug)]
pub(crate) enum Event<'a> {
    StreamEnd,
    DocumentStart,
    DocumentEnd,
    Alias(&'a str),
    Scalar(Cow<'a, str>, Style, Props<'a>),
    SequenceStart(Props<'a>),
    SequenceEnd,
    MappingStart(Props<'a>),
    MappingEnd,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum State {
    StreamStart,
    ImplicitDocumentStart,
    DocumentStart,
    DocumentContent,
    DocumentEnd,
    BlockNode,
    BlockSequenceEntry,
    IndentlessSequenceEntry,
    BlockMappingKey,
    BlockMappingValue,
    FlowSequenceEntry(bool),
    FlowSequenceEntryMappingKey,
    FlowSequenceEntryMappingValue,
    FlowSequenceEntryMappingEnd,
    FlowMappingKey(bool),
    FlowMappingValue,
    FlowMappingEmptyValue,
    End,
}

pub(crate) struct Parser<'a> {
    scanner: Scanner<'a>,
    state: State,
    states: Vec<State>,
    /// The `%TAG` handles of the document and their prefixes, found by handle.
    tag_directives: HashMap<String, String>,
    /// Whether the last document ended with `...` (a directive may only follow one that did).
    explicit_end: bool,
    seen_version: bool,
}

impl<'a> Parser<'a> {
    pub(crate) fn new(text: &'a str) -> Parser<'a> {
        Parser {
            scanner: Scanner::new(text),
            state: State::StreamStart,
            states: Vec::new(),
            tag_directives: HashMap::new(),
            explicit_end: true,
            seen_version: false,
        }
    }

    pub(crate) fn error(&self, reason: Reason, at: usize) -> Error {
        self.scanner.error(reason, at)
    }

    pub(crate) fn text(&self) -> &'a str {
        self.scanner.text()
    }

    fn peek(&mut self) -> Result<&Token<'a>, Error> {
        self.scanner.peek_token()
    }

    fn next(&mut self) -> Result<Token<'a>, Error> {
        self.scanner.next_token()
    }

    fn pop_state(&mut self) {
        self.state = self.states.pop().unwrap_or(State::End);
    }

    /// The next event and the byte offset it starts at.
    pub(crate) fn next_event(&mut self) -> Result<(Event<'a>, usize), Error> {
        match self.state {
            State::StreamStart => {
                self.state = State::ImplicitDocumentStart;
                self.next_event()
            }
            State::ImplicitDocumentStart => self.document_start(true),
            State::DocumentStart => self.document_start(false),
            State::DocumentContent => {
                let (is_end, at) = {
                    let t = self.peek()?;
                    (
                        matches!(
                            t.tok,
                            Tok::VersionDirective
                                | Tok::TagDirective(..)
                                | Tok::OtherDirective
                                | Tok::DocumentStart
                                | Tok::DocumentEnd
                                | Tok::StreamEnd
                        ),
                        t.at,
                    )
                };
                if is_end {
                    self.pop_state();
                    return Ok((empty_scalar(), at));
                }
                self.parse_node(true, false)
            }
            State::DocumentEnd => {
                let at = self.peek()?.at;
                self.explicit_end = false;
                if self.peek()?.tok == Tok::DocumentEnd {
                    self.next()?;
                    self.explicit_end = true;
                }
                // A new map rather than `clear`, which costs the capacity every document.
                if !self.tag_directives.is_empty() {
                    self.tag_directives = HashMap::new();
                }
                self.seen_version = false;
                self.state = State::DocumentStart;
                Ok((Event::DocumentEnd, at))
            }
            State::BlockNode => self.parse_node(true, false),
            State::BlockSequenceEntry => self.block_sequence_entry(),
            State::IndentlessSequenceEntry => self.indentless_sequence_entry(),
            State::BlockMappingKey => self.block_mapping_key(),
            State::BlockMappingValue => self.block_mapping_value(),
            State::FlowSequenceEntry(first) => self.flow_sequence_entry(first),
            State::FlowSequenceEntryMappingKey => {
                let (tok_is_end, at) = {
                    let t = self.peek()?;
                    (
                        matches!(t.tok, Tok::Value | Tok::FlowEntry | Tok::FlowSequenceEnd),
                        t.at,
                    )
                };
                if tok_is_end {
                    self.state = State::FlowSequenceEntryMappingValue;
                    Ok((empty_scalar(), at))
                } else {
                    self.states.push(State::FlowSequenceEntryMappingValue);
                    self.parse_node(false, false)
                }
            }
            State::FlowSequenceEntryMappingValue => {
                let at = self.peek()?.at;
                if self.peek()?.tok == Tok::Value {
                    self.next()?;
                    let t = self.peek()?;
                    let at = t.at;
                    if !matches!(t.tok, Tok::FlowEntry | Tok::FlowSequenceEnd) {
                        self.states.push(State::FlowSequenceEntryMappingEnd);
                        return self.parse_node(false, false);
                    }
                    self.state = State::FlowSequenceEntryMappingEnd;
                    return Ok((empty_scalar(), at));
                }
                self.state = State::FlowSequenceEntryMappingEnd;
                Ok((empty_scalar(), at))
            }
            State::FlowSequenceEntryMappingEnd => {
                let at = self.peek()?.at;
                self.state = State::FlowSequenceEntry(false);
                Ok((Event::MappingEnd, at))
            }
            State::FlowMappingKey(first) => self.flow_mapping_key(first),
            State::FlowMappingValue => self.flow_mapping_value(false),
            State::FlowMappingEmptyValue => self.flow_mapping_value(true),
            State::End => Ok((Event::StreamEnd, self.scanner_pos())),
        }
    }

    fn scanner_pos(&mut self) -> usize {
        self.peek().map(|t| t.at).unwrap_or(0)
    }

    fn document_start(&mut self, implicit: bool) -> Result<(Event<'a>, usize), Error> {
        let mut implicit = implicit;
        while self.peek()?.tok == Tok::DocumentEnd {
            self.next()?;
            self.explicit_end = true;
        }
        // Section 9.2: after `...`, a bare document may follow.
        if self.explicit_end {
            implicit = true;
        }
        let (tok_kind, at) = {
            let t = self.peek()?;
            (
                match t.tok {
                    Tok::StreamEnd => 0,
                    Tok::VersionDirective | Tok::TagDirective(..) | Tok::OtherDirective => 1,
                    Tok::DocumentStart => 2,
                    _ => 3,
                },
                t.at,
            )
        };
        match tok_kind {
            0 => {
                self.state = State::End;
                Ok((Event::StreamEnd, at))
            }
            3 if implicit => {
                self.states.push(State::DocumentEnd);
                self.state = State::BlockNode;
                Ok((Event::DocumentStart, at))
            }
            3 => {
                // Content after a document that did not end with `...` needs `---`: bare
                // content here means the document's structure was broken.
                Err(self.error(Reason::ExpectedDocumentStart, at))
            }
            _ => {
                if tok_kind == 1 && !self.explicit_end {
                    return Err(self.error(Reason::ExpectedDocumentEnd, at));
                }
                self.directives()?;
                let t = self.next()?;
                if t.tok != Tok::DocumentStart {
                    return Err(self.error(Reason::ExpectedDocumentStart, t.at));
                }
                self.states.push(State::DocumentEnd);
                self.state = State::DocumentContent;
                Ok((Event::DocumentStart, t.at))
            }
        }
    }

    fn directives(&mut self) -> Result<(), Error> {
        loop {
            let at = self.peek()?.at;
            match self.peek()?.tok {
                Tok::VersionDirective => {
                    if self.seen_version {
                        return Err(self.error(Reason::DuplicateDirective, at));
                    }
                    self.seen_version = true;
                    self.next()?;
                }
                Tok::OtherDirective => {
                    self.next()?;
                }
                Tok::TagDirective(..) => {
                    if let Tok::TagDirective(handle, prefix) = self.next()?.tok {
                        if self.tag_directives.contains_key(&handle) {
                            return Err(self.error(Reason::DuplicateDirective, at));
                        }
                        self.tag_directives.insert(handle, prefix);
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    fn resolve_tag(&self, handle: String, suffix: String, at: usize) -> Result<Tag, Error> {
        if handle.is_empty() {
            return Ok(Tag::Full(suffix));
        }
        if handle == "!" && suffix.is_empty() {
            return Ok(Tag::NonSpecific);
        }
        if let Some(prefix) = self.tag_directives.get(&handle) {
            if prefix.len() + suffix.len() > MAX_SPELLED_TAG {
                return Ok(Tag::Other);
            }
            return Ok(Tag::Full(format!("{prefix}{suffix}")));
        }
        match handle.as_str() {
            "!" => Ok(Tag::Full(format!("!{suffix}"))),
            "!!" => Ok(Tag::Full(format!("tag:yaml.org,2002:{suffix}"))),
            _ => Err(self.error(Reason::UnknownTagHandle, at)),
        }
    }

    /// Sections 6.9, 7 and 8: an optional anchor and tag, then the node itself.
    fn parse_node(
        &mut self,
        block: bool,
        indentless_sequence: bool,
    ) -> Result<(Event<'a>, usize), Error> {
        let mut anchor = None;
        let mut tag = None;
        let mut start = None;
        loop {
            let (kind, at) = self.peek_kind()?;
            match kind {
                Kind::Alias => {
                    if anchor.is_some() || tag.is_some() {
                        return Err(self.error(Reason::AnchorBeforeAlias, at));
                    }
                    if let Tok::Alias(name) = self.next()?.tok {
                        self.pop_state();
                        return Ok((Event::Alias(name), at));
                    }
                }
                Kind::Anchor => {
                    if anchor.is_some() {
                        return Err(self.error(Reason::TwoAnchors, at));
                    }
                    if let Tok::Anchor(name) = self.next()?.tok {
                        anchor = Some(name);
                    }
                    start.get_or_insert(at);
                }
                Kind::Tag => {
                    if tag.is_some() {
                        return Err(self.error(Reason::TwoTags, at));
                    }
                    if let Tok::Tag(tag_parts) = self.next()?.tok {
                        let (handle, suffix) = *tag_parts;
                        tag = Some(Box::new(self.resolve_tag(handle, suffix, at)?));
                    }
                    start.get_or_insert(at);
                }
                _ => break,
            }
        }
        let props = Props { anchor, tag };
        let (kind, at) = self.peek_kind()?;
        let at = start.unwrap_or(at);
        match kind {
            Kind::BlockEntry if indentless_sequence => {
                self.state = State::IndentlessSequenceEntry;
                Ok((Event::SequenceStart(props), at))
            }
            Kind::Scalar => {
                if let Tok::Scalar(value, style) = self.next()?.tok {
                    self.pop_state();
                    return Ok((Event::Scalar(value, style, props), at));
                }
                Err(self.error(Reason::ExpectedNode, at))
            }
            Kind::FlowSequenceStart => {
                self.next()?;
                self.state = State::FlowSequenceEntry(true);
                Ok((Event::SequenceStart(props), at))
            }
            Kind::FlowMappingStart => {
                self.next()?;
                self.state = State::FlowMappingKey(true);
                Ok((Event::MappingStart(props), at))
            }
            Kind::BlockSequenceStart if block => {
                self.next()?;
                self.state = State::BlockSequenceEntry;
                Ok((Event::SequenceStart(props), at))
            }
            Kind::BlockMappingStart if block => {
                self.next()?;
                self.state = State::BlockMappingKey;
                Ok((Event::MappingStart(props), at))
            }
            _ if props.anchor.is_some() || props.tag.is_some() => {
                self.pop_state();
                Ok((Event::Scalar(Cow::Borrowed(""), Style::Plain, props), at))
            }
            _ => {
                let at = self.peek()?.at;
                Err(self.error(Reason::ExpectedNode, at))
            }
        }
    }

    fn peek_kind(&mut self) -> Result<(Kind, usize), Error> {
        let t = self.peek()?;
        let kind = match t.tok {
            Tok::StreamEnd => Kind::StreamEnd,
            Tok::Alias(_) => Kind::Alias,
            Tok::Anchor(_) => Kind::Anchor,
            Tok::Tag(..) => Kind::Tag,
            Tok::Scalar(..) => Kind::Scalar,
            Tok::FlowSequenceStart => Kind::FlowSequenceStart,
            Tok::FlowMappingStart => Kind::FlowMappingStart,
            Tok::BlockSequenceStart => Kind::BlockSequenceStart,
            Tok::BlockMappingStart => Kind::BlockMappingStart,
            Tok::BlockEntry => Kind::BlockEntry,
            Tok::BlockEnd => Kind::BlockEnd,
            Tok::Key => Kind::Key,
            Tok::Value => Kind::Value,
            Tok::FlowEntry => Kind::FlowEntry,
            Tok::FlowSequenceEnd => Kind::FlowSequenceEnd,
            Tok::FlowMappingEnd => Kind::FlowMappingEnd,
            _ => Kind::Other,
        };
        Ok((kind, t.at))
    }

    /// Section 8.2.1: `- entry` lines.
    fn block_sequence_entry(&mut self) -> Result<(Event<'a>, usize), Error> {
        let (kind, at) = self.peek_kind()?;
        match kind {
            Kind::BlockEntry => {
                self.next()?;
                let (next, next_at) = self.peek_kind()?;
                if matches!(next, Kind::BlockEntry | Kind::BlockEnd) {
                    return Ok((empty_scalar(), next_at));
                }
                self.states.push(State::BlockSequenceEntry);
                self.parse_node(true, false)
            }
            Kind::BlockEnd => {
                self.next()?;
                self.pop_state();
                Ok((Event::SequenceEnd, at))
            }
            _ => Err(self.error(Reason::ExpectedSeqEntry, at)),
        }
    }

    /// A block sequence as a mapping value at the mapping's own indentation (section 8.2.1,
    /// "compact" / indentless form).
    fn indentless_sequence_entry(&mut self) -> Result<(Event<'a>, usize), Error> {
        let (kind, at) = self.peek_kind()?;
        if kind != Kind::BlockEntry {
            self.pop_state();
            return Ok((Event::SequenceEnd, at));
        }
        self.next()?;
        let (next, next_at) = self.peek_kind()?;
        if matches!(
            next,
            Kind::BlockEntry | Kind::Key | Kind::Value | Kind::BlockEnd
        ) {
            return Ok((empty_scalar(), next_at));
        }
        self.states.push(State::IndentlessSequenceEntry);
        self.parse_node(true, false)
    }

    /// Section 8.2.2: `key: value` and `? key` entries.
    fn block_mapping_key(&mut self) -> Result<(Event<'a>, usize), Error> {
        let (kind, at) = self.peek_kind()?;
        match kind {
            Kind::Key => {
                self.next()?;
                let (next, next_at) = self.peek_kind()?;
                if matches!(next, Kind::Key | Kind::Value | Kind::BlockEnd) {
                    self.state = State::BlockMappingValue;
                    return Ok((empty_scalar(), next_at));
                }
                self.states.push(State::BlockMappingValue);
                self.parse_node(true, true)
            }
            // A `:` with no key before it: the key is empty.
            Kind::Value => {
                self.state = State::BlockMappingValue;
                Ok((empty_scalar(), at))
            }
            Kind::BlockEnd => {
                self.next()?;
                self.pop_state();
                Ok((Event::MappingEnd, at))
            }
            _ => Err(self.error(Reason::ExpectedKey, at)),
        }
    }

    fn block_mapping_value(&mut self) -> Result<(Event<'a>, usize), Error> {
        let (kind, at) = self.peek_kind()?;
        if kind == Kind::Value {
            self.next()?;
            let (next, next_at) = self.peek_kind()?;
            if matches!(next, Kind::Key | Kind::Value | Kind::BlockEnd) {
                self.state = State::BlockMappingKey;
                return Ok((empty_scalar(), next_at));
            }
            self.states.push(State::BlockMappingKey);
            return self.parse_node(true, true);
        }
        if kind == Kind::Key || kind == Kind::BlockEnd {
            // `? key` with no `:` line: the value is empty.
            self.state = State::BlockMappingKey;
            return Ok((empty_scalar(), at));
        }
        Err(self.error(Reason::ExpectedValueAfterKey, at))
    }

    /// Section 7.4.1: `[a, b, key: value]`.
    fn flow_sequence_entry(&mut self, first: bool) -> Result<(Event<'a>, usize), Error> {
        let (mut kind, mut at) = self.peek_kind()?;
        if kind != Kind::FlowSequenceEnd {
            if !first {
                if kind != Kind::FlowEntry {
                    return Err(self.error(Reason::ExpectedFlowSeqEnd, at));
                }
                self.next()?;
                let (k, a) = self.peek_kind()?;
                kind = k;
                at = a;
            }
            match kind {
                Kind::Key => {
                    self.next()?;
                    self.state = State::FlowSequenceEntryMappingKey;
                    return Ok((Event::MappingStart(no_props()), at));
                }
                // `[: b]`: a pair with an empty key.
                Kind::Value => {
                    self.state = State::FlowSequenceEntryMappingKey;
                    return Ok((Event::MappingStart(no_props()), at));
                }
                Kind::FlowSequenceEnd => {}
                Kind::FlowEntry => return Err(self.error(Reason::ExpectedNode, at)),
                _ => {
                    self.states.push(State::FlowSequenceEntry(false));
                    return self.parse_node(false, false);
                }
            }
        }
        self.next()?;
        self.pop_state();
        Ok((Event::SequenceEnd, at))
    }

    /// Section 7.4.1: `{a: b, c}`.
    fn flow_mapping_key(&mut self, first: bool) -> Result<(Event<'a>, usize), Error> {
        let (mut kind, mut at) = self.peek_kind()?;
        if kind != Kind::FlowMappingEnd {
            if !first {
                if kind != Kind::FlowEntry {
                    return Err(self.error(Reason::ExpectedFlowMapEnd, at));
                }
                self.next()?;
                let (k, a) = self.peek_kind()?;
                kind = k;
                at = a;
            }
            match kind {
                Kind::Key => {
                    self.next()?;
                    let (next, next_at) = self.peek_kind()?;
                    if matches!(next, Kind::Value | Kind::FlowEntry | Kind::FlowMappingEnd) {
                        self.state = State::FlowMappingValue;
                        return Ok((empty_scalar(), next_at));
                    }
                    self.states.push(State::FlowMappingValue);
                    return self.parse_node(false, false);
                }
                Kind::Value => {
                    self.state = State::FlowMappingValue;
                    return Ok((empty_scalar(), at));
                }
                Kind::FlowMappingEnd => {}
                Kind::FlowEntry => return Err(self.error(Reason::ExpectedNode, at)),
                _ => {
                    self.states.push(State::FlowMappingEmptyValue);
                    return self.parse_node(false, false);
                }
            }
        }
        self.next()?;
        self.pop_state();
        Ok((Event::MappingEnd, at))
    }

    fn flow_mapping_value(&mut self, empty: bool) -> Result<(Event<'a>, usize), Error> {
        let (kind, at) = self.peek_kind()?;
        if empty {
            self.state = State::FlowMappingKey(false);
            return Ok((empty_scalar(), at));
        }
        if kind == Kind::Value {
            self.next()?;
            let (next, next_at) = self.peek_kind()?;
            if !matches!(next, Kind::FlowEntry | Kind::FlowMappingEnd) {
                self.states.push(State::FlowMappingKey(false));
                return self.parse_node(false, false);
            }
            self.state = State::FlowMappingKey(false);
            return Ok((empty_scalar(), next_at));
        }
        self.state = State::FlowMappingKey(false);
        Ok((empty_scalar(), at))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    StreamEnd,
    Alias,
    Anchor,
    Tag,
    Scalar,
    FlowSequenceStart,
    FlowMappingStart,
    BlockSequenceStart,
    BlockMappingStart,
    BlockEntry,
    BlockEnd,
    Key,
    Value,
    FlowEntry,
    FlowSequenceEnd,
    FlowMappingEnd,
    Other,
}

fn no_props<'a>() -> Props<'a> {
    Props {
        anchor: None,
        tag: None,
    }
}

fn empty_scalar<'a>() -> Event<'a> {
    Event::Scalar(Cow::Borrowed(""), Style::Plain, no_props())
}
