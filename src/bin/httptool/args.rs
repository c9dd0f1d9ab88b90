//! A small reader of command-line words: flags, options with values, and positionals.
//!
//! Options may come anywhere before `--`, as `--name value` or `--name=value`; after `--`
//! every word is positional. Whatever is left that looks like an option once a command has
//! taken its own is an error, so a mistyped option never turns into a positional argument.

use httptool::tool;

use crate::error::CliError;

/// The process's arguments after the program name, as UTF-8.
pub fn from_env() -> Result<Vec<String>, CliError> {
    std::env::args_os()
        .skip(1)
        .enumerate()
        .map(|(index, word)| {
            word.into_string()
                .map_err(|_| CliError::Usage(format!("argument {} is not valid UTF-8", index + 1)))
        })
        .collect()
}

/// The words of one command, taken option by option.
pub struct Args {
    /// Words before `--`: options and positionals.
    words: Vec<String>,
    /// Words after `--`: positionals only.
    rest: Vec<String>,
    /// The command these words belong to, for the hint of an unknown option.
    command: String,
    /// Every option the command asked for, to suggest the closest to an unknown one.
    known: Vec<String>,
}

impl Args {
    pub fn new(mut words: Vec<String>) -> Args {
        let rest = match words.iter().position(|w| w == "--") {
            Some(at) => {
                let rest = words.split_off(at + 1);
                words.pop();
                rest
            }
            None => Vec::new(),
        };
        Args {
            words,
            rest,
            command: String::new(),
            known: Vec::new(),
        }
    }

    /// These words, as the words of `command` (named in the hint of an unknown option).
    pub fn named(mut self, command: &str) -> Args {
        self.command = command.to_string();
        self
    }

    /// Whether the first word that is not an option is `openapi` (`import openapi ...`).
    pub fn peek_openapi(&self) -> bool {
        self.words
            .iter()
            .find(|w| !w.starts_with('-'))
            .map(String::as_str)
            == Some("openapi")
    }

    /// Whether the first positional is `format` (`import postman ...`).
    pub fn peek_format(&self, format: &str) -> bool {
        self.words
            .iter()
            .find(|w| !w.starts_with('-'))
            .map(String::as_str)
            == Some(format)
    }

    /// These words without the first positional (the format word of `import`).
    pub fn skip_first(mut self) -> Args {
        if let Some(i) = self.words.iter().position(|w| !w.starts_with('-')) {
            self.words.remove(i);
        }
        self
    }

    /// Whether `-h` or `--help` was given.
    pub fn help(&mut self) -> bool {
        let short = self.flag("-h");
        self.flag("--help") || short
    }

    /// Takes every occurrence of a flag such as `--dry-run`; true if there was one.
    pub fn flag(&mut self, name: &str) -> bool {
        self.known.push(name.to_string());
        let before = self.words.len();
        self.words.retain(|w| w != name);
        self.words.len() != before
    }

    /// Takes every occurrence of `--name VALUE` or `--name=VALUE`, in order.
    pub fn values(&mut self, name: &str) -> Result<Vec<String>, CliError> {
        self.known.push(name.to_string());
        let prefix = format!("{}=", name);
        let mut values = Vec::new();
        let mut i = 0;
        while i < self.words.len() {
            if self.words[i] == name {
                if i + 1 >= self.words.len() {
                    return Err(CliError::Usage(format!("{} needs a value", name)));
                }
                values.push(self.words.remove(i + 1));
                self.words.remove(i);
            } else if let Some(value) = self.words[i].strip_prefix(&prefix) {
                values.push(value.to_string());
                self.words.remove(i);
            } else {
                i += 1;
            }
        }
        Ok(values)
    }

