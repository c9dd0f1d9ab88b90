//! YAML throughput and memory: parse OpenAPI documents written in YAML and print medians in
//! MB/s (10^6 bytes per second), plus the peak heap a parse uses against the text's size.
//!
//! ```sh
//! cargo bench --bench yaml                 # every file
//! cargo bench --bench yaml -- pinterest 2  # files whose name contains "pinterest", 2 s a measure
//! ```
//!
//! Files: `pinterest-v5`, `spotify-web-api.fixed` and `figma-rest-api` from
//! `../shared/data/openapi/` (published in YAML), and a large document made here at run time
//! (never committed): the Kubernetes, Box and Discord OpenAPI JSON documents of the same
//! folder under one mapping, written as block-style YAML by the small emitter below (about
//! 8 MB). Parse MB/s = input bytes / parse time (dropping the value is not timed), the
//! convention of `../shared/peers` (which compares with yaml-rust2 and serde_yaml in one
//! process). Peak memory is the most heap held at once during one parse, less what was held
//! before it, as a multiple of the text's size.

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use httptool::json::{self, Json};
use httptool::yaml;

/// Counts live heap bytes and their high-water mark, so the bench can report the peak
/// memory of a parse. Benchmark code only (the library itself forbids `unsafe`): a global
/// allocator cannot be written without it. Counting is switched on only around the memory
/// measurement.
struct CountingAllocator;

static COUNTING: AtomicBool = AtomicBool::new(false);
static LIVE_BYTES: AtomicUsize = AtomicUsize::new(0);
static PEAK_BYTES: AtomicUsize = AtomicUsize::new(0);

fn count_alloc(size: usize) {
    if COUNTING.load(Ordering::Relaxed) {
        let live = LIVE_BYTES.fetch_add(size, Ordering::Relaxed) + size;
        PEAK_BYTES.fetch_max(live, Ordering::Relaxed);
    }
}

fn count_dealloc(size: usize) {
    if COUNTING.load(Ordering::Relaxed) {
        LIVE_BYTES.fetch_sub(size, Ordering::Relaxed);
    }
}

