//! Benchmarks of the tool layer (registry dispatch, spec rendering) and the plugin layer
//! (arguments to a request ready to write, and a whole call over loopback keep-alive).
//!
//! `cargo bench --bench tool` runs everything; `cargo bench --bench tool -- dispatch` runs the
//! measurements whose name contains `dispatch`. Each measurement is one function below and
//! prints one line: its name, the median time per operation over several samples, and the
//! spread (lowest and highest sample). The plugin layer adds its measurements the same way.
//!
//! On a small VM, run the loopback measurement with client and server on one CPU
//! (`taskset -c 1 cargo bench --bench tool`), as the peers harness does: otherwise waking the
//! server on an idle second CPU makes a call take ~90 us instead of ~9 us.

use std::time::Instant;

use std::io::{Read, Write};
use std::net::TcpListener;

use httptool::http::Secrets;
use httptool::json;
use httptool::json::{Json, Map};
use httptool::plugin::HttpPlugin;
use httptool::tool::{
    anthropic, gemini, mcp, openai, parse_arguments, CallContext, ToolCall, ToolOutput,
    ToolRegistry, ToolSpec, DEFAULT_MAX_ARGUMENT_BYTES,
};

/// The arguments of the peers' tool-call benchmark.
const ARGUMENTS: &str = r#"{"city":"Hangzhou","days":3}"#;

/// How many different tools the dispatch benchmarks call in turn, spread over the registry,
/// so a large registry is not measured on one hot cache line.
const DISPATCH_TARGETS: usize = 64;