    /// Takes a flag that may be followed by one of `words` (`--catalog` or
    /// `--catalog auto`), or `--name=WORD` with any word: `None` when absent, `Some(None)`
    /// for the bare flag. The last one wins.
    pub fn flag_or_value(
        &mut self,
        name: &str,
        words: &[&str],
    ) -> Result<Option<Option<String>>, CliError> {
        let prefix = format!("{}=", name);
        let mut found = None;
        let mut i = 0;
        while i < self.words.len() {
            if self.words[i] == name {
                self.words.remove(i);
                let next = self.words.get(i).filter(|w| words.contains(&w.as_str()));
                found = Some(next.cloned());
                if found.as_ref().map_or(false, Option::is_some) {
                    self.words.remove(i);
                }
            } else if let Some(value) = self.words[i].strip_prefix(&prefix) {
                found = Some(Some(value.to_string()));
                self.words.remove(i);
            } else {
                i += 1;
            }
        }
        Ok(found)
    }

    /// Takes `--name VALUE`; the last one wins when it is given twice.
    pub fn value(&mut self, name: &str) -> Result<Option<String>, CliError> {
        Ok(self.values(name)?.pop())
    }

    /// The positional words, once every option the command knows has been taken.
    ///
    /// # Errors
    ///
    /// A word left that starts with `-` (other than `-` alone, which names standard input)
    /// is an unknown option.
    pub fn positionals(self) -> Result<Vec<String>, CliError> {
        if let Some(unknown) = self
            .words
            .iter()
            .find(|w| w.starts_with('-') && w.as_str() != "-")
        {
            return Err(CliError::Usage(unknown_option(
                unknown,
                &self.known,
                &self.command,
            )));
        }
        let mut words = self.words;
        words.extend(self.rest);
        Ok(words)
    }
}

/// The message for an option no command took: the closest known one (by edit distance,
/// [`tool::closest`]) and where the command's options are listed.
fn unknown_option(unknown: &str, known: &[String], command: &str) -> String {
    let name = unknown.split('=').next().unwrap_or(unknown);
    let mut message = format!("unknown option '{}'", unknown);
    if let Some(close) = tool::closest(name, known.iter().map(String::as_str)) {
        message.push_str(&format!("; did you mean '{}'?", close));
    }
    if command.is_empty() {
        message.push_str(" (put `--` before a positional argument that starts with '-')");
    } else {
        message.push_str(&format!(
            " (run `httptool {} --help` for its options)",
            command
        ));
    }
    message
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(words: &[&str]) -> Args {
        Args::new(words.iter().map(|w| w.to_string()).collect())
    }

    #[test]
    fn options_anywhere_before_the_double_dash() {
        let mut a = args(&[
            "x.json",
            "--format",
            "gemini",
            "--dry-run",
            "--",
            "--not-an-option",
        ]);
        assert!(a.flag("--dry-run"));
        assert_eq!(a.value("--format").unwrap().as_deref(), Some("gemini"));
        assert_eq!(a.positionals().unwrap(), ["x.json", "--not-an-option"]);
    }

    #[test]
    fn equals_form_and_repeated_values() {
        let mut a = args(&["--context=a=1", "--context", "b=2"]);
        assert_eq!(a.values("--context").unwrap(), ["a=1", "b=2"]);
        assert!(a.positionals().unwrap().is_empty());
    }

    #[test]
    fn a_missing_value_is_a_usage_error() {
        let mut a = args(&["--format"]);
        assert_eq!(
            a.value("--format").unwrap_err().to_string(),
            "--format needs a value"
        );
    }

    #[test]
    fn a_leftover_option_is_unknown() {
        let mut a = args(&["x", "--dryrun"]).named("call");
        assert!(!a.flag("--dry-run"));
        assert_eq!(
            a.positionals().unwrap_err().to_string(),
            "unknown option '--dryrun'; did you mean '--dry-run'? (run `httptool call --help` for its options)"
        );
    }

    #[test]
    fn a_lone_dash_is_positional() {
        assert_eq!(args(&["-"]).positionals().unwrap(), ["-"]);
    }

    #[test]
    fn closest_option_and_where_to_look() {
        let known = ["--dry-run".to_string(), "--context".to_string()];
        assert_eq!(
            unknown_option("--contxt=a=1", &known, "call"),
            "unknown option '--contxt=a=1'; did you mean '--context'? (run `httptool call --help` for its options)"
        );
        assert_eq!(
            unknown_option("--zzz", &known, "call"),
            "unknown option '--zzz' (run `httptool call --help` for its options)"
        );
    }
}
