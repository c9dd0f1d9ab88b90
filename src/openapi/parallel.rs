//! The operations of a large document converted on several threads
//! ([`ImportOptions::threads`](super::ImportOptions::threads)), to the same result as on one.
//!
//! # Why the result does not depend on the threads
//!
//! The steps of the walk (see [`Step`]) are cut into contiguous runs, one a thread, each
//! converted with its own [`Converter`] and [`Refs`], and the runs' drafts and warnings
//! joined in document order. The converters share one cache of expanded `$ref`s
//! ([`SchemaCache`]): a `$ref` is cached only when it was expanded without a cut (cycle or
//! depth), and a cached schema is used only where converting it again would make no cut
//! either, so it equals what a conversion afresh would give and counts the same nodes;
//! and it gives again the warnings its expansion gave. So an operation converts to the same
//! draft and warnings whatever was cached, by whichever thread. (A converter's memo of
//! output schemas is its own: what it hides, the same converter warned earlier.) The import
//! keeps the first of equal warnings, which makes the joined list the one a single converter
//! gives.
//!
//! What cache state does change is where a node budget runs out: a cache hit counts its
//! nodes in one step, a conversion node by node, and each run counts the whole import's
//! budget from zero. So a run that exceeds a budget (even inside an output schema, where
//! the error is a warning), or runs whose nodes together exceed the import's budget, make
//! the whole conversion start again on the calling thread, with an empty cache. Without
//! that, every operation counts all its nodes however it was converted, and the runs'
//! totals add up to the one converter's.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::convert::{convert_steps, Converted, Watch};
use super::operation::Env;
use super::refs::Refs;
#[cfg(doc)]
use super::schema::Converter;
use super::schema::SchemaCache;
use super::walk::Step;
use crate::parallel;

/// Operations a thread must have to be worth starting. A thread costs its start and a
/// `Refs` that looks up and indexes again what the others did (about 0.7 M instructions
/// on Spotify's document, the conversion of five of its operations), and operations that
/// meet a schema at the same time on two threads both convert it. Measured with a lower
/// bound: Spotify's 97 operations on two threads took 7.8% fewer instructions on the calling
/// thread, 1.2% more in all. 32 keeps the start well paid for where the second core is busy.
const MIN_OPERATIONS_PER_THREAD: usize = 32;

/// Converts the operations of `steps` on as many threads as the options allow and the
/// document has operations for (the calling thread one of them), to the [`Converted`] of
/// one converter over `steps`. The cache of expanded `$ref`s is freed before this returns,
/// so the plugin is built in the memory it held.
///
/// The cache is freed on the calling thread. Freeing it on another thread while this one
/// builds the plugin was measured slower: the schemas were allocated by every thread, and a
/// thread that frees another's allocations contends for the allocator with the one still
/// allocating (glibc's arenas). On the benchmark's document that overlap made the next
/// 7 ms of building take 31 ms; freed here, the cache costs 10 ms.
pub(super) fn convert<'a>(steps: &[Step<'a>], env: &Env<'a, '_>, refs: &Refs<'a>) -> Converted {
    let operations = steps
        .iter()
        .filter(|step| matches!(step, Step::Convert(_)))
        .count();
    let threads = env
        .options
        .thread_count()
        .min(operations / MIN_OPERATIONS_PER_THREAD);
    if threads > 1 {
        let cache = SchemaCache::default();
        if let Some(converted) = convert_runs(steps, operations, threads, env, refs, &cache) {
            return converted;
        }
    }
    // A cache of its own: one another thread filled would make a budget run out elsewhere.
    convert_steps(steps, env, refs, &SchemaCache::default(), None)
}

