//! The registry: registering tools, dispatching calls, and every way a call can fail.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;

use httptool::json;
use httptool::json::{Json, Map};
use httptool::tool::{
    CallContext, ErrorKind, FnTool, Tool, ToolCall, ToolOutput, ToolRegistry, ToolSpec,
    DEFAULT_MAX_ARGUMENT_BYTES, DEFAULT_MAX_OUTPUT_BYTES,
};

use crate::support::weather;

fn weather(args: Map, _: &CallContext) -> ToolOutput {
    match args.get("city").and_then(Json::as_str) {
        Some(city) => ToolOutput::success(format!("sunny in {}", city)),
        None => ToolOutput::error(ErrorKind::MissingParameter, "missing parameter 'city'"),
    }
}

fn registry_with(names: &[&str]) -> ToolRegistry {
    let mut registry = ToolRegistry::new();
    for name in names {
        registry.add_fn(weather::spec(name), weather).unwrap();
    }
    registry
}

#[test]
fn registry_is_send_and_sync() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<ToolRegistry>();
    assert_send_sync::<Arc<dyn Tool>>();
    assert_send_sync::<CallContext>();
    assert_send_sync::<ToolCall>();
    assert_send_sync::<ToolOutput>();
}

#[test]
fn call_dispatches_by_name() {
    let registry = registry_with(&["get_weather", "get_time"]);
    let out = registry.call(&ToolCall::new("c1", "get_weather", r#"{"city":"Paris"}"#));
    assert!(!out.is_error(), "{}", out.text());
    assert_eq!(out.text(), "sunny in Paris");
}

#[test]
fn specs_keep_insertion_order() {
    let names = ["zeta", "alpha", "mid", "beta"];
    let registry = registry_with(&names);
    let listed: Vec<String> = registry
        .specs()
        .iter()
        .map(|s| s.name().to_string())
        .collect();
    assert_eq!(listed, names);
    assert_eq!(registry.names().collect::<Vec<_>>(), names);
    assert_eq!(registry.len(), 4);
}

#[test]
fn duplicate_name_is_refused_and_the_first_tool_kept() {
    let mut registry = registry_with(&["get_weather"]);
    let err = registry
        .add_fn(weather::spec("get_weather"), |_: Map, _: &CallContext| {
            "second"
        })
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::DuplicateName);
    assert_eq!(
        err.to_string(),
        "a tool named 'get_weather' is already registered; tool names must be unique"
    );
    let out = registry.call(&ToolCall::new("c1", "get_weather", r#"{"city":"Oslo"}"#));
    assert_eq!(out.text(), "sunny in Oslo", "the first tool still answers");
}

#[test]
fn add_all_is_all_or_nothing() {
    let mut registry = registry_with(&["existing"]);
    let batch = |names: &[&str]| -> Vec<Arc<dyn Tool>> {
        names
            .iter()
            .map(|name| Arc::new(FnTool::new(weather::spec(name), weather)) as Arc<dyn Tool>)
            .collect()
    };
    let err = registry
        .add_all(batch(&["a", "b", "existing"]))
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::DuplicateName);
    assert_eq!(registry.len(), 1, "nothing from the failed batch was added");

    let err = registry.add_all(batch(&["c", "d", "c"])).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::DuplicateName);
    assert_eq!(
        registry.len(),
        1,
        "a duplicate inside the batch refuses it too"
    );

    registry.add_all(batch(&["c", "d"])).unwrap();
    assert_eq!(registry.names().collect::<Vec<_>>(), ["existing", "c", "d"]);
}

#[test]
fn boxed_and_shared_tools_register() {
    let mut registry = ToolRegistry::new();
    registry
        .add_boxed(Box::new(FnTool::new(weather::spec("boxed"), weather)))
        .unwrap();
    let shared: Arc<dyn Tool> = Arc::new(FnTool::new(weather::spec("shared"), weather));
    registry.add_arc(Arc::clone(&shared)).unwrap();
    let mut other = ToolRegistry::new();
    other.add_arc(shared).unwrap();
    assert!(registry.contains("boxed") && registry.contains("shared"));
    assert!(other.get("shared").is_some());
    assert!(registry.get("nope").is_none());
}

#[test]
fn a_clone_shares_tools_and_grows_on_its_own() {
    let base = registry_with(&["get_weather"]);
    let mut per_user = base.clone();
    per_user
        .add_fn(weather::spec("user_tool"), weather)
        .unwrap();
    assert_eq!(base.len(), 1);
    assert_eq!(per_user.len(), 2);
    assert!(Arc::ptr_eq(
        base.get("get_weather").unwrap(),
        per_user.get("get_weather").unwrap()
    ));
}

#[test]
fn unknown_tool_suggests_the_closest_name() {
    let registry = registry_with(&["get_weather", "get_time"]);
    let out = registry.call(&ToolCall::new("c1", "get_wether", "{}"));
    assert_eq!(out.error_kind(), Some(ErrorKind::UnknownTool));
    assert_eq!(
        out.text(),
        "unknown tool 'get_wether'; did you mean 'get_weather'? accepted: get_weather, get_time"
    );
}

#[test]
fn unknown_tool_without_a_close_name_lists_the_tools() {
    let registry = registry_with(&["get_weather"]);
    let out = registry.call(&ToolCall::new("c1", "send_email", "{}"));
    assert_eq!(
        out.text(),
        "unknown tool 'send_email'; accepted: get_weather"
    );
    let empty = ToolRegistry::new();
    let out = empty.call(&ToolCall::new("c1", "anything", "{}"));
    assert_eq!(out.text(), "unknown tool 'anything'; accepted: none");
}

#[test]
fn unknown_tool_checked_before_arguments() {
    let registry = registry_with(&["get_weather"]);
    let out = registry.call(&ToolCall::new("c1", "nope", "not json"));
    assert_eq!(out.error_kind(), Some(ErrorKind::UnknownTool));
}

#[test]
fn arguments_that_are_not_json_are_an_error_output() {
    let registry = registry_with(&["get_weather"]);
    for bad in [
        "{city: Paris}",
        "[\"Paris\"]",
        "42",
        r#"{"city":"a","city":"b"}"#,
    ] {
        let out = registry.call(&ToolCall::new("c1", "get_weather", bad));
        assert_eq!(
            out.error_kind(),
            Some(ErrorKind::InvalidArguments),
            "{}",
            bad
        );
        assert!(out.text().starts_with("arguments "), "{}", out.text());
    }
}

#[test]
fn double_encoded_arguments_are_read() {
    let registry = registry_with(&["get_weather"]);
    let out = registry.call(&ToolCall::new(
        "c1",
        "get_weather",
        r#""{\"city\":\"Lima\"}""#,
    ));
    assert_eq!(out.text(), "sunny in Lima");
}

#[test]
fn empty_and_null_arguments_read_as_an_empty_object() {
    let registry = registry_with(&["get_weather"]);
    for empty in ["", "null", "  "] {
        let out = registry.call(&ToolCall::new("c1", "get_weather", empty));
        assert_eq!(
            out.error_kind(),
            Some(ErrorKind::MissingParameter),
            "the tool ran with no arguments for {:?}",
            empty
        );
    }
}

fn arguments_of_len(len: usize) -> String {
    let overhead = r#"{"city":""}"#.len();
    format!(r#"{{"city":"{}"}}"#, "x".repeat(len - overhead))
}

#[test]
fn default_argument_limit_on_both_sides() {
    let registry = registry_with(&["get_weather"]);
    let at_limit = arguments_of_len(DEFAULT_MAX_ARGUMENT_BYTES);
    assert_eq!(at_limit.len(), DEFAULT_MAX_ARGUMENT_BYTES);
    let out = registry.call(&ToolCall::new("c1", "get_weather", at_limit));
    assert!(!out.is_error(), "{}", &out.text()[..80]);

    let over = arguments_of_len(DEFAULT_MAX_ARGUMENT_BYTES + 1);
    let out = registry.call(&ToolCall::new("c1", "get_weather", over));
    assert_eq!(out.error_kind(), Some(ErrorKind::InvalidArguments));
    assert_eq!(
        out.text(),
        "arguments are 1048577 bytes, over the limit of 1048576 bytes; send shorter values"
    );
}

#[test]
fn configured_argument_limit_on_both_sides() {
    let mut registry = ToolRegistry::new().max_argument_bytes(100);
    registry.add_fn(weather::spec("w"), weather).unwrap();
    let out = registry.call(&ToolCall::new("c1", "w", arguments_of_len(100)));
    assert!(!out.is_error());
    let out = registry.call(&ToolCall::new("c1", "w", arguments_of_len(101)));
    assert_eq!(out.error_kind(), Some(ErrorKind::InvalidArguments));
}

#[test]
fn output_is_capped_at_the_default() {
    let mut registry = ToolRegistry::new();
    let spec = ToolSpec::without_parameters("big", "Returns a lot").unwrap();
    registry
        .add_fn(spec, |_: Map, _: &CallContext| {
            "x".repeat(DEFAULT_MAX_OUTPUT_BYTES + 1)
        })
        .unwrap();
    let out = registry.call(&ToolCall::new("c1", "big", "{}"));
    assert!(out.text().len() <= DEFAULT_MAX_OUTPUT_BYTES);
    assert!(
        out.text().ends_with(" more bytes]"),
        "{}",
        &out.text()[out.text().len() - 60..]
    );
}

#[test]
fn output_at_the_configured_cap_is_untouched() {
    let mut registry = ToolRegistry::new().max_output_bytes(10);
    let spec = ToolSpec::without_parameters("ten", "").unwrap();
    registry
        .add_fn(spec, |_: Map, _: &CallContext| "0123456789")
        .unwrap();
    assert_eq!(
        registry.call(&ToolCall::new("c1", "ten", "")).text(),
        "0123456789"
    );
}

#[test]
fn a_panicking_tool_becomes_an_internal_error() {
    let mut registry = ToolRegistry::new();
    let spec = ToolSpec::without_parameters("boom", "Panics").unwrap();
    registry
        .add_fn(spec, |_: Map, _: &CallContext| -> ToolOutput {
            panic!("secret detail in a panic message")
        })
        .unwrap();
    let out = registry.call(&ToolCall::new("c1", "boom", "{}"));
    assert_eq!(out.error_kind(), Some(ErrorKind::Internal));
    assert_eq!(
        out.text(),
        "tool 'boom' failed with an internal error; this is not caused by the arguments"
    );
    assert!(!out.text().contains("secret"));
}

#[test]
fn closure_results_convert() {
    let mut registry = ToolRegistry::new();
    let spec = ToolSpec::without_parameters("fails", "").unwrap();
    registry
        .add_fn(spec, |_: Map, _: &CallContext| {
            Err::<String, _>("the upstream service is down")
        })
        .unwrap();
    let spec = ToolSpec::without_parameters("json", "").unwrap();
    registry
        .add_fn(spec, |_: Map, _: &CallContext| json!({"ok": true}))
        .unwrap();

    let out = registry.call(&ToolCall::new("c1", "fails", ""));
    assert_eq!(out.error_kind(), Some(ErrorKind::ToolFailed));
    assert_eq!(out.text(), "the upstream service is down");

    let out = registry.call(&ToolCall::new("c2", "json", ""));
    assert_eq!(out.text(), r#"{"ok":true}"#);
    assert_eq!(out.structured(), Some(&json!({"ok": true})));
}

#[test]
fn context_reaches_the_tool_and_the_empty_one_is_empty() {
    let mut registry = ToolRegistry::new();
    let spec = ToolSpec::without_parameters("whoami", "").unwrap();
    registry
        .add_fn(spec, |_: Map, context: &CallContext| {
            context.get("tenant").unwrap_or("no tenant").to_string()
        })
        .unwrap();
    let call = ToolCall::new("c1", "whoami", "{}");
    assert_eq!(registry.call(&call).text(), "no tenant");
    let context = CallContext::new().with("tenant", "acme");
    assert_eq!(registry.call_with(&call, &context).text(), "acme");
}

#[test]
fn parsed_arguments_move_to_the_tool() {
    let registry = registry_with(&["get_weather"]);
    let mut args = Map::new();
    args.insert("city", "Quito");
    let call = ToolCall::with_object("c1", "get_weather", args);
    assert_eq!(registry.call(&call).text(), "sunny in Quito");
    let out = registry.call_owned(call, &CallContext::new());
    assert_eq!(out.text(), "sunny in Quito");
}

#[test]
fn tools_receive_arguments_by_value() {
    // The tool takes the string out of the map: no copy is needed.
    struct Take(ToolSpec);
    impl Tool for Take {
        fn spec(&self) -> &ToolSpec {
            &self.0
        }
        fn call(&self, mut arguments: Map, _: &CallContext) -> ToolOutput {
            match arguments.remove("city").and_then(Json::into_string) {
                Some(city) => ToolOutput::success(city),
                None => ToolOutput::error(ErrorKind::MissingParameter, "missing 'city'"),
            }
        }
    }
    let mut registry = ToolRegistry::new();
    registry.add(Take(weather::spec("take"))).unwrap();
    let out = registry.call(&ToolCall::new("c1", "take", r#"{"city":"Bern"}"#));
    assert_eq!(out.text(), "Bern");
}

#[test]
fn shared_across_threads_without_a_lock() {
    let calls = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&calls);
    let mut registry = ToolRegistry::new();
    let spec = ToolSpec::without_parameters("count", "").unwrap();
    registry
        .add_fn(spec, move |_: Map, _: &CallContext| {
            counter.fetch_add(1, Ordering::SeqCst);
            "ok"
        })
        .unwrap();
    let registry = Arc::new(registry);
    let handles: Vec<_> = (0..4)
        .map(|t| {
            let registry = Arc::clone(&registry);
            thread::spawn(move || {
                for i in 0..100 {
                    let call = ToolCall::new(format!("{}-{}", t, i), "count", "{}");
                    assert_eq!(registry.call(&call).text(), "ok");
                }
            })
        })
        .collect();
    for handle in handles {
        handle.join().unwrap();
    }
    assert_eq!(calls.load(Ordering::SeqCst), 400);
}

#[test]
fn many_tools_dispatch_by_name() {
    let names: Vec<String> = (0..2_000).map(|i| format!("tool_{}", i)).collect();
    let mut registry = ToolRegistry::new();
    for name in &names {
        let answer = name.clone();
        registry
            .add_fn(
                ToolSpec::without_parameters(name.as_str(), "").unwrap(),
                move |_: Map, _: &CallContext| answer.clone(),
            )
            .unwrap();
    }
    for name in [&names[0], &names[999], &names[1_999]] {
        assert_eq!(
            registry.call(&ToolCall::new("c", name.as_str(), "")).text(),
            name
        );
    }
}
