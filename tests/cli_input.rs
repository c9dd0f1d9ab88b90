//! How the binary reads its inputs: the size cap, a byte order mark,
//! and plugin files in YAML.

use crate::support::cli::{httptool, status, stderr, stdout, TempDir};
use crate::support::weather;

/// The weather plugin the tests read, as JSON and as YAML.
fn plugin_json() -> String {
    weather::plugin("https://api.example.com")
}

fn plugin_yaml() -> String {
    weather::plugin_yaml("https://api.example.com")
}

#[test]
fn defect_7_a_plugin_file_over_the_cap_is_refused_with_the_cap_and_the_option() {
    let dir = TempDir::new("input-cap");
    let path = dir.file("plugin.json", &plugin_json());
    let size = plugin_json().len().to_string();
    let under = (plugin_json().len() - 1).to_string();
    // Exactly at the cap: read.
    let out = httptool(&["tools", &path, "--max-input-bytes", &size], None, &[]);
    assert_eq!(status(&out), 0, "{}", stderr(&out));
    // One byte over: refused, naming the cap and the option that raises it.
    let out = httptool(&["tools", &path, "--max-input-bytes", &under], None, &[]);
    assert_eq!(status(&out), 1);
    assert_eq!(
        stderr(&out),
        format!(
            "httptool: {path} is larger than the input limit of {under} bytes; raise it with --max-input-bytes N\n"
        )
    );
    let out = httptool(
        &[
            "call",
            &path,
            "getWeather",
            "--max-input-bytes=10",
            "--dry-run",
        ],
        None,
        &[],
    );
    assert!(
        stderr(&out).contains("larger than the input limit of 10 bytes"),
        "{}",
        stderr(&out)
    );
    let out = httptool(
        &["export", "curl", &path, "--max-input-bytes", "10"],
        None,
        &[],
    );
    assert!(
        stderr(&out).contains("larger than the input limit of 10 bytes"),
        "{}",
        stderr(&out)
    );
    let out = httptool(&["tools", &path, "--max-input-bytes", "0"], None, &[]);
    assert_eq!(status(&out), 2);
}

#[test]
fn defect_7_an_endless_file_stops_at_the_default_cap() {
    // Before the fix this grew to 5 GB in 6 s; now it reads 64 MiB and one byte, and stops.
    let out = httptool(&["call", "/dev/zero", "e", "{}"], None, &[]);
    assert_eq!(status(&out), 1);
    assert_eq!(
        stderr(&out),
        "httptool: /dev/zero is larger than the input limit of 67108864 bytes; raise it with --max-input-bytes N\n"
    );
}

#[test]
fn defect_7_standard_input_is_capped_too() {
    let dir = TempDir::new("input-stdin-cap");
    let path = dir.file("plugin.json", &plugin_json());
    let arguments = format!("{{\"city\": \"{}\"}}", "x".repeat(100));
    let out = httptool(
        &[
            "call",
            &path,
            "getWeather",
            "-",
            "--dry-run",
            "--max-input-bytes",
            "50",
        ],
        Some(&arguments),
        &[],
    );
    assert_eq!(status(&out), 1);
    assert_eq!(
        stderr(&out),
        "httptool: standard input is larger than the input limit of 50 bytes; raise it with --max-input-bytes N\n"
    );
    let out = httptool(
        &["import", "curl", "--max-input-bytes", "5"],
        Some("curl https://example.com"),
        &[],
    );
    assert!(
        stderr(&out).contains("standard input is larger than the input limit of 5 bytes"),
        "{}",
        stderr(&out)
    );
    // Under the cap, the same call goes through.
    let out = httptool(
        &["call", &path, "getWeather", "-", "--dry-run"],
        Some(&arguments),
        &[],
    );
    assert_eq!(status(&out), 0, "{}", stderr(&out));
}

#[test]
fn yaml_plugin_files_give_the_same_tools_calls_and_exports() {
    let dir = TempDir::new("input-yaml");
    let json_path = dir.file("plugin.json", &plugin_json());
    let yaml_path = dir.file("plugin.yaml", &plugin_yaml());
    // No extension: sniffed, since the text does not start with '{'.
    let sniffed = dir.file("plugin", &plugin_yaml());
    let from_json = httptool(&["tools", &json_path], None, &[]);
    assert_eq!(status(&from_json), 0, "{}", stderr(&from_json));
    for path in [&yaml_path, &sniffed] {
        let out = httptool(&["tools", path], None, &[]);
        assert_eq!(status(&out), 0, "{}", stderr(&out));
        assert_eq!(stdout(&out), stdout(&from_json));
        let call = httptool(
            &[
                "call",
                path,
                "getWeather",
                r#"{"city":"Paris"}"#,
                "--dry-run",
            ],
            None,
            &[],
        );
        assert_eq!(status(&call), 0, "{}", stderr(&call));
        assert!(
            stdout(&call).starts_with("GET /v1/weather?q=Paris&days=1 HTTP/1.1\r\n"),
            "{}",
            stdout(&call)
        );
        let export = httptool(&["export", "curl", path], None, &[]);
        assert_eq!(status(&export), 0, "{}", stderr(&export));
        assert!(
            stdout(&export).contains("https://api.example.com/v1/weather"),
            "{}",
            stdout(&export)
        );
    }
}

#[test]
fn a_yaml_error_names_the_file_and_the_position() {
    let dir = TempDir::new("input-yaml-error");
    let path = dir.file("bad.yml", "name: weather\n\tbase_url: x\n");
    let out = httptool(&["tools", &path], None, &[]);
    assert_eq!(status(&out), 1);
    assert_eq!(
        stderr(&out),
        format!("httptool: {path}: tab used for indentation at 2:1\n")
    );
}

#[test]
fn a_byte_order_mark_is_accepted_and_other_encodings_are_named() {
    let dir = TempDir::new("input-bom");
    let bom = dir.file("bom.json", &format!("\u{FEFF}{}", plugin_json()));
    let out = httptool(&["tools", &bom], None, &[]);
    assert_eq!(status(&out), 0, "{}", stderr(&out));
    let latin1 = dir.file("latin1.json", "");
    std::fs::write(&latin1, b"{\"name\": \"caf\xE9\"}").expect("write");
    let out = httptool(&["tools", &latin1], None, &[]);
    assert_eq!(status(&out), 1);
    assert_eq!(
        stderr(&out),
        format!("httptool: {latin1} is not UTF-8 (invalid byte at offset 13)\n")
    );
}
