//! The steps of the walk converted in order with one [`Converter`]: each operation into a
//! [`Draft`], or left out with a warning (the first refusal ends the import with
//! `strict`).

use super::error::{Error, Warning};
use super::operation::{self, Draft, Env};
use super::refs::Refs;
use super::schema::{Converter, SchemaCache};
use super::walk::{operation_label, Step};

/// What converting a run of steps gave.
pub(super) struct Converted {
    pub drafts: Vec<Draft>,
    /// The warnings of the steps, in order.
    pub warnings: Vec<Warning>,
    /// The error that ended the run, if one did.
    pub error: Option<Error>,
    /// Why the first operation left out was (the import's error when none is left).
    pub skipped: Option<Error>,
}

/// Converts `steps` with one converter over `refs` and `cache`. A run among others is
/// `watched`: it stops when the others no longer need it, and reports what each operation
/// wrote.
pub(super) fn convert_steps<'a>(
    steps: &[Step<'a>],
    env: &Env<'a, '_>,
    refs: &Refs<'a>,
    cache: &SchemaCache,
    watched: Option<&dyn Watch>,
) -> Converted {
    let options = env.options;
    let mut conv = Converter::new(refs, env.version, cache);
    conv.max_depth = options
        .max_schema_depth
        .unwrap_or(super::options::DEFAULT_MAX_SCHEMA_DEPTH)
        .min(super::schema::MAX_IMPORT_SCHEMA_DEPTH);
    conv.max_tool_nodes = options
        .max_tool_nodes
        .unwrap_or(super::options::DEFAULT_MAX_TOOL_NODES);
    conv.max_total_nodes = options
        .max_total_nodes
        .unwrap_or(super::options::DEFAULT_MAX_TOTAL_NODES);
    conv.max_description = options
        .max_param_description_bytes
        .unwrap_or(super::options::DEFAULT_MAX_PARAM_DESCRIPTION_BYTES);
    let mut drafts: Vec<Draft> = Vec::new();
    let mut error = None;
    let mut skipped: Option<Error> = None;
    for step in steps {
        let op = match step {
            Step::Warn(warning) => {
                conv.warnings.push(warning.clone());
                continue;
            }
            Step::Skip(warning, e) => {
                conv.warnings.push(warning.clone());
                skipped.get_or_insert_with(|| e.clone());
                continue;
            }
            Step::Fail(e) => {
                error = Some(e.clone());
                break;
            }
            Step::Convert(op) => op,
        };
        if watched.map_or(false, |w| w.stopped()) {
            break;
        }
        let before = conv.total_nodes;
        conv.tool_nodes = 0;
        match operation::convert(op, env, refs, &mut conv) {
            Ok(draft) => drafts.push(draft),
            Err(e) if !options.strict => {
                conv.warnings.push(Warning::new(
                    op.op_at.as_str(),
                    format!(
                        "{} not imported: {}",
                        operation_label(op.method.as_str(), op.path, op.op),
                        e
                    ),
                ));
                skipped.get_or_insert(e);
            }
            Err(e) => error = Some(e),
        }
        if let Some(watch) = watched {
            watch.converted(
                conv.total_nodes - before,
                conv.budget_exceeded,
                error.is_some(),
            );
        }
        if error.is_some() {
            break;
        }
    }
    // The converter's memo of output schemas is freed here, and `parallel::convert` frees
    // the cache, before the plugin is built (the import's peak memory).
    Converted {
        drafts,
        warnings: std::mem::take(&mut conv.warnings),
        error,
        skipped,
    }
}

/// What a run converted among others (on threads, see [`parallel`](super::parallel)) is
/// told and tells: whether it is still needed, and what each operation wrote.
pub(super) trait Watch {
    /// Whether the run's result is no longer needed.
    fn stopped(&self) -> bool;

    /// An operation was converted: it wrote `nodes` schema nodes, the run's converter has
    /// (or has not) exceeded a budget, and the operation failed the import (or not).
    fn converted(&self, nodes: usize, budget_exceeded: bool, failed: bool);
}
