//! Every message `httptool::curl::Error` can show, asserted exactly once, with its kind and
//! position.

use httptool::curl::{self, ErrorKind};

/// One named test per row: the command, the kind, the argument index, the byte offset and
/// the exact message.
macro_rules! messages {
    ($($name:ident: $command:expr => ($kind:ident, $arg:expr, $offset:expr, $message:expr);)*) => {
        $(
            #[test]
            fn $name() {
                let err = match curl::parse($command) {
                    Ok(cmd) => panic!("{:?} parsed: {:?}", $command, cmd),
                    Err(err) => err,
                };
                assert_eq!(err.to_string(), $message);
                assert_eq!(err.kind(), ErrorKind::$kind);
                assert_eq!(err.arg_index(), $arg);
                assert_eq!(err.offset(), $offset);
            }
        )*
    };
}

messages! {
    empty: "  # nothing here\n" => (Empty, None, None,
        "the command is empty; give a curl command such as `curl https://example.com`");
    unterminated_single: "curl 'abc" => (UnterminatedQuote, Some(1), Some(5),
        "unterminated single quote opened at byte 5 (argument 1); close it");
    unterminated_double: "curl x -d \"abc" => (UnterminatedQuote, Some(3), Some(10),
        "unterminated double quote opened at byte 10 (argument 3); close it");
    unterminated_ansi_c: "curl $'abc" => (UnterminatedQuote, Some(1), Some(5),
        "unterminated $'...' string opened at byte 5 (argument 1); close it");
    nul_byte: "curl a\0" => (NulByte, Some(1), Some(6),
        "a NUL byte at byte 6 (argument 1): a command-line argument cannot hold one");
    invalid_escape: "curl $'\\ud800'" => (InvalidEscape, Some(1), Some(7),
        "invalid escape at byte 7 (argument 1): \\u and \\U must name a unicode scalar value");
    variable: "curl -H \"A: $1\" x" => (Variable, Some(2), Some(12),
        "shell expansion $1 at byte 12 (argument 2) is not read: only plain $NAME and \
         ${NAME} variables are; write its value instead, or single-quote it to send it as \
         written");
    variable_literal_twin: "curl -H \"A: $T\" -H 'B: ${T}' x" => (VariablePlace, Some(4), None,
        "shell variable $T (argument 4) cannot be carried over: the command also holds the \
         text `${NAME}` for it literally, which a plugin file could not tell from the \
         variable; write one of them otherwise");
    ambiguous_option: "curl x --ver" => (AmbiguousOption, Some(2), None,
        "ambiguous option --ver (argument 2): it may be --verbose, --version; write more of \
         its name");
    second_command: "curl x\n-s y" => (SecondCommand, None, Some(7),
        "a second command starts on line 2 (byte 7); httptool reads one curl command: end \
         each continued line with a backslash");
    not_curl: "wget x" => (NotCurl, None, None,
        "the command does not start with `curl` (or a path to curl or curl.exe)");
    invalid_utf8: "curl $'x\\xff'" => (InvalidUtf8, Some(1), None,
        "argument 1 is not valid UTF-8; only data and form values may hold other bytes");
    unknown_option: "curl --frob x" => (UnknownOption, Some(1), None,
        "unknown curl option --frob at argument 1");
    // Regression: the option was shown as written, so an escape character in it reached
    // the message (and a terminal); it is escaped by the crate's one quoting rule now.
    unknown_option_with_a_control_character: "curl $'--a\\x1bb' x" => (UnknownOption, Some(1), None,
        "unknown curl option --a\\u{1b}b at argument 1");
    unknown_option_with_suggestion: "curl x --insecrue" => (UnknownOption, Some(2), None,
        "unknown curl option --insecrue at argument 2; did you mean --insecure?");
    unknown_short_option: "curl -sW x" => (UnknownOption, Some(1), None,
        "unknown curl option -W at argument 1");
    missing_value: "curl x -H" => (MissingValue, Some(2), None,
        "-H/--header at argument 2 needs a value");
    unexpected_value: "curl --silent=1 x" => (UnexpectedValue, Some(1), None,
        "-s/--silent at argument 1 takes no value; remove the `=...`");
    not_boolean: "curl --no-request x" => (NotBoolean, Some(1), None,
        "-X/--request at argument 1 is not a switch and cannot be turned off with --no-");
    conflict: "curl -d a -F b=1 x" => (Conflict, Some(3), None,
        "-F/--form at argument 3 cannot be combined with -d/--data at argument 1: curl sends \
         one kind of request body or method per command");
    no_url: "curl -s" => (NoUrl, None, None, "the command has no URL; add the URL to request");
    unsupported_scheme: "curl ftp://x" => (UnsupportedScheme, Some(1), None,
        "unsupported URL scheme `ftp` at argument 1: httptool sends http and https only");
}

