//! OpenAPI import of a generated document shaped like a large public API: at least 1,200
//! operations and 13 MB, with shared components, nested `$ref`s, enums and long
//! descriptions. Prints the parse time, the import time (median of several runs, wall-clock
//! and CPU time: the machine may be shared), the same import without output schemas side by
//! side, half the document (linearity), the heap the import peaks at and keeps (counted by
//! a global allocator in this benchmark), and the time `httptool serve --openapi` takes to
//! answer `initialize` with the document (the target: under one second).
//!
//! `cargo bench --bench openapi` runs it; `-- --write PATH` also writes the document (for
//! `../shared/peers/openapi/run.sh`, which measures FastMCP on the same document). The
//! resident-size peak is read from Linux's `/proc/self/status` (`VmHWM`, reset through
//! `/proc/self/clear_refs`), so it is printed only there.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use httptool::json::ParseOptions;
use httptool::openapi::{self, ImportOptions};

#[path = "support/openapi_document.rs"]
mod openapi_document;

use openapi_document::{document, PATHS, TARGET_BYTES};

/// The least the full-size document may be (the issue asks for 13 MB).
const MIN_BYTES: usize = 13_000_000;

/// The system allocator, counting the bytes live and the most ever live: the heap the
/// import really holds, independent of what the allocator keeps from the kernel.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// The only unsafe code of the project, in this benchmark alone: a global allocator is an
// `unsafe impl` by definition. It forwards to `System` and counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        System.dealloc(p, layout);
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
    unsafe fn realloc(&self, p: *mut u8, layout: Layout, size: usize) -> *mut u8 {
        let q = System.realloc(p, layout, size);
        if !q.is_null() {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            grew(size);
        }
        q
    }
}

fn grew(size: usize) {
    let live = LIVE.fetch_add(size, Ordering::Relaxed) + size;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn live() -> usize {
    LIVE.load(Ordering::Relaxed)
}

/// Starts a new peak from what is live now.
fn reset_heap_peak() -> usize {
    let now = live();
    PEAK.store(now, Ordering::Relaxed);
    now
}

fn heap_peak() -> usize {
    PEAK.load(Ordering::Relaxed)
}

fn main() {
    let write = std::env::args().skip_while(|a| a != "--write").nth(1);
    let text = document(TARGET_BYTES);
    assert!(
        text.len() >= MIN_BYTES,
        "the generated document is {} bytes, under {}",
        text.len(),
        MIN_BYTES
    );
    if let Some(path) = write {
        std::fs::write(&path, &text).expect("the document is written");
        println!("wrote {} ({} bytes)", path, text.len());
    }
    let started = Instant::now();
    let doc = ParseOptions::new()
        .parse(&text)
        .expect("the generated document parses");
    let parse = started.elapsed();
    let options = ImportOptions::new().include_deprecated(true);
    reset_peak();
    let before = rss_kib();
    let heap_before = reset_heap_peak();
    let first = openapi::import_with(&doc, &options).expect("the generated document imports");
    let peak = peak_kib();
    let heap_peak = heap_peak() - heap_before;
    let heap_kept = live() - heap_before;
    // What a copy of the tool specs costs (their schemas are shared with the plugin's, so
    // this is the specs' own structs and top levels, not their schemas).
    let specs_before = live();
    let specs = first.plugin().specs();
    let specs_heap = live() - specs_before;
    drop(specs);
    let tools = first.tools().len();
    let schema_bytes: usize = first.tools().iter().map(|t| t.schema_bytes).sum();
    drop(first);
    let with = runs(5, || {
        drop(openapi::import_with(&doc, &options).expect("imports"))
    });
    let mb = text.len() as f64 / 1e6;
    println!(
        "openapi/import: {:.1} MB document, {} operations, {} tools, {:.1} MB of tool schemas",
        mb,
        PATHS * 5,
        tools,
        schema_bytes as f64 / 1e6
    );
    println!("openapi/parse: {:.1} ms", parse.as_secs_f64() * 1e3);
    println!(
        "openapi/import: median {} ({:.1} MB/s of CPU time)",
        with,
        mb / with.cpu
    );
    // Output schemas (the responses' schemas converted too) against none, in the same run.
    let without = ImportOptions::new()
        .include_deprecated(true)
        .output_schemas(false);
    let bare = runs(5, || {
        drop(openapi::import_with(&doc, &without).expect("imports"))
    });
    println!(
        "openapi/import: without output schemas: median {} (with them: {:.2}x the CPU time)",
        bare,
        with.cpu / bare.cpu
    );
    // Half the size: linear means half the time.
    let half_text = document(TARGET_BYTES / 2);
    let half = ParseOptions::new().parse(&half_text).expect("parses");
    let halved = runs(5, || {
        drop(openapi::import_with(&half, &options).expect("imports"))
    });
    println!(
        "openapi/import: half the document ({:.1} MB): median {} (CPU time ratio {:.2}, {:.2} is linear)",
        half_text.len() as f64 / 1e6,
        halved,
        with.cpu / halved.cpu,
        text.len() as f64 / half_text.len() as f64
    );
    println!(
        "openapi/import: heap: peak {:.1} MB ({:.2}x the document), kept by the import {:.1} MB ({:.2}x); a copy of the tool specs costs {:.1} MB",
        heap_peak as f64 / 1e6,
        heap_peak as f64 / text.len() as f64,
        heap_kept as f64 / 1e6,
        heap_kept as f64 / text.len() as f64,
        specs_heap as f64 / 1e6
    );
    serve_startup(&text);
    if let (Some(before), Some(peak)) = (before, peak) {
        let extra = peak.saturating_sub(before) as f64 * 1024.0;
        println!(
            "openapi/import: peak memory {:.1} MB above the parsed document ({:.2}x the document's {:.1} MB of text)",
            extra / 1e6,
            extra / text.len() as f64,
            mb
        );
    }
}

/// `httptool serve --openapi DOC` (the release binary, as a client starts it) until it has
/// answered `initialize`: reading, parsing and importing the document, then the handshake.
fn serve_startup(text: &str) {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    let path = std::env::temp_dir().join(format!("httptool-bench-{}.json", std::process::id()));
    std::fs::write(&path, text).expect("the document is written");
    let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}"#;
    let mut walls: Vec<f64> = (0..3)
        .map(|_| {
            let started = Instant::now();
            let mut child = Command::new(env!("CARGO_BIN_EXE_httptool"))
                .env("GENERATED_API_BEARER", "bench")
                .arg("serve")
                .arg("--openapi")
                .arg(&path)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .expect("httptool serve starts");
            let mut stdin = child.stdin.take().expect("stdin");
            writeln!(stdin, "{}", init).expect("initialize is written");
            let mut line = String::new();
            BufReader::new(child.stdout.take().expect("stdout"))
                .read_line(&mut line)
                .expect("an answer");
            let elapsed = started.elapsed().as_secs_f64();
            assert!(line.contains("protocolVersion"), "{}", line);
            drop(stdin);
            let _ = child.wait();
            elapsed
        })
        .collect();
    walls.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    println!(
        "mcp/serve_startup: `httptool serve --openapi` of the {:.1} MB document answers initialize after {:.1} ms (median of 3; min {:.1}, max {:.1}; wall time)",
        text.len() as f64 / 1e6,
        walls[1] * 1e3,
        walls[0] * 1e3,
        walls[2] * 1e3
    );
    let _ = std::fs::remove_file(&path);
}

