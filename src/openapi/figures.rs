//! The figures of each tool of the plugin ([`ToolFigure`]), measured on the import's threads.

use std::collections::HashMap;

use super::operation::Draft;
use crate::parallel;
use crate::plugin::{HttpPlugin, HttpTool};
use crate::tool::Tool;

/// The figures of one tool: its name, method, path, and the bytes of its parameters' JSON
/// Schema as the model reads it (compact JSON).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolFigure {
    /// The tool name.
    pub name: String,
    /// The HTTP method.
    pub method: String,
    /// The path template.
    pub path: String,
    /// Bytes of the parameters' schema.
    pub schema_bytes: usize,
    /// Bytes of the description.
    pub description_bytes: usize,
    /// The base URL the tool's requests go to: the plugin's, or the endpoint's own (from
    /// path-level or operation-level `servers`, kept when no base URL option is given).
    pub base_url: String,
}

/// Tools each thread measures at least: a thread costs its start, a tool a few microseconds.
const MIN_FIGURES_PER_THREAD: usize = 256;

/// One figure per tool, in the plugin's order. A large API's tool schemas (each with the
/// `$defs` entries it reaches) are several times the document, so an entry the tools share
/// is measured once a run (walking every schema whole took Microsoft Graph beta half a
/// second on one thread), and the tools are
/// measured in contiguous runs on the import's threads and joined in order.
pub(super) fn figures(
    plugin: &HttpPlugin,
    drafts: &[Draft],
    base_url: &str,
    threads: usize,
) -> Vec<ToolFigure> {
    let tools = plugin.tools();
    let measure = |tools: &[HttpTool], drafts: &[Draft]| -> Vec<ToolFigure> {
        // The lengths of the schemas the tools share (the `$defs` entries many reach), by
        // allocation: the plugin holds them while this run lives.
        let mut shared = HashMap::new();
        tools
            .iter()
            .zip(drafts)
            .map(|(tool, draft)| {
                let spec = tool.spec();
                ToolFigure {
                    name: spec.name().to_string(),
                    method: draft.method.as_str().to_string(),
                    path: draft.path.clone(),
                    schema_bytes: spec.parameters().compact_len_sharing(&mut shared),
                    description_bytes: spec.description().len(),
                    base_url: draft
                        .base_url
                        .clone()
                        .unwrap_or_else(|| base_url.to_string()),
                }
            })
            .collect()
    };
    let threads = threads.min(tools.len() / MIN_FIGURES_PER_THREAD).max(1);
    if threads == 1 {
        return measure(&tools, drafts);
    }
    let per = (tools.len() + threads - 1) / threads;
    let mut runs = tools.chunks(per).zip(drafts.chunks(per));
    let (tools, drafts) = runs.next().unwrap_or_default();
    let (first, others) = parallel::on_threads(
        || measure(tools, drafts),
        runs.collect(),
        |(tools, drafts)| measure(tools, drafts),
    );
    let mut figures = first;
    figures.extend(others.into_iter().flatten());
    figures
}