// The shell syntax that is refused, each with what was found and what to do.
messages! {
    pipe: "curl x | jq" => (UnsupportedShell, Some(2), Some(7),
        "unsupported shell syntax at byte 7 (argument 2): a pipe `|`; httptool reads one curl \
         command with literal arguments; quote it or remove it");
    or_list: "curl x || y" => (UnsupportedShell, Some(2), Some(7),
        "unsupported shell syntax at byte 7 (argument 2): an or-list `||`; httptool reads one \
         curl command with literal arguments; quote it or remove it");
    and_list: "curl x && y" => (UnsupportedShell, Some(2), Some(7),
        "unsupported shell syntax at byte 7 (argument 2): an and-list `&&`; httptool reads one \
         curl command with literal arguments; quote it or remove it");
    background: "curl x?a=1&b=2" => (UnsupportedShell, Some(1), Some(10),
        "unsupported shell syntax at byte 10 (argument 1): a background `&`; an unquoted `&` \
         ends the command; quote URLs that hold `&`");
    separator: "curl x; y" => (UnsupportedShell, Some(1), Some(6),
        "unsupported shell syntax at byte 6 (argument 1): a command separator `;`; httptool \
         reads one curl command with literal arguments; quote it or remove it");
    process_substitution: "curl x <(y)" => (UnsupportedShell, Some(2), Some(7),
        "unsupported shell syntax at byte 7 (argument 2): a process substitution; httptool \
         reads one curl command with literal arguments; quote it or remove it");
    input_redirection: "curl x < f" => (UnsupportedShell, Some(2), Some(7),
        "unsupported shell syntax at byte 7 (argument 2): an input redirection `<`; httptool \
         reads one curl command with literal arguments; quote it or remove it");
    output_redirection: "curl x > f" => (UnsupportedShell, Some(2), Some(7),
        "unsupported shell syntax at byte 7 (argument 2): an output redirection `>`; httptool \
         reads one curl command with literal arguments; quote it or remove it");
    subshell: "curl (x)" => (UnsupportedShell, Some(1), Some(5),
        "unsupported shell syntax at byte 5 (argument 1): a subshell parenthesis; httptool \
         reads one curl command with literal arguments; quote it or remove it");
    command_substitution: "curl $(x)" => (UnsupportedShell, Some(1), Some(5),
        "unsupported shell syntax at byte 5 (argument 1): a command substitution `$(`; \
         httptool does not run commands; write the output instead");
    arithmetic: "curl $((1))" => (UnsupportedShell, Some(1), Some(5),
        "unsupported shell syntax at byte 5 (argument 1): an arithmetic expansion `$((`; \
         httptool does not run commands; write the output instead");
    backticks: "curl x `date`" => (UnsupportedShell, Some(2), Some(7),
        "unsupported shell syntax at byte 7 (argument 2): a command substitution with \
         backticks; httptool does not run commands; write the output instead");
    glob: "curl x *" => (UnsupportedShell, Some(2), Some(7),
        "unsupported shell syntax at byte 7 (argument 2): a glob `*`; bash would replace it \
         with file names; quote the argument");
    brace_expansion: "curl x {a,b}" => (UnsupportedShell, Some(2), Some(7),
        "unsupported shell syntax at byte 7 (argument 2): a brace expansion `{a,b}`; quote the \
         argument so bash keeps it as one");
    tilde: "curl x ~/a" => (UnsupportedShell, Some(2), Some(7),
        "unsupported shell syntax at byte 7 (argument 2): a tilde expansion `~`; bash would \
         replace it with a home directory; write the path or quote it");
    cmd_continuation: "curl \"x\" ^\n -s" => (UnsupportedShell, Some(2), Some(9),
        "unsupported shell syntax at byte 9 (argument 2): a Windows cmd line continuation `^`; \
         cmd syntax is not supported; copy the command as bash (\"Copy as cURL (bash)\")");
    powershell_continuation: "curl x `\n -s" => (UnsupportedShell, Some(2), Some(7),
        "unsupported shell syntax at byte 7 (argument 2): a PowerShell line continuation \
         `` ` ``; PowerShell syntax is not supported; copy the command as bash");
}