/// A measurement: its printed name and the function that runs it.
type Measurement = (&'static str, fn() -> Sample);

fn main() {
    let filter: Option<String> = std::env::args().skip(1).find(|arg| !arg.starts_with('-'));
    let measurements: &[Measurement] = &[
        ("tool/dispatch/10_tools", || dispatch(10)),
        ("tool/dispatch/1000_tools", || dispatch(1_000)),
        ("tool/dispatch/100000_tools", || dispatch(100_000)),
        (
            "tool/dispatch_unknown_tool/1000_tools",
            dispatch_unknown_tool,
        ),
        ("tool/render_1000/openai_chat", render_openai_chat),
        (
            "tool/render_1000/openai_chat_strict",
            render_openai_chat_strict,
        ),
        ("tool/render_1000/openai_responses", render_openai_responses),
        (
            "tool/render_1000/openai_responses_strict",
            render_openai_responses_strict,
        ),
        ("tool/render_1000/anthropic", render_anthropic),
        ("tool/render_1000/gemini", render_gemini),
        ("tool/render_1000/mcp", render_mcp),
        (
            "tool/render_1000/openai_chat_to_string",
            render_openai_chat_to_string,
        ),
        ("plugin/from_json/weather", plugin_from_json),
        ("plugin/prepare/get_weather", prepare_get_weather),
        ("plugin/prepare/post_5_body_fields", prepare_post_five),
        ("plugin/prepare_and_render/get_weather", prepare_and_render),
        ("plugin/call_loopback/get_weather", call_loopback),
    ];
    let mut dispatch_medians = Vec::new();
    for (name, measure) in measurements {
        if filter
            .as_ref()
            .map_or(false, |f| !name.contains(f.as_str()))
        {
            continue;
        }
        let sample = measure();
        println!(
            "{:<44} median {:>12} {}  (min {}, max {}; {} samples; sink {})",
            name,
            format_ns(sample.median_ns),
            sample.unit,
            format_ns(sample.min_ns),
            format_ns(sample.max_ns),
            sample.samples,
            sample.sink % 10
        );
        if name.starts_with("tool/dispatch/") {
            dispatch_medians.push((*name, sample.median_ns));
        }
    }
    if let (Some(first), Some(last)) = (dispatch_medians.first(), dispatch_medians.last()) {
        if dispatch_medians.len() > 1 {
            println!(
                "scaling: dispatch {} / {} = {:.2}",
                last.0,
                first.0,
                last.1 / first.1
            );
        }
    }
}

/// The result of one measurement, per operation.
struct Sample {
    median_ns: f64,
    min_ns: f64,
    max_ns: f64,
    samples: usize,
    unit: &'static str,
    /// Folded from every result, printed, so the optimizer cannot drop the work.
    sink: usize,
}

/// Times `operation` in samples of `per_sample` runs until about `budget_ms` has passed (at
/// least 5 samples), after one warm-up sample.
fn measure<F: FnMut() -> usize>(
    unit: &'static str,
    per_sample: usize,
    budget_ms: u128,
    mut operation: F,
) -> Sample {
    let mut sink = 0usize;
    for _ in 0..per_sample {
        sink = sink.wrapping_add(operation());
    }
    let mut times = Vec::new();
    let started = Instant::now();
    while times.len() < 5 || (started.elapsed().as_millis() < budget_ms && times.len() < 1_000) {
        let sample_start = Instant::now();
        for _ in 0..per_sample {
            sink = sink.wrapping_add(operation());
        }
        times.push(sample_start.elapsed().as_nanos() as f64 / per_sample as f64);
    }
    times.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    Sample {
        median_ns: times[times.len() / 2],
        min_ns: times[0],
        max_ns: times[times.len() - 1],
        samples: times.len(),
        unit,
        sink,
    }
}

fn format_ns(ns: f64) -> String {
    if ns >= 1_000_000.0 {
        format!("{:.2} ms", ns / 1_000_000.0)
    } else if ns >= 1_000.0 {
        format!("{:.2} us", ns / 1_000.0)
    } else {
        format!("{:.0} ns", ns)
    }
}

/// A spec like one the plugin layer renders: two parameters, one optional with a default.
fn weather_spec(name: &str) -> ToolSpec {
    ToolSpec::new(
        name,
        "Current weather for a city",
        json!({
            "type": "object",
            "properties": {
                "city": { "type": "string", "description": "City name" },
                "days": { "type": "integer", "description": "Days of forecast", "default": 1 },
                "unit": { "type": "string", "enum": ["metric", "imperial"] }
            },
            "required": ["city"],
            "additionalProperties": false
        }),
    )
    .expect("a valid spec")
}

fn tool_name(index: usize) -> String {
    format!("get_weather_{}", index)
}

/// A tool that reads its arguments the way a real one would, and answers with static text.
fn weather(args: Map, _: &CallContext) -> ToolOutput {
    let days = args.get("days").and_then(Json::as_i64).unwrap_or(1);
    ToolOutput::success(if days > 1 { "sunny for days" } else { "sunny" })
}

fn registry_of(tools: usize) -> ToolRegistry {
    let spec = weather_spec("template");
    let mut registry = ToolRegistry::new();
    for index in 0..tools {
        let spec = ToolSpec::new(
            tool_name(index),
            spec.description(),
            spec.parameters().clone(),
        )
        .expect("a valid spec");
        registry.add_fn(spec, weather).expect("unique names");
    }
    registry
}

/// Calls spread evenly over the registry.
fn calls_for(tools: usize) -> Vec<ToolCall> {
    let targets = DISPATCH_TARGETS.min(tools);
    (0..targets)
        .map(|i| ToolCall::new("call_1", tool_name(i * tools / targets), ARGUMENTS))
        .collect()
}

/// One call through a registry of `tools` tools: name lookup, argument parsing, the tool
/// itself (trivial), output capping.
fn dispatch(tools: usize) -> Sample {
    let registry = registry_of(tools);
    let calls = calls_for(tools);
    let mut next = 0;
    measure("per call", 2_000, 1_500, || {
        next = (next + 1) % calls.len();
        let output = registry.call(&calls[next]);
        assert!(!output.is_error(), "{}", output.text());
        output.text().len()
    })
}

/// A call to a name the registry does not hold: the error path scans every name for a
/// suggestion, so it grows with the registry (reported for information).
fn dispatch_unknown_tool() -> Sample {
    let registry = registry_of(1_000);
    let call = ToolCall::new("call_1", "get_wether_5", ARGUMENTS);
    measure("per call", 20, 1_000, || registry.call(&call).text().len())
}

fn specs_1000() -> Vec<ToolSpec> {
    (0..1_000).map(|i| weather_spec(&tool_name(i))).collect()
}

/// Renders 1,000 specs with `render`; the time is per 1,000 specs.
fn render_all(render: fn(&ToolSpec) -> Json) -> Sample {
    let specs = specs_1000();
    measure("per 1000 specs", 3, 1_500, || {
        specs.iter().map(render).filter(Json::is_object).count()
    })
}

fn render_openai_chat() -> Sample {
    render_all(openai::chat_tool)
}

fn render_openai_chat_strict() -> Sample {
    render_all(|spec| openai::chat_tool_strict(spec).expect("strict-compatible"))
}

fn render_openai_responses() -> Sample {
    render_all(openai::responses_tool)
}

fn render_openai_responses_strict() -> Sample {
    render_all(|spec| openai::responses_tool_strict(spec).expect("strict-compatible"))
}

fn render_anthropic() -> Sample {
    render_all(anthropic::tool)
}

fn render_gemini() -> Sample {
    render_all(gemini::function_declaration)
}

fn render_mcp() -> Sample {
    render_all(mcp::tool)
}

/// Renders 1,000 chat tools and writes the `tools` array as compact JSON, as a request does.
fn render_openai_chat_to_string() -> Sample {
    let specs = specs_1000();
    measure("per 1000 specs", 3, 1_500, || {
        let tools: Vec<Json> = specs.iter().map(openai::chat_tool).collect();
        Json::Array(tools).to_string().len()
    })
}

// ---------------------------------------------------------------- plugin layer

/// The peers' tool-call plugin: `get_weather` with `city` as `q` and an integer `days`.
fn weather_plugin_file(base: &str) -> String {
    format!(
        r#"{{
  "name": "bench",
  "base_url": "{}",
  "headers": {{ "Accept": "application/json" }},
  "endpoints": [
    {{ "name": "get_weather", "description": "Weather for a city", "method": "GET",
       "path": "/v1/weather",
       "params": [
         {{ "name": "city", "wire_name": "q", "in": "query", "type": "string", "required": true }},
         {{ "name": "days", "in": "query", "type": "integer" }}
       ] }},
    {{ "name": "create_ticket", "description": "Opens a ticket", "method": "POST",
       "path": "/v1/projects/{{project}}/tickets",
       "params": [
         {{ "name": "project", "in": "path" }},
         {{ "name": "title", "required": true }},
         {{ "name": "body" }},
         {{ "name": "priority", "type": "integer" }},
         {{ "name": "labels", "type": "array", "items": {{ "type": "string" }} }},
         {{ "name": "urgent", "type": "boolean" }}
       ] }}
  ]
}}"#,
        base
    )
}

