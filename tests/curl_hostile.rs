//! Input written to hurt: open quotes, NUL bytes, huge and deep commands, random bytes.
//! Each must end in a clear error or a correct result, quickly and without a panic.

use std::time::{Duration, Instant};

use httptool::curl::{self, ErrorKind};

use crate::support::rng::Rng;

/// Generous: the linear reader takes milliseconds; a quadratic one would take hours.
const SLOW: Duration = Duration::from_secs(10);

fn kind(command: &str) -> Option<ErrorKind> {
    curl::parse(command).err().map(|err| err.kind())
}

#[test]
fn unterminated_quotes_name_the_quote_and_where_it_opened() {
    let cases = [
        ("curl -d 'abc x.test", "single quote", 8),
        ("curl -d \"abc x.test", "double quote", 8),
        ("curl -d $'abc x.test", "$'...' string", 8),
        ("curl -d $\"abc x.test", "double quote", 8),
        ("curl x.test -H 'A: \"b\"", "single quote", 15),
    ];
    for (command, quote, offset) in cases {
        match curl::parse(command) {
            Err(err) => {
                assert_eq!(err.kind(), ErrorKind::UnterminatedQuote, "{}", command);
                assert_eq!(err.offset(), Some(offset), "{}", command);
                let opened = format!("unterminated {} opened at byte {} ", quote, offset);
                assert!(err.to_string().starts_with(&opened), "{}: {}", command, err);
            }
            Ok(cmd) => panic!("{}: parsed as {}", command, cmd.url()),
        }
    }
}

#[test]
fn nul_bytes_are_refused_wherever_they_come_from() {
    for command in [
        "curl x.test\0",
        "curl '\0' x.test",
        "curl -d \"\0\" x.test",
        "curl -d $'\\0' x.test",
        "curl -d $'\\x00' x.test",
        "curl -d $'\\u0000' x.test",
        "curl -d $'\\c@' x.test",
        "curl x.test # \0",
    ] {
        assert_eq!(kind(command), Some(ErrorKind::NulByte), "{:?}", command);
    }
}

#[test]
fn invalid_utf8_is_data_only() {
    let cmd = curl::parse("curl x.test --data-binary $'\\xff\\x80'").map_err(|e| e.to_string());
    assert_eq!(
        cmd.map(|c| c.data()[0].inline().map(<[u8]>::to_vec)),
        Ok(Some(vec![0xff, 0x80]))
    );
    let cmd = curl::parse("curl x.test -F $'a=\\xff'").map_err(|e| e.to_string());
    assert_eq!(cmd.map(|c| c.form()[0].text().is_none()), Ok(true));
    for command in [
        "curl $'x.test/\\xff'",
        "curl -H $'A: \\xff' x.test",
        "curl -A $'\\xff' x.test",
        "curl -u $'\\xff:x' x.test",
        "curl -X $'\\xff' x.test",
        "curl -F $'\\xff=a' x.test",
        "curl --data-urlencode $'\\xff=a' x.test",
    ] {
        assert_eq!(kind(command), Some(ErrorKind::InvalidUtf8), "{:?}", command);
    }
}

#[test]
fn one_megabyte_of_data_is_read_quickly() {
    let body = "a".repeat(1 << 20);
    for command in [
        format!("curl x.test -d '{}'", body),
        format!("curl x.test -d \"{}\"", body),
        format!("curl x.test -d $'{}'", body),
        format!("curl x.test -d {}", body),
    ] {
        let started = Instant::now();
        let cmd = curl::parse(&command).map_err(|e| e.to_string());
        assert!(started.elapsed() < SLOW, "{:?}", started.elapsed());
        assert_eq!(
            cmd.map(|c| c.data()[0].inline().map(<[u8]>::len)),
            Ok(Some(1 << 20))
        );
    }
}

#[test]
fn one_megabyte_of_escapes_is_read_quickly() {
    let command = format!(
        "curl x.test --data-binary $'{}'",
        "\\x41\\n".repeat(1 << 17)
    );
    let started = Instant::now();
    let cmd = curl::parse(&command).map_err(|e| e.to_string());
    assert!(started.elapsed() < SLOW, "{:?}", started.elapsed());
    assert_eq!(
        cmd.map(|c| c.data()[0].inline().map(<[u8]>::len)),
        Ok(Some(1 << 18))
    );
}

#[test]
fn one_megabyte_ending_in_an_open_quote_fails_quickly() {
    let command = format!("curl x.test -d \"{}", "\\\"'".repeat(1 << 19));
    let started = Instant::now();
    assert_eq!(kind(&command), Some(ErrorKind::UnterminatedQuote));
    assert!(started.elapsed() < SLOW, "{:?}", started.elapsed());
}

#[test]
fn a_hundred_thousand_arguments() {
    let mut command = String::from("curl x.test");
    for n in 0..100_000 {
        command.push_str(&format!(" -H 'X-N: {}'", n));
    }
    let started = Instant::now();
    let cmd = curl::parse(&command).map_err(|e| e.to_string());
    assert!(started.elapsed() < SLOW, "{:?}", started.elapsed());
    let cmd = cmd.map(|c| (c.headers().len(), c.headers()[99_999].value().to_owned()));
    assert_eq!(cmd, Ok((100_000, "99999".to_owned())));
}

