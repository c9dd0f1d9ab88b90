//! JSON throughput and memory: parse and write twitter.json, canada.json and citm_catalog.json
//! (`../shared/data/json-bench/`) and print medians in MB/s (10^6 bytes per second), plus the
//! heap bytes a parsed value holds.
//!
//! ```sh
//! cargo bench --bench json                 # all three files
//! cargo bench --bench json -- canada 2     # files whose name contains "canada", 2 s a measure
//! cargo bench --bench json -- keys         # objects with many keys only
//! ```
//!
//! Conventions follow serde-rs/json-benchmark and `../shared/peers` (which compares with
//! serde_json in one process): parse MB/s = input bytes / parse time (dropping the value is
//! not timed); write MB/s = output bytes / time to produce the `String`. "ns / number" is the
//! write time divided by the numbers in the file: for canada.json, nearly all doubles, the
//! cost of one double with its punctuation.

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use httptool::json::{self, Json, ParseOptions};

/// Counts live heap bytes so the bench can report what a parsed value holds. Benchmark code
/// only (the library itself forbids `unsafe`): a global allocator cannot be written without
/// it. Counting is switched on only around the memory measurement, so timings pay one
/// relaxed load per allocation.
struct CountingAllocator;

static COUNTING: AtomicBool = AtomicBool::new(false);
static LIVE_BYTES: AtomicUsize = AtomicUsize::new(0);
static LIVE_ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

fn count_alloc(size: usize) {
    if COUNTING.load(Ordering::Relaxed) {
        LIVE_BYTES.fetch_add(size, Ordering::Relaxed);
        LIVE_ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    }
}

fn count_dealloc(size: usize) {
    if COUNTING.load(Ordering::Relaxed) {
        LIVE_BYTES.fetch_sub(size, Ordering::Relaxed);
        LIVE_ALLOCATIONS.fetch_sub(1, Ordering::Relaxed);
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
        if !p.is_null() && COUNTING.load(Ordering::Relaxed) {
            LIVE_BYTES.fetch_sub(layout.size(), Ordering::Relaxed);
            LIVE_BYTES.fetch_add(new_size, Ordering::Relaxed);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

const FILES: &[&str] = &["twitter.json", "canada.json", "citm_catalog.json"];

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let filter = args.first().cloned().unwrap_or_default();
    let seconds: f64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1.0);
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/json-bench");
    println!(
        "# size_of::<Json>() = {} bytes; {seconds} s a measure",
        std::mem::size_of::<Json>()
    );
    for name in FILES.iter().filter(|n| n.contains(filter.as_str())) {
        let path = dir.join(name);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) => {
                println!("# skipped {name}: cannot read {}: {e}", path.display());
                continue;
            }
        };
        bench_file(name, &text, Duration::from_secs_f64(seconds));
    }
    if filter.is_empty() || "keys".contains(filter.as_str()) {
        bench_many_keys(Duration::from_secs_f64(seconds / 2.0));
    }
}

fn bench_file(name: &str, text: &str, budget: Duration) {
    let value = match json::parse(text) {
        Ok(value) => value,
        Err(e) => {
            println!("# skipped {name}: {e}");
            return;
        }
    };
    let compact = value.to_string();
    let pretty = value.to_pretty();
    assert_eq!(
        json::parse(&compact).as_ref(),
        Ok(&value),
        "{name} round-trips"
    );

    let parse = median_mbps(text.len(), budget, || json::parse(text));
    let write = median_mbps(compact.len(), budget, || value.to_string());
    let write_pretty = median_mbps(pretty.len(), budget, || value.to_pretty());
    println!("{name:<18} parse        {parse:>8.1} MB/s");
    println!("{name:<18} write        {write:>8.1} MB/s");
    println!("{name:<18} write pretty {write_pretty:>8.1} MB/s");

    // The whole write time over the numbers: for canada.json (all doubles) what one double
    // costs, punctuation included; for the others, only an upper bound.
    let numbers = count_numbers(&value);
    if numbers > 0 {
        let ns = compact.len() as f64 / (write * 1e6) / numbers as f64 * 1e9;
        println!("{name:<18} write        {ns:>8.1} ns / number ({numbers} numbers)");
    }

    let (held, allocations) = heap_held(|| json::parse(text));
    println!(
        "{name:<18} memory       {held} heap bytes in {allocations} allocations for {} bytes of text ({:.2}x)",
        text.len(),
        held as f64 / text.len() as f64
    );
}

/// Median throughput of `run`, timed call by call for `budget` in total (each call takes
/// 0.1 ms or more, far above the clock's cost). What `run` returns is dropped after the clock
/// stops, as in `../shared/peers`: dropping a parsed value is not part of parsing, and
/// keeping the result keeps the optimizer from skipping the work.
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

/// The numbers in `value` (an explicit stack: no recursion on the nesting).
fn count_numbers(value: &Json) -> usize {
    let mut count = 0;
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Json::Number(_) => count += 1,
            Json::Array(items) => stack.extend(items.iter()),
            Json::Object(map) => stack.extend(map.iter().map(|(_, v)| v)),
            _ => {}
        }
    }
    count
}

/// Parsing an object with 200,000 distinct keys, with and without duplicate-key rejection:
/// the time per key stays flat as objects grow (duplicate detection is linear).
fn bench_many_keys(budget: Duration) {
    for keys in [2_000, 200_000] {
        let mut text = String::from("{");
        for i in 0..keys {
            text.push_str(&format!("\"key{i}\":{i},"));
        }
        text.pop();
        text.push('}');
        let strict = ParseOptions::new().reject_duplicate_keys(true);
        for (mode, options) in [("last wins", ParseOptions::new()), ("strict", strict)] {
            let mbps = median_mbps(text.len(), budget, || options.parse(&text));
            let ns_per_key = text.len() as f64 / (mbps * 1e6) / keys as f64 * 1e9;
            println!(
                "{:<18} parse {mode:<9} {mbps:>8.1} MB/s, {ns_per_key:.0} ns a key",
                format!("{keys} keys")
            );
        }
    }
}

/// Heap bytes (and allocations) still held by the value `make` returns.
fn heap_held<T>(make: impl FnOnce() -> T) -> (usize, usize) {
    LIVE_BYTES.store(0, Ordering::SeqCst);
    LIVE_ALLOCATIONS.store(0, Ordering::SeqCst);
    COUNTING.store(true, Ordering::SeqCst);
    let value = make();
    let held = LIVE_BYTES.load(Ordering::SeqCst);
    let allocations = LIVE_ALLOCATIONS.load(Ordering::SeqCst);
    COUNTING.store(false, Ordering::SeqCst);
    drop(value);
    (held, allocations)
}
