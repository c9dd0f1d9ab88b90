//! The integration tests, built as one test binary (`autotests = false` and one `[[test]]` in
//! Cargo.toml): each file of `tests/` is a module here, with the features it needs on its
//! `mod` line, and the helpers are the one `support` module tree. One binary links the crate
//! once instead of once per file (see `design::performance`). Run one file's tests with
//! `cargo test --test integration NAME::`; tests/README.md says which tests need data kept
//! beside the repository and how to add a file.

mod support;

#[cfg(all(feature = "plugin", feature = "mcp"))]
mod binary_answers;
#[cfg(feature = "openapi")]
mod catalog;
#[cfg(feature = "cli")]
mod catalog_cli;
#[cfg(feature = "openapi")]
mod catalog_ranking;
#[cfg(feature = "cli")]
mod cli;
#[cfg(feature = "cli")]
mod cli_call_and_examples;
#[cfg(feature = "cli")]
mod cli_consent;
#[cfg(feature = "cli")]
mod cli_convert;
#[cfg(feature = "cli")]
mod cli_input;
#[cfg(feature = "cli")]
mod cli_network;
#[cfg(feature = "cli")]
mod compact_schemas;
#[cfg(all(feature = "curl", feature = "plugin"))]
mod credential_names;
#[cfg(feature = "curl")]
mod curl_aws_sigv4;
#[cfg(feature = "curl")]
mod curl_convert;
#[cfg(feature = "curl")]
mod curl_convert_export;
#[cfg(feature = "curl")]
mod curl_convert_hostile;
#[cfg(feature = "curl")]
mod curl_convert_options;
#[cfg(feature = "curl")]
mod curl_convert_real_world;
#[cfg(feature = "curl")]
mod curl_convert_variables;
#[cfg(feature = "curl")]
mod curl_errors;
#[cfg(feature = "curl")]
mod curl_hostile;
#[cfg(feature = "curl")]
mod curl_parse;
#[cfg(feature = "curl")]
mod curl_real_world;
#[cfg(all(feature = "curl", feature = "plugin"))]
mod curl_repeated_query_keys;
#[cfg(feature = "curl")]
mod curl_several_urls;
#[cfg(feature = "curl")]
mod curl_vs_curl;
#[cfg(all(feature = "plugin", feature = "mcp"))]
mod event_streams;
#[cfg(feature = "plugin")]
mod fuzz_header_injection;
#[cfg(feature = "http")]
mod fuzz_http_response;
#[cfg(feature = "mcp")]
mod fuzz_mcp;
#[cfg(feature = "plugin")]
mod fuzz_plugin;
#[cfg(feature = "curl")]
mod fuzz_regressions;
mod fuzz_url;
#[cfg(all(feature = "plugin", feature = "tool"))]
mod gemini_capped_results;
#[cfg(feature = "har")]
mod har_credentials_per_host;
#[cfg(feature = "har")]
mod har_hosts_and_auth;
#[cfg(feature = "har")]
mod har_import;
#[cfg(feature = "har")]
mod har_linear;
#[cfg(feature = "http")]
mod http_client;
#[cfg(feature = "http")]
mod http_errors;
#[cfg(feature = "http")]
mod http_interop;
#[cfg(feature = "http")]
mod http_limits;
#[cfg(feature = "http")]
mod http_malformed;
#[cfg(feature = "http")]
mod http_policy;
#[cfg(feature = "http")]
mod http_redirect;
#[cfg(feature = "http")]
mod http_response_probe;
#[cfg(feature = "http")]
mod http_retry;
#[cfg(feature = "plugin")]
mod http_reused_connections;
#[cfg(feature = "server")]
mod http_server;
#[cfg(feature = "http")]
mod http_threads;
#[cfg(feature = "http")]
mod http_timeouts;
#[cfg(feature = "cli")]
mod import_collections_cli;
mod json_conformance;
mod json_deep_nesting;
mod json_duplicate_keys;
mod json_errors;
mod json_numbers;
mod json_round_trip;
mod json_value;
#[cfg(feature = "plugin")]
mod long_running_operations;
#[cfg(feature = "mcp")]
mod mcp_batch;
#[cfg(all(feature = "mcp", feature = "plugin"))]
mod mcp_calls;
#[cfg(feature = "cli")]
mod mcp_cli;
#[cfg(all(feature = "mcp", feature = "plugin", feature = "server"))]
mod mcp_consent;
#[cfg(feature = "mcp")]
mod mcp_hostile;
#[cfg(feature = "mcp")]
mod mcp_hostile_clients;
#[cfg(all(feature = "mcp", feature = "plugin", feature = "server"))]
mod mcp_http;
#[cfg(feature = "cli")]
mod mcp_http_cli;
#[cfg(all(feature = "mcp", feature = "plugin", feature = "server"))]
mod mcp_http_oauth;
#[cfg(all(feature = "mcp", feature = "plugin", feature = "server"))]
mod mcp_http_oidc_provider;
#[cfg(feature = "plugin")]
mod mcp_plugin_fields;
#[cfg(all(feature = "mcp", feature = "plugin"))]
mod mcp_protocol;
#[cfg(feature = "mcp")]
mod mcp_stateless;
#[cfg(all(feature = "mcp", feature = "plugin", feature = "openapi"))]
mod mcp_structured_results;
#[cfg(feature = "openapi")]
mod openapi_aws_sigv4;
#[cfg(feature = "cli")]
mod openapi_cli;
#[cfg(all(feature = "openapi", feature = "yaml"))]
mod openapi_compile_threads;
#[cfg(all(feature = "openapi", feature = "plugin"))]
mod openapi_credential_variables;
#[cfg(all(feature = "openapi", feature = "plugin"))]
mod openapi_document_text;
#[cfg(feature = "cli")]
mod openapi_external_files;
#[cfg(feature = "openapi")]
mod openapi_hostile;
#[cfg(feature = "openapi")]
mod openapi_import;
#[cfg(all(feature = "openapi", feature = "plugin"))]
mod openapi_keyword_caps;
#[cfg(feature = "plugin")]
mod openapi_plugin_fields;
#[cfg(feature = "openapi")]
mod openapi_prism;
#[cfg(all(feature = "openapi", feature = "yaml"))]
mod openapi_real_world;
#[cfg(all(feature = "openapi", feature = "plugin"))]
mod openapi_refused_operations;
#[cfg(all(feature = "openapi", feature = "plugin"))]
mod openapi_security_requirements;
#[cfg(all(feature = "openapi", feature = "plugin"))]
mod openapi_servers;
#[cfg(feature = "openapi")]
mod openapi_shared_schemas;
#[cfg(all(feature = "openapi", feature = "yaml"))]
mod openapi_threads;
#[cfg(feature = "plugin")]
mod option_names;
#[cfg(feature = "plugin")]
mod paged_lists;
#[cfg(feature = "plugin")]
mod plugin_aws_sigv4;
#[cfg(feature = "plugin")]
mod plugin_consent;
#[cfg(feature = "plugin")]
mod plugin_deferred;
#[cfg(feature = "plugin")]
mod plugin_digest;
#[cfg(feature = "plugin")]
mod plugin_encoding;
#[cfg(all(feature = "plugin", feature = "curl"))]
mod plugin_endpoint_auth;
#[cfg(all(feature = "plugin", feature = "curl"))]
mod plugin_endpoint_headers;
#[cfg(feature = "plugin")]
mod plugin_file;
#[cfg(feature = "plugin")]
mod plugin_hostile;
#[cfg(feature = "plugin")]
mod plugin_large;
#[cfg(feature = "plugin")]
mod plugin_loopback;
#[cfg(feature = "plugin")]
mod plugin_modules;
#[cfg(all(feature = "curl", feature = "openapi"))]
mod plugin_oauth;
#[cfg(feature = "plugin")]
mod plugin_oauth_mock;
#[cfg(feature = "plugin")]
mod plugin_path_values;
#[cfg(feature = "plugin")]
mod plugin_pipeline;
#[cfg(feature = "plugin")]
mod plugin_results;
#[cfg(feature = "plugin")]
mod plugin_schema_params;
#[cfg(feature = "plugin")]
mod plugin_secrets;
#[cfg(feature = "postman")]
mod postman_auth_and_hosts;
#[cfg(feature = "postman")]
mod postman_credentials_per_host;
#[cfg(feature = "postman")]
mod postman_import;
#[cfg(feature = "postman")]
mod postman_url_variables;
#[cfg(feature = "cli")]
mod shaped_responses;
#[cfg(feature = "tls")]
mod tls_client;
#[cfg(feature = "tls")]
mod tls_proxy;
#[cfg(feature = "tls")]
mod tls_reused_connections;
#[cfg(feature = "curl")]
mod token_names;
#[cfg(feature = "tool")]
mod tool_anthropic;
#[cfg(feature = "tool")]
mod tool_gemini;
#[cfg(feature = "tool")]
mod tool_mcp;
#[cfg(feature = "tool")]
mod tool_openai;
#[cfg(feature = "tool")]
mod tool_registry;
#[cfg(feature = "tool")]
mod tool_robustness;
mod url_parse;
mod url_resolve;
#[cfg(feature = "yaml")]
mod yaml_conformance;
#[cfg(feature = "yaml")]
mod yaml_hostile;
#[cfg(feature = "yaml")]
mod yaml_parse;