/// Reading and checking a two-endpoint plugin file (done once per plugin, for information).
fn plugin_from_json() -> Sample {
    let text = weather_plugin_file("https://api.example.com");
    measure("per plugin", 200, 1_000, || {
        HttpPlugin::from_json(&text).expect("valid").name().len()
    })
}

/// Arguments text to the request ready to write: parse, value order, coercion, placement,
/// the request built (the dry-run path, no socket).
fn prepare(tool: &str, arguments: &'static str) -> Sample {
    let plugin =
        HttpPlugin::from_json(&weather_plugin_file("https://api.example.com")).expect("valid");
    let tool = plugin.tool(tool).expect("declared");
    let context = CallContext::new();
    measure("per call", 5_000, 1_500, || {
        let map = parse_arguments(arguments, DEFAULT_MAX_ARGUMENT_BYTES).expect("an object");
        let request = tool.prepare(map, &context).expect("valid arguments");
        request.url().as_str().len() + request.body().len()
    })
}

fn prepare_get_weather() -> Sample {
    prepare("get_weather", ARGUMENTS)
}

fn prepare_post_five() -> Sample {
    prepare(
        "create_ticket",
        r#"{"project":"core","title":"Printer on fire","body":"Third time this week.","priority":"2","labels":["hardware","urgent"],"urgent":true}"#,
    )
}

/// As `prepare_get_weather`, plus writing the request head the client would send.
fn prepare_and_render() -> Sample {
    let plugin =
        HttpPlugin::from_json(&weather_plugin_file("https://api.example.com")).expect("valid");
    let tool = plugin.tool("get_weather").expect("declared");
    let context = CallContext::new();
    measure("per call", 5_000, 1_500, || {
        let map = parse_arguments(ARGUMENTS, DEFAULT_MAX_ARGUMENT_BYTES).expect("an object");
        let dry = tool.dry_run(map, &context).expect("valid arguments");
        dry.render(Secrets::Reveal).expect("renders").len()
    })
}

/// A whole call through a registry over loopback keep-alive, against a minimal std server in
/// this process that answers every request with the same small JSON body.
fn call_loopback() -> Sample {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            std::thread::spawn(move || serve(stream));
        }
    });
    let plugin = HttpPlugin::from_json(&weather_plugin_file(&base)).expect("valid");
    let mut registry = ToolRegistry::new();
    registry.add_plugin(&plugin).expect("unique names");
    let call = ToolCall::new("call_1", "get_weather", ARGUMENTS);
    measure("per call", 500, 2_000, || {
        let output = registry.call(&call);
        assert!(!output.is_error(), "{}", output.text());
        output.text().len()
    })
}

/// Answers every request on a keep-alive connection with the same response.
fn serve(mut stream: std::net::TcpStream) {
    const BODY: &str = r#"{"city":"Hangzhou","temp_c":21.5,"condition":"cloudy","days":3}"#;
    let response = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{}",
        BODY.len(),
        BODY
    );
    let _ = stream.set_nodelay(true);
    let mut buf = vec![0u8; 8192];
    let mut pending = Vec::new();
    loop {
        let n = match stream.read(&mut buf) {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        pending.extend_from_slice(&buf[..n]);
        while let Some(end) = pending.windows(4).position(|w| w == b"\r\n\r\n") {
            pending.drain(..end + 4);
            if stream.write_all(response.as_bytes()).is_err() {
                return;
            }
        }
    }
}
