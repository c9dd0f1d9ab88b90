//! The weather example the tests describe: a tool spec (`get_weather`, a city and a number of
//! days) and a plugin file for the same API (`getWeather` on `/v1/weather`, bearer auth).

#[cfg(feature = "tool")]
use httptool::json;
#[cfg(feature = "tool")]
use httptool::tool::ToolSpec;

/// The weather tool spec named `name`: a required `city`, `days` with a default, nothing else.
#[cfg(feature = "tool")]
pub fn spec(name: &str) -> ToolSpec {
    ToolSpec::new(
        name,
        "Current weather for a city",
        json!({
            "type": "object",
            "properties": {
                "city": { "type": "string", "description": "City name" },
                "days": { "type": "integer", "default": 1 }
            },
            "required": ["city"],
            "additionalProperties": false
        }),
    )
    .unwrap()
}

/// The token of [`plugin`]'s bearer auth.
pub const TOKEN: &str = "s3cret-token";

/// The weather plugin file at `base_url`, JSON: `getWeather` sends `city` as `q` and `days`
/// (default 1) in the query, with the bearer token [`TOKEN`].
pub fn plugin(base_url: &str) -> String {
    format!(
        r#"{{
  "name": "weather",
  "base_url": "{}",
  "auth": {{ "type": "bearer", "token": "{}" }},
  "endpoints": [{{
    "name": "getWeather",
    "description": "Current weather for a city",
    "path": "/v1/weather",
    "params": [
      {{ "name": "city", "wire_name": "q", "in": "query", "required": true }},
      {{ "name": "days", "in": "query", "type": "integer", "default": 1 }}
    ]
  }}]
}}"#,
        base_url, TOKEN
    )
}

/// [`plugin`] as YAML.
pub fn plugin_yaml(base_url: &str) -> String {
    format!(
        "\
# The weather plugin, as YAML.
name: weather
base_url: {}
auth: {{type: bearer, token: {}}}
endpoints:
  - name: getWeather
    description: Current weather for a city
    path: /v1/weather
    params:
      - {{name: city, wire_name: q, in: query, required: true}}
      - name: days
        in: query
        type: integer
        default: 1
",
        base_url, TOKEN
    )
}