// Values of the wrong form, each with what was expected.
messages! {
    invalid_method: "curl -X 'a b' x" => (InvalidValue, Some(1), None,
        "invalid value for -X/--request at argument 1: expected an HTTP method made of token \
         characters, such as POST");
    invalid_header_name: "curl -H ' a: b' x" => (InvalidValue, Some(1), None,
        "invalid value for -H/--header at argument 1: expected a header `Name: value` whose \
         name is a token (letters, digits and !#$%&'*+-.^_`|~)");
    invalid_header_value: "curl -H $'a: b\\nc' x" => (InvalidValue, Some(1), None,
        "invalid value for -H/--header at argument 1: expected a header value on one line (no \
         CR or LF)");
    invalid_one_line_value: "curl -A $'a\\r\\nb' x" => (InvalidValue, Some(1), None,
        "invalid value for -A/--user-agent at argument 1: expected a value on one line (no CR \
         or LF)");
    invalid_seconds: "curl -m soon x" => (InvalidValue, Some(1), None,
        "invalid value for -m/--max-time at argument 1: expected a number of seconds such as \
         10 or 2.5");
    invalid_redirect_count: "curl --max-redirs x y" => (InvalidValue, Some(1), None,
        "invalid value for --max-redirs at argument 1: expected a number of redirects: 0 or \
         more, or -1");
    invalid_form: "curl -F x y" => (InvalidValue, Some(1), None,
        "invalid value for -F/--form at argument 1: expected name=content, name=@file or \
         name=<file");
    invalid_form_line: "curl -F $'a=x;type=t\\nX: y' x" => (InvalidValue, Some(1), None,
        "invalid value for -F/--form at argument 1: expected names, types, file names and part \
         headers on one line (no CR or LF)");
    empty_url: "curl ''" => (InvalidValue, Some(1), None,
        "invalid value for URL at argument 1: expected a URL such as https://example.com/path");
}

// Options refused because leaving them out would change the request.
messages! {
    refused_auth_scheme: "curl --ntlm -u a:b x" => (Unsupported, Some(1), None,
        "--ntlm at argument 1 is not supported: httptool sends basic (-u), digest \
         (--digest -u) and bearer (--oauth2-bearer) credentials only");
    refused_signing: "curl --aws-sigv4 osc:osc x" => (Unsupported, Some(1), None,
        "--aws-sigv4 at argument 1 is not supported: httptool signs with AWS's own algorithm \
         only: write `aws:amz:REGION:SERVICE`");
    refused_config: "curl -K f x" => (Unsupported, Some(1), None,
        "-K/--config at argument 1 is not supported: it reads options from a file, which \
         httptool never does; put the options on the command line");
    refused_next: "curl x -: y" => (Unsupported, Some(2), None,
        "-:/--next at argument 2 is not supported: httptool reads one request per command; \
         split the command in two");
    refused_info: "curl -V" => (Unsupported, Some(1), None,
        "-V/--version at argument 1 is not supported: it prints information instead of \
         sending a request");
    invalid_range: "curl -r 0-9x x" => (InvalidValue, Some(1), None,
        "invalid value for -r/--range at argument 1: expected byte ranges such as 0-499, 500-, \
         -500 or 0-0,-1");
    refused_time_condition: "curl -z yesterday x" => (Unsupported, Some(1), None,
        "-z/--time-cond at argument 1 is not supported: write the header instead, such as -H \
         'If-Modified-Since: <date>'");
    refused_request_target: "curl --request-target '*' x" => (Unsupported, Some(1), None,
        "--request-target at argument 1 is not supported: httptool sends the URL's own path \
         and query");
    refused_url_query_file: "curl --url-query a@f.txt x" => (Unsupported, Some(1), None,
        "--url-query at argument 1 is not supported: curl would read the value from a \
         file; httptool reads no file, write `name=value` instead");
    refused_variable: "curl --variable a=b x" => (Unsupported, Some(1), None,
        "--variable at argument 1 is not supported: curl variables are not supported; write \
         the values out");
    refused_expansion: "curl --expand-url x" => (Unsupported, Some(1), None,
        "--expand-url at argument 1 is not supported: curl variables are not supported; write \
         the values out");
}

#[test]
fn conflict_reports_both_arguments() {
    match curl::parse("curl -I x -d a") {
        Err(err) => {
            assert_eq!(
                (err.kind(), err.arg_index()),
                (ErrorKind::Conflict, Some(3))
            );
            assert_eq!(
                err.to_string(),
                "-d/--data at argument 3 cannot be combined with -I/--head at argument 1: curl \
                 sends one kind of request body or method per command"
            );
        }
        Ok(cmd) => panic!("parsed as {}", cmd.url()),
    }
}

#[test]
fn errors_are_std_errors() {
    let err: Box<dyn std::error::Error + Send + Sync> = match curl::parse("curl") {
        Err(err) => Box::new(err),
        Ok(_) => panic!("parsed"),
    };
    assert!(err.source().is_none());
    let kind = err.downcast_ref::<curl::Error>().map(curl::Error::kind);
    assert_eq!(kind, Some(ErrorKind::NoUrl));
}