#[test]
fn a_hundred_thousand_bundled_switches_and_notes() {
    let command = format!(
        "curl x.test -{} {}",
        "s".repeat(100_000),
        "--retry 1 ".repeat(50_000)
    );
    let started = Instant::now();
    let cmd = curl::parse(&command).map_err(|e| e.to_string());
    assert!(started.elapsed() < SLOW, "{:?}", started.elapsed());
    assert_eq!(cmd.map(|c| c.notes().len()), Ok(50_000));
}

#[test]
fn deeply_nested_quotes_are_flat_to_the_lexer() {
    // 'a'"b"'a'"b"... and "'"'"'... alternate quote kinds 100,000 times in one word.
    let word: String = (0..100_000)
        .map(|n| if n % 2 == 0 { "'a\"'" } else { "\"b'\"" })
        .collect();
    let cmd = curl::parse(&format!("curl x.test -d {}", word)).map_err(|e| e.to_string());
    let expected: Vec<u8> = (0..100_000)
        .flat_map(|n| if n % 2 == 0 { b"a\"" } else { b"b'" })
        .copied()
        .collect();
    assert_eq!(
        cmd.map(|c| c.data()[0].inline().map(<[u8]>::to_vec)),
        Ok(Some(expected))
    );
}

#[test]
fn deeply_nested_json_data_is_just_bytes() {
    let depth = 100_000;
    let json = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    let cmd = curl::parse(&format!("curl x.test --json '{}'", json)).map_err(|e| e.to_string());
    assert_eq!(
        cmd.map(|c| c.data()[0].inline().map(<[u8]>::len)),
        Ok(Some(2 * depth))
    );
}

#[test]
fn long_unknown_option_is_shortened_in_the_message() {
    let command = format!("curl x.test --{}", "z".repeat(10_000));
    let message = curl::parse(&command).err().map(|e| e.to_string());
    let message = message.unwrap_or_default();
    assert!(
        message.starts_with("unknown curl option --zzz"),
        "{}",
        message
    );
    assert!(message.len() < 200, "{}", message.len());
}

#[test]
fn messages_never_hold_values() {
    for command in [
        "curl x.test -H $'Authorization: Bearer s3cret-v4lue\\r\\nX: y'",
        "curl x.test -H 'Authorization Bearer s3cret-v4lue: x'",
        "curl 'ftp://user:s3cret-v4lue@x.test/'",
        "curl x.test -m s3cret-v4lue",
        "curl x.test -F s3cret-v4lue",
        "curl x.test -X 's3cret-v4lue x'",
    ] {
        let message = curl::parse(command).err().map(|e| e.to_string());
        let message = message.unwrap_or_default();
        assert!(!message.is_empty(), "{} parsed", command);
        assert!(!message.contains("s3cret"), "{}", message);
    }
}

#[test]
fn random_shell_soup_never_panics() {
    let pieces = [
        "curl ", " ", "\n", "\\\n", "\\", "'", "\"", "$'", "$\"", "$", "{", "}", ",", "..", "#",
        "~", "^", "`", "|", "&", ";", "<", ">", "(", ")", "*", "?", "[", "\\x", "\\u", "\\U",
        "\\c", "\\0", "\\r", "-", "--", "-X", "-d", "-F", "-H", "--json", "@", "=", ";type=",
        "x.test", "é", "\r\n", "\t", "a", "0", "ff", "--no-", "-G", "-I", ":",
    ];
    let mut random = Rng::new(7);
    for _ in 0..30_000 {
        let len = 1 + random.next() % 24;
        let mut command = String::from("curl ");
        for _ in 0..len {
            let piece = pieces[(random.next() % pieces.len() as u64) as usize];
            command.push_str(piece);
        }
        // Any outcome is fine; a panic fails the test.
        if let Err(err) = curl::parse(&command) {
            assert!(!err.to_string().is_empty());
        }
    }
}

#[test]
fn random_argv_never_panics() {
    let args = [
        "-X",
        "-H",
        "A: b",
        "-d",
        "@f",
        "-F",
        "a=@f;type=x,g",
        "--json",
        "{}",
        "-G",
        "-I",
        "-T",
        "-u",
        "a:b",
        "--oauth2-bearer",
        "t",
        "-sSL",
        "-XPOST",
        "--no-get",
        "--",
        "x.test",
        "https://y.test",
        "-m",
        "1.5",
        "--max-redirs",
        "-1",
        "-b",
        "c=1",
        "--url",
        "-e",
        ";auto",
        "--data-urlencode",
        "n@f",
        "--form-string",
        "a=b",
        "-k",
        "--compressed",
        "-x",
        "",
    ];
    let mut random = Rng::new(11);
    for _ in 0..30_000 {
        let len = random.next() % 12;
        let mut argv = vec!["curl"];
        for _ in 0..len {
            argv.push(args[(random.next() % args.len() as u64) as usize]);
        }
        if let Ok(cmd) = curl::parse_args(&argv) {
            assert!(!cmd.method().is_empty());
            assert!(cmd.url().starts_with("http"));
        }
    }
}