// SAFETY: every method forwards to the system allocator unchanged and only updates counters.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            count_alloc(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(layout);
        if !p.is_null() {
            count_alloc(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        count_dealloc(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if !p.is_null() {
            count_dealloc(layout.size());
            count_alloc(new_size);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

const YAML_FILES: &[&str] = &[
    "pinterest-v5.openapi.yaml",
    "spotify-web-api.fixed.openapi.yaml",
    "figma-rest-api.openapi.yaml",
];

const JSON_FILES: &[&str] = &[
    "kubernetes-v1.36.swagger.json",
    "box-platform.openapi.json",
    "discord-api.openapi.json",
];

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let filter = args.first().cloned().unwrap_or_default();
    let seconds: f64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(2.0);
    let budget = Duration::from_secs_f64(seconds);
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/openapi");
    println!("# {seconds} s a measure");
    for name in YAML_FILES.iter().filter(|n| n.contains(filter.as_str())) {
        match std::fs::read_to_string(dir.join(name)) {
            Ok(text) => bench_file(name, &text, None, budget),
            Err(e) => println!("# skipped {name}: {e}"),
        }
    }
    let large = "openapi-large.yaml (made from JSON)";
    if filter.is_empty() || large.contains(filter.as_str()) {
        let mut combined = json::Map::new();
        for name in JSON_FILES {
            match std::fs::read_to_string(dir.join(name)).map(|t| json::parse(&t)) {
                Ok(Ok(value)) => {
                    combined.insert(*name, value);
                }
                other => println!("# skipped {name}: {:?}", other.err()),
            }
        }
        let value = Json::Object(combined);
        let text = to_yaml(&value);
        bench_file(large, &text, Some(&value), budget);
    }
}

fn bench_file(name: &str, text: &str, expected: Option<&Json>, budget: Duration) {
    let value = match yaml::parse(text) {
        Ok(value) => value,
        Err(e) => {
            println!("# skipped {name}: {e}");
            return;
        }
    };
    if let Some(expected) = expected {
        assert!(
            &value == expected,
            "{name}: the YAML reads back as its JSON"
        );
    }
    let mbps = median_mbps(text.len(), budget, || yaml::parse(text));
    println!(
        "{name:<36} parse  {mbps:>8.1} MB/s ({:.2} MB)",
        text.len() as f64 / 1e6
    );
    let peak = peak_heap(|| yaml::parse(text));
    println!(
        "{name:<36} memory {peak} peak heap bytes for {} bytes of text ({:.2}x)",
        text.len(),
        peak as f64 / text.len() as f64
    );
}

fn median_mbps<T>(bytes: usize, budget: Duration, mut run: impl FnMut() -> T) -> f64 {
    drop(run()); // warm up
    let mut rates = Vec::new();
    let start = Instant::now();
    while start.elapsed() < budget || rates.len() < 5 {
        let t = Instant::now();
        let result = run();
        let secs = t.elapsed().as_secs_f64();
        drop(result);
        rates.push(bytes as f64 / secs / 1e6);
    }
    rates.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    rates[rates.len() / 2]
}

/// The most heap held at once while `make` runs and its result lives, above what was held
/// before.
fn peak_heap<T>(make: impl FnOnce() -> T) -> usize {
    LIVE_BYTES.store(0, Ordering::SeqCst);
    PEAK_BYTES.store(0, Ordering::SeqCst);
    COUNTING.store(true, Ordering::SeqCst);
    let value = make();
    let peak = PEAK_BYTES.load(Ordering::SeqCst);
    COUNTING.store(false, Ordering::SeqCst);
    drop(value);
    peak
}

/// Writes `value` as block-style YAML: mappings and sequences one entry a line, strings
/// plain where the core schema reads them back as the same string, literal blocks for
/// multi-line text, double quotes (JSON's escapes are YAML's) otherwise. Recursive: the
/// documents it writes nest a few dozen levels at most.
fn to_yaml(value: &Json) -> String {
    let mut out = String::new();
    write_node(&mut out, value, 0, false);
    out
}

fn is_nested(value: &Json) -> bool {
    match value {
        Json::Object(m) => !m.is_empty(),
        Json::Array(a) => !a.is_empty(),
        _ => false,
    }
}

/// Writes `value` at `indent`; `inline` when the cursor is already after `- ` on the line.
fn write_node(out: &mut String, value: &Json, indent: usize, inline: bool) {
    let pad = " ".repeat(indent);
    match value {
        Json::Object(map) if !map.is_empty() => {
            for (i, (k, v)) in map.iter().enumerate() {
                if !(inline && i == 0) {
                    out.push_str(&pad);
                }
                out.push_str(&plain_or_quoted(k));
                out.push(':');
                write_child(out, v, indent, false);
            }
        }
        Json::Array(items) if !items.is_empty() => {
            for (i, v) in items.iter().enumerate() {
                if !(inline && i == 0) {
                    out.push_str(&pad);
                }
                out.push('-');
                write_child(out, v, indent, true);
            }
        }
        other => {
            out.push_str(&scalar(other, indent));
            out.push('\n');
        }
    }
}

fn write_child(out: &mut String, value: &Json, indent: usize, in_sequence: bool) {
    if !is_nested(value) {
        out.push(' ');
        out.push_str(&scalar(value, indent + 2));
        out.push('\n');
    } else if in_sequence {
        out.push(' ');
        write_node(out, value, indent + 2, true);
    } else {
        out.push('\n');
        // Sequences in mappings sit at the key's indentation, as PyYAML writes them.
        let child = if value.is_array() { indent } else { indent + 2 };
        write_node(out, value, child, false);
    }
}

fn scalar(value: &Json, indent: usize) -> String {
    match value {
        Json::String(s) => {
            if s.contains('\n')
                && !s.ends_with("\n\n")
                && !s.starts_with([' ', '\n'])
                && !s.contains(['\r', '\t'])
                && s.lines()
                    .all(|l| !l.ends_with(' ') && !l.chars().any(char::is_control))
            {
                let pad = " ".repeat(indent);
                let mut block = String::from(if s.ends_with('\n') { "|" } else { "|-" });
                for line in s.lines() {
                    block.push('\n');
                    if !line.is_empty() {
                        block.push_str(&pad);
                        block.push_str(line);
                    }
                }
                block
            } else {
                plain_or_quoted(s)
            }
        }
        Json::Array(_) => "[]".into(),
        Json::Object(_) => "{}".into(),
        other => other.to_string(),
    }
}

/// A string as a plain scalar when that reads back as the same string, else double-quoted.
fn plain_or_quoted(s: &str) -> String {
    let safe = !s.is_empty()
        && !s.starts_with(|c: char| "-?:,[]{}#&*!|>'\"%@` ".contains(c))
        && !s.ends_with(' ')
        && !s.contains(": ")
        && !s.contains(" #")
        && !s.ends_with(':')
        && !s.chars().any(|c| c.is_control())
        && yaml::parse(s).ok().as_ref().and_then(Json::as_str) == Some(s);
    if safe {
        s.to_owned()
    } else {
        Json::String(s.to_owned()).to_string()
    }
}