/// Medians of wall-clock and CPU time (the machine may be shared: CPU time is the steadier).
struct Timing {
    wall: f64,
    cpu: f64,
    min_wall: f64,
    max_wall: f64,
}

impl std::fmt::Display for Timing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:.1} ms wall (min {:.1}, max {:.1}), {:.1} ms CPU",
            self.wall * 1e3,
            self.min_wall * 1e3,
            self.max_wall * 1e3,
            self.cpu * 1e3
        )
    }
}

fn runs(n: usize, mut run: impl FnMut()) -> Timing {
    let mut walls = Vec::with_capacity(n);
    let mut cpus = Vec::with_capacity(n);
    for _ in 0..n {
        let (started, cpu) = (Instant::now(), cpu_seconds());
        run();
        walls.push(started.elapsed().as_secs_f64());
        cpus.push(cpu_seconds() - cpu);
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
        v[v.len() / 2]
    };
    let wall = median(&mut walls);
    Timing {
        wall,
        cpu: median(&mut cpus),
        min_wall: walls[0],
        max_wall: walls[walls.len() - 1],
    }
}

/// CPU time of this thread (user and system), from Linux's `/proc/thread-self/stat` in
/// clock ticks (100 a second); wall-clock time elsewhere.
fn cpu_seconds() -> f64 {
    let ticks = std::fs::read_to_string("/proc/thread-self/stat")
        .ok()
        .and_then(|stat| {
            // Fields after the command name (in parentheses, which may hold spaces).
            let rest = stat.rsplit(')').next()?.to_string();
            let fields: Vec<&str> = rest.split_whitespace().collect();
            let user: f64 = fields.get(11)?.parse().ok()?;
            let system: f64 = fields.get(12)?.parse().ok()?;
            Some(user + system)
        });
    match ticks {
        Some(ticks) => ticks / 100.0,
        None => START.with(|s| s.elapsed().as_secs_f64()),
    }
}

thread_local! {
    static START: Instant = Instant::now();
}

fn status_kib(key: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(key))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn rss_kib() -> Option<u64> {
    status_kib("VmRSS:")
}

fn peak_kib() -> Option<u64> {
    status_kib("VmHWM:")
}

/// Resets the peak resident size (Linux: writing 5 to `clear_refs`).
fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}
