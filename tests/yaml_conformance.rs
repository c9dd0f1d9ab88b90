//! The official YAML test suite (`../shared/conformance/yaml-test-suite/`, data release
//! 2022-01-17): every case that must load gives its `in.json`, every case marked `error` is
//! refused, nothing panics, and the cases outside what `httptool::yaml` reads are exactly the
//! ones listed in `SKIPPED`, each with its reason.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use httptool::json::{self, Json};
use httptool::yaml::ParseOptions;

/// Cases the reader does not turn into the suite's JSON, with the reason. The test fails if
/// one of these passes (so the list cannot hide a fix) or if a case not listed fails.
const SKIPPED: &[(&str, &str)] = &[
    (
        "2JQS",
        "two empty keys: both are the key \"null\", a duplicate",
    ),
    (
        "X38W",
        "the key [a, b] and an alias of it (*a) are the same key, a duplicate",
    ),
];

fn suite_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance/yaml-test-suite")
}

/// Every folder holding an `in.yaml`, by its id (`229Q`, `2G84/01`).
fn cases() -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    let mut dirs = vec![(String::new(), suite_dir())];
    while let Some((id, dir)) = dirs.pop() {
        if dir.join("in.yaml").is_file() {
            out.push((id.clone(), dir.clone()));
        }
        if let Ok(entries) = fs::read_dir(&dir) {
            for entry in entries.flatten() {
                let path = entry.path();
                if path.is_dir() {
                    let name = entry.file_name().to_string_lossy().into_owned();
                    let child = if id.is_empty() {
                        name
                    } else {
                        format!("{id}/{name}")
                    };
                    dirs.push((child, path));
                }
            }
        }
    }
    out.sort();
    out
}

/// The JSON values of an `in.json`, which holds one value per document, one after another.
fn json_stream(text: &str) -> Vec<Json> {
    let mut values = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if i >= bytes.len() {
            break;
        }
        // Find the end of this value: brackets balance outside strings, or a scalar ends at
        // whitespace.
        let start = i;
        let mut depth = 0usize;
        let mut in_string = false;
        while i < bytes.len() {
            let b = bytes[i];
            if in_string {
                if b == b'\\' {
                    i += 1;
                } else if b == b'"' {
                    in_string = false;
                    if depth == 0 {
                        i += 1;
                        break;
                    }
                }
            } else if b == b'"' {
                in_string = true;
            } else if b == b'[' || b == b'{' {
                depth += 1;
            } else if b == b']' || b == b'}' {
                depth -= 1;
                if depth == 0 {
                    i += 1;
                    break;
                }
            } else if depth == 0 && b.is_ascii_whitespace() {
                break;
            }
            i += 1;
        }
        values.push(json::parse(&text[start..i]).expect("in.json holds JSON values"));
    }
    values
}

#[derive(Debug, PartialEq)]
enum Outcome {
    Pass,
    Fail(String),
}

fn run_case(dir: &Path) -> Outcome {
    let input = fs::read(dir.join("in.yaml")).expect("in.yaml");
    let text = match std::str::from_utf8(&input) {
        Ok(t) => t,
        Err(_) => return Outcome::Fail("in.yaml is not UTF-8".into()),
    };
    let result = ParseOptions::new().parse_all(text);
    if dir.join("error").exists() {
        return match result {
            Err(_) => Outcome::Pass,
            Ok(docs) => Outcome::Fail(format!("accepted an error case: {docs:?}")),
        };
    }
    let docs = match result {
        Ok(docs) => docs,
        Err(e) => return Outcome::Fail(format!("refused: {e}")),
    };
    // The suite's canonical re-serialisation reads back to the same value.
    if let Ok(out) = fs::read_to_string(dir.join("out.yaml")) {
        match ParseOptions::new().parse_all(&out) {
            Ok(again) if again == docs => {}
            Ok(again) => {
                return Outcome::Fail(format!("out.yaml gave {again:?}, in.yaml {docs:?}"))
            }
            Err(e) => return Outcome::Fail(format!("out.yaml refused: {e}")),
        }
    }
    match fs::read_to_string(dir.join("in.json")) {
        Ok(expected) => {
            let expected = json_stream(&expected);
            if docs == expected {
                Outcome::Pass
            } else {
                Outcome::Fail(format!("got {docs:?}, expected {expected:?}"))
            }
        }
        // No JSON to compare with: loading is all that is asked.
        Err(_) => Outcome::Pass,
    }
}

#[test]
#[ignore = "needs ../shared/conformance/yaml-test-suite: see tests/README.md"]
fn yaml_test_suite() {
    // A small stack: no case may need deep recursion.
    let handle = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(|| {
            let mut failures = BTreeMap::new();
            let all = cases();
            for (id, dir) in &all {
                let outcome = std::panic::catch_unwind(|| run_case(dir))
                    .unwrap_or_else(|_| Outcome::Fail("panicked".into()));
                if let Outcome::Fail(why) = outcome {
                    failures.insert(id.clone(), why);
                }
            }
            (all.len(), failures)
        })
        .expect("spawn");
    let (count, failures) = handle.join().expect("the suite thread finished");
    assert_eq!(count, 402, "the suite has 402 cases");
    let skipped: BTreeMap<&str, &str> = SKIPPED.iter().copied().collect();
    let mut unexpected = Vec::new();
    for (id, why) in &failures {
        if !skipped.contains_key(id.as_str()) {
            unexpected.push(format!("{id}: {why}"));
        }
    }
    let fixed: Vec<&&str> = skipped
        .keys()
        .filter(|id| !failures.contains_key(**id))
        .collect();
    assert!(
        unexpected.is_empty() && fixed.is_empty(),
        "{} unexpected failures:\n{}\nlisted as skipped but passing: {:?}",
        unexpected.len(),
        unexpected.join("\n"),
        fixed
    );
}
