//! Quoting arguments for a shell, so that the shell passes them to curl byte for byte.
//!
//! - Words made only of characters no shell reads specially (`A-Z a-z 0-9` and
//!   `- _ . / : = , + @ %`, not starting with `=`) are written as they are.
//! - Other words that are UTF-8 text without control characters go between single quotes
//!   (POSIX shell, "Single-Quotes": nothing inside is special), each `'` written as `'\''`
//!   (close, an escaped quote, reopen).
//! - Words holding a control character (newline, tab, ...) or bytes that are not UTF-8 are
//!   written as one ANSI-C string `$'...'`, with `\\`, `\'`, `\n`, `\r`, `\t` and `\xHH`
//!   escapes. bash, zsh, ksh and busybox sh read it; dash (Debian's `/bin/sh`) does not.
//!   httptool's requests need it only for multipart bodies and tabs in header values.

/// The word quoted for a shell (see the module docs).
pub(crate) fn quote(word: &[u8]) -> String {
    // zsh expands a word that starts with `=` (`=cmd` is the path of cmd): quote it.
    let plain = word.first().map_or(false, |&b| b != b'=') && word.iter().all(|&b| is_plain(b));
    if plain {
        // Plain ASCII, checked just above.
        return String::from_utf8_lossy(word).into_owned();
    }
    match std::str::from_utf8(word) {
        Ok(text) if !text.chars().any(char::is_control) => single_quoted(text),
        _ => ansi_c(word),
    }
}

fn is_plain(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-_./:=,+@%".contains(&b)
}

fn single_quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('\'');
    for c in text.chars() {
        if c == '\'' {
            out.push_str("'\\''");
        } else {
            out.push(c);
        }
    }
    out.push('\'');
    out
}

/// `$'...'` (bash manual, "ANSI-C Quoting"): printable ASCII and valid UTF-8 characters
/// as they are, the rest escaped. `\xHH` always has two digits, so a hex digit after it
/// cannot extend it.
fn ansi_c(word: &[u8]) -> String {
    let mut out = String::with_capacity(word.len() + 3);
    out.push_str("$'");
    let mut rest = word;
    while !rest.is_empty() {
        let valid = match std::str::from_utf8(rest) {
            Ok(text) => text,
            // The prefix up to the error is valid UTF-8.
            Err(e) => std::str::from_utf8(&rest[..e.valid_up_to()]).unwrap_or(""),
        };
        for c in valid.chars() {
            push_char(&mut out, c);
        }
        rest = &rest[valid.len()..];
        if let Some((&byte, tail)) = rest.split_first() {
            push_hex(&mut out, byte);
            rest = tail;
        }
    }
    out.push('\'');
    out
}

fn push_char(out: &mut String, c: char) {
    match c {
        '\\' => out.push_str("\\\\"),
        '\'' => out.push_str("\\'"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        c if c.is_control() => {
            let mut buf = [0; 4];
            for &b in c.encode_utf8(&mut buf).as_bytes() {
                push_hex(out, b);
            }
        }
        c => out.push(c),
    }
}

fn push_hex(out: &mut String, byte: u8) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push_str("\\x");
    out.push(char::from(HEX[usize::from(byte >> 4)]));
    out.push(char::from(HEX[usize::from(byte & 0xf)]));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curl::shell;

    macro_rules! quote_cases {
        ($($name:ident: $word:expr => $expected:expr;)*) => {
            $(
                #[test]
                fn $name() {
                    assert_eq!(quote($word), $expected);
                }
            )*
        };
    }

    quote_cases! {
        plain_word: b"--data-binary" => "--data-binary";
        plain_url: b"http://x.test:80/a/b" => "http://x.test:80/a/b";
        empty_word: b"" => "''";
        leading_equals: b"=x" => "'=x'";
        space: b"a b" => "'a b'";
        query: b"http://x.test/?a=1&b=2" => "'http://x.test/?a=1&b=2'";
        single_quote: b"it's" => "'it'\\''s'";
        dollar_and_backtick: b"$HOME `id`" => "'$HOME `id`'";
        utf8_text: "Zürich 杭州".as_bytes() => "'Zürich 杭州'";
        newline: b"a\nb" => "$'a\\nb'";
        tab_and_quote: b"a\t'b'" => "$'a\\t\\'b\\''";
        backslash_with_newline: b"\\\n" => "$'\\\\\\n'";
        not_utf8: b"\xff\xfe" => "$'\\xff\\xfe'";
        not_utf8_before_hex_digit: b"\xffa" => "$'\\xffa'";
        other_control: b"\x01\x7f" => "$'\\x01\\x7f'";
        utf8_kept_in_ansi: "é\n".as_bytes() => "$'é\\n'";
        c1_control: "\u{85}".as_bytes() => "$'\\xc2\\x85'";
    }

    /// Every quoted word reads back through httptool's own shell reader.
    #[test]
    fn quoted_words_read_back() {
        let mut words: Vec<Vec<u8>> = (1u8..=255).map(|b| vec![b, b'x', b]).collect();
        words.push(b"'\"'$'\\'".to_vec());
        words.push("ünï\r\n\tcode\x1b".as_bytes().to_vec());
        for word in words {
            let line = format!("curl {}", quote(&word));
            let split =
                shell::split(&line).map(|w| w.into_iter().map(|w| w.bytes).collect::<Vec<_>>());
            assert_eq!(
                split,
                Ok(vec![b"curl".to_vec(), word.clone()]),
                "{:?}",
                line
            );
        }
    }

    /// And through bash itself: `printf %s WORD` writes the bytes bash passed.
    #[test]
    fn quoted_words_read_back_in_bash() {
        let bash = std::path::Path::new("/bin/bash");
        if !bash.exists() {
            assert!(std::env::var_os("CI").is_none(), "bash is needed under CI");
            return;
        }
        let all: Vec<u8> = (1u8..=255).collect();
        let samples: Vec<Vec<u8>> = vec![
            all.clone(),
            all.iter().rev().copied().collect(),
            b"it's a \"test\" with $VAR and `cmd` and \\".to_vec(),
            "Zürich\n杭州\t'".as_bytes().to_vec(),
            Vec::new(),
        ];
        for word in samples {
            let script = format!("printf %s {}", quote(&word));
            let out = std::process::Command::new(bash)
                .arg("-c")
                .arg(&script)
                .output()
                .map(|o| o.stdout);
            assert_eq!(out.ok(), Some(word.clone()), "{}", script);
        }
    }

    /// Words without control characters or odd bytes need no more than POSIX `sh`.
    #[test]
    fn single_quoted_words_read_back_in_sh() {
        let sh = std::path::Path::new("/bin/sh");
        if !sh.exists() {
            assert!(std::env::var_os("CI").is_none(), "sh is needed under CI");
            return;
        }
        let printable: Vec<u8> = (0x20u8..0x7f).collect();
        for word in [printable, "'Zürich' 'n' \\'".as_bytes().to_vec()] {
            let quoted = quote(&word);
            assert!(!quoted.starts_with('$'), "{}", quoted);
            let script = format!("printf %s {}", quoted);
            let out = std::process::Command::new(sh)
                .arg("-c")
                .arg(&script)
                .output()
                .map(|o| o.stdout);
            assert_eq!(out.ok(), Some(word.clone()), "{}", script);
        }
    }
}
