//! How plugin loading, spec building and writing scale with the number of parameters.
//!
//! `cargo bench --bench plugin` loads generated plugins of 1k, 10k and 100k parameters in
//! three shapes (one endpoint with every parameter, many endpoints of four parameters, one
//! object parameter with every property), and for each prints the median time per
//! parameter of: `HttpPlugin::from_json`, `ToolRegistry::add_plugin` then `specs()`, the
//! provider formats of every spec (OpenAI strict, Anthropic, Gemini, MCP), and `to_json`
//! written as text. Linear work shows as a flat time per parameter across the sizes; the
//! last lines print the ratio 100k / 1k for each operation (about 1 when linear, about 100
//! when quadratic). `cargo bench --bench plugin -- 10000` runs the sizes whose name holds
//! the filter.

use std::time::Instant;

use httptool::plugin::HttpPlugin;
use httptool::tool::{anthropic, gemini, mcp, openai, ToolRegistry};

const SIZES: [usize; 3] = [1_000, 10_000, 100_000];

/// How many parameters each endpoint of the "many endpoints" shape has.
const PARAMS_PER_ENDPOINT: usize = 4;

#[derive(Clone, Copy)]
enum Shape {
    OneEndpoint,
    ManyEndpoints,
    OneObject,
}

impl Shape {
    fn name(self) -> &'static str {
        match self {
            Shape::OneEndpoint => "one_endpoint",
            Shape::ManyEndpoints => "many_endpoints",
            Shape::OneObject => "one_object",
        }
    }
}

fn param(i: usize) -> String {
    let ty = ["string", "integer", "boolean", "number"][i % 4];
    let location = if i % 3 == 0 { "header" } else { "query" };
    let wire = if location == "header" {
        format!("X-P-{}", i)
    } else {
        format!("p_{}", i)
    };
    format!(
        r#"{{"name":"param_{i}","wire_name":"{wire}","in":"{location}","type":"{ty}","description":"parameter number {i}","required":{required}}}"#,
        i = i,
        wire = wire,
        location = location,
        ty = ty,
        required = i % 5 == 0
    )
}

fn plugin_text(shape: Shape, n: usize) -> String {
    let mut endpoints = Vec::new();
    match shape {
        Shape::OneEndpoint => {
            let params: Vec<String> = (0..n).map(param).collect();
            endpoints.push(format!(
                r#"{{"name":"get_all","path":"/all","params":[{}]}}"#,
                params.join(",")
            ));
        }
        Shape::ManyEndpoints => {
            for e in 0..n / PARAMS_PER_ENDPOINT {
                let params: Vec<String> = (0..PARAMS_PER_ENDPOINT)
                    .map(|j| param(e * PARAMS_PER_ENDPOINT + j))
                    .collect();
                endpoints.push(format!(
                    r#"{{"name":"endpoint_{}","path":"/e/{}","params":[{}]}}"#,
                    e,
                    e,
                    params.join(",")
                ));
            }
        }
        Shape::OneObject => {
            let properties: Vec<String> = (0..n)
                .map(|i| {
                    format!(
                        r#""prop_{}":{{"type":"string","description":"property {}"}}"#,
                        i, i
                    )
                })
                .collect();
            endpoints.push(format!(
                r#"{{"name":"post_object","method":"POST","path":"/o","params":[{{"name":"o","type":"object","properties":{{{}}}}}]}}"#,
                properties.join(",")
            ));
        }
    }
    format!(
        r#"{{"name":"big","base_url":"https://api.example.com","endpoints":[{}]}}"#,
        endpoints.join(",")
    )
}

/// The median of a few runs of `operation`, in nanoseconds; fewer runs for large inputs.
fn median_ns<F: FnMut() -> usize>(runs: usize, mut operation: F) -> (f64, usize) {
    let mut sink = 0usize;
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let start = Instant::now();
        sink = sink.wrapping_add(operation());
        times.push(start.elapsed().as_nanos() as f64);
    }
    times.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    (times[times.len() / 2], sink)
}

const OPERATIONS: [&str; 4] = [
    "from_json",
    "add_plugin+specs",
    "provider_formats",
    "to_json",
];

fn main() {
    let filter: Option<String> = std::env::args().skip(1).find(|arg| !arg.starts_with('-'));
    let shapes = [Shape::OneEndpoint, Shape::ManyEndpoints, Shape::OneObject];
    for shape in shapes {
        // Per operation, the (size, ns per parameter) measured.
        let mut results: Vec<Vec<(usize, f64)>> = vec![Vec::new(); OPERATIONS.len()];
        for &n in &SIZES {
            let label = format!("{}/{}", shape.name(), n);
            if filter
                .as_ref()
                .map_or(false, |f| !label.contains(f.as_str()))
            {
                continue;
            }
            let text = plugin_text(shape, n);
            let runs = if n >= 100_000 { 3 } else { 7 };
            let plugin = HttpPlugin::from_json(&text).expect("a valid plugin");
            let mut registry = ToolRegistry::new();
            registry.add_plugin(&plugin).expect("unique tool names");
            let specs = registry.specs();

            let timings = [
                median_ns(runs, || {
                    HttpPlugin::from_json(&text)
                        .map(|p| p.endpoints().count())
                        .unwrap_or(0)
                }),
                median_ns(runs, || {
                    let mut registry = ToolRegistry::new();
                    match registry.add_plugin(&plugin) {
                        Ok(()) => registry.specs().len(),
                        Err(_) => 0,
                    }
                }),
                median_ns(runs, || {
                    let mut total = 0;
                    for spec in &specs {
                        total +=
                            openai::chat_tool_strict(spec).map_or(0, |j| j.is_object() as usize);
                        total += anthropic::tool(spec).is_object() as usize;
                        total += gemini::function_declaration(spec).is_object() as usize;
                        total += mcp::tool(spec).is_object() as usize;
                    }
                    total
                }),
                median_ns(runs, || plugin.to_json().to_string().len()),
            ];
            for (k, (ns, sink)) in timings.iter().enumerate() {
                let per_param = ns / n as f64;
                println!(
                    "plugin/{:<28} {:<18} {:>10.1} ns/param  (total {:>9.2} ms; {} bytes of file; sink {})",
                    label,
                    OPERATIONS[k],
                    per_param,
                    ns / 1e6,
                    text.len(),
                    sink % 10
                );
                results[k].push((n, per_param));
            }
        }
        for (k, list) in results.iter().enumerate() {
            if let (Some(first), Some(last)) = (list.first(), list.last()) {
                if list.len() > 1 {
                    println!(
                        "scaling: {} {} ns/param at {} / at {} = {:.2}",
                        shape.name(),
                        OPERATIONS[k],
                        last.0,
                        first.0,
                        last.1 / first.1
                    );
                }
            }
        }
    }
}