/// The runs of `steps` converted on `threads` threads and joined, or `None` when a budget
/// was exceeded in a run or by all together (the caller converts the steps again on one
/// thread).
fn convert_runs<'a>(
    steps: &[Step<'a>],
    operations: usize,
    threads: usize,
    env: &Env<'a, '_>,
    refs: &Refs<'a>,
    cache: &SchemaCache,
) -> Option<Converted> {
    let runs = split(steps, operations, threads);
    let shared = Shared {
        max_total_nodes: env
            .options
            .max_total_nodes
            .unwrap_or(super::options::DEFAULT_MAX_TOTAL_NODES),
        total_nodes: AtomicUsize::new(0),
        again: AtomicBool::new(false),
        failed_run: AtomicUsize::new(usize::MAX),
    };
    let shared = &shared;
    let mut runs = runs.into_iter().enumerate();
    let first = runs
        .next()
        .map(|(_, run_steps)| run_steps)
        .unwrap_or_default();
    let (first, others) = parallel::on_threads(
        || convert_steps(first, env, refs, cache, Some(&RunWatch { shared, run: 0 })),
        runs.collect(),
        |(run, run_steps)| {
            // Refs of its own over the documents read before: `Refs` is not `Sync`, and one
            // a thread costs less than a lock on every lookup.
            let refs = Refs::new(env.root, env.documents);
            convert_steps(
                run_steps,
                env,
                &refs,
                cache,
                Some(&RunWatch { shared, run }),
            )
        },
    );
    if shared.again.load(Ordering::Relaxed) {
        return None;
    }
    let mut results = Vec::with_capacity(others.len() + 1);
    results.push(first);
    results.extend(others);
    Some(join(results))
}

/// The runs' results in order, as one: the runs up to the first that ended in an error.
fn join(results: Vec<Converted>) -> Converted {
    let mut all = Converted {
        drafts: Vec::new(),
        warnings: Vec::new(),
        error: None,
        skipped: None,
    };
    for mut result in results {
        all.drafts.append(&mut result.drafts);
        all.warnings.append(&mut result.warnings);
        if all.skipped.is_none() {
            all.skipped = result.skipped;
        }
        if result.error.is_some() {
            all.error = result.error;
            break;
        }
    }
    all
}

/// `steps` cut into `threads` contiguous runs with the same number of operations (to one),
/// the warnings that come before an operation in its run.
fn split<'s, 'a>(steps: &'s [Step<'a>], operations: usize, threads: usize) -> Vec<&'s [Step<'a>]> {
    let mut runs = Vec::with_capacity(threads);
    let mut start = 0;
    let mut seen = 0;
    for run in 1..threads {
        // The first operation of the next run: the run ends just before it.
        let first_of_next = operations * run / threads;
        let mut end = start;
        while let Some(step) = steps.get(end) {
            if let Step::Convert(_) = step {
                if seen == first_of_next {
                    break;
                }
                seen += 1;
            }
            end += 1;
        }
        runs.push(steps.get(start..end).unwrap_or_default());
        start = end;
    }
    runs.push(steps.get(start..).unwrap_or_default());
    runs
}

/// What the runs share while they convert.
struct Shared {
    max_total_nodes: usize,
    /// The nodes all runs wrote so far.
    total_nodes: AtomicUsize,
    /// Set when a budget was exceeded: the runs stop, and the steps are converted again on
    /// one thread.
    again: AtomicBool,
    /// The first run that ended in an error: the runs after it are not needed.
    failed_run: AtomicUsize,
}

/// One run's view of [`Shared`].
struct RunWatch<'s> {
    shared: &'s Shared,
    run: usize,
}

impl Watch for RunWatch<'_> {
    fn stopped(&self) -> bool {
        self.shared.again.load(Ordering::Relaxed)
            || self.shared.failed_run.load(Ordering::Relaxed) < self.run
    }

    fn converted(&self, nodes: usize, budget_exceeded: bool, failed: bool) {
        let total = self.shared.total_nodes.fetch_add(nodes, Ordering::Relaxed) + nodes;
        if budget_exceeded || total > self.shared.max_total_nodes {
            self.shared.again.store(true, Ordering::Relaxed);
        }
        if failed {
            self.shared
                .failed_run
                .fetch_min(self.run, Ordering::Relaxed);
        }
    }
}
