//! `httptool demo`: the library's main job end to end, on an API embedded in this process.
//!
//! A small weather API listens on 127.0.0.1; a plugin declares it; the demo prints the tool
//! spec a model reads, performs model-style calls (a good one, a mistaken one, a hostile
//! one) and prints what was sent, what the API received and what the model gets back.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::process::ExitCode;
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use httptool::json::{self, Json};
use httptool::plugin::HttpPlugin;
use httptool::tool::{openai, CallContext, ToolRegistry};
use httptool::url;

use crate::args::Args;
use crate::error::CliError;
use crate::output::print_out;

const HELP: &str = "\
usage: httptool demo

Starts a small weather API on 127.0.0.1, declares it as a plugin, and shows what a model
sees and gets: the tool spec, a call and its result, a mistaken call, and a hostile call
that never reaches the API. Nothing leaves this machine.";

/// The bearer token the embedded API expects; the demo shows it masked.
const TOKEN: &str = "demo-token-5f1c";

/// One request line and whether it carried the right token, as the API saw them.
struct Seen {
    request_line: String,
    authorized: bool,
}

pub fn run(mut args: Args) -> Result<ExitCode, CliError> {
    if args.help() {
        print_out(HELP)?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(extra) = args.positionals()?.first() {
        return Err(CliError::Usage(format!(
            "demo takes no arguments, got '{}'",
            extra
        )));
    }
    let (port, seen) = start_api()?;
    // The file names the token as `${WEATHER_TOKEN}`; here it comes from the demo itself
    // rather than the environment, and it never reaches the model.
    let lookup = |name: &str| (name == "WEATHER_TOKEN").then(|| TOKEN.to_string());
    let plugin = HttpPlugin::from_json_with(&plugin_file(port), lookup)
        .map_err(|e| CliError::Failed(format!("the demo plugin does not load: {}", e)))?;
    let mut registry = ToolRegistry::new();
    registry
        .add_plugin(&plugin)
        .map_err(|e| CliError::Failed(format!("the demo plugin cannot be added: {}", e)))?;

    section("1. The API, declared once (a plugin file)")?;
    print_out(&plugin.to_json().to_pretty())?;

    section("2. What the model sees (OpenAI tools)")?;
    let tools: Vec<Json> = registry.iter_specs().map(openai::chat_tool).collect();
    print_out(&Json::from(tools).to_pretty())?;

    section("3. The model calls getWeather")?;
    let reply = model_reply(r#"{"city":"杭州","days":"2"}"#)?;
    print_out(&reply.to_pretty())?;
    let calls = openai::chat_calls(&reply)
        .map_err(|e| CliError::Failed(format!("the demo's model reply does not read: {}", e)))?;
    let call = calls
        .first()
        .ok_or_else(|| CliError::Failed("the demo's model reply holds no call".to_string()))?;

    section("4. The request httptool builds (secrets masked, nothing sent yet)")?;
    let dry_run = plugin
        .dry_run(call.name(), &call.arguments_text(), &CallContext::new())
        .map_err(|output| {
            CliError::Failed(format!("the demo call is refused: {}", output.text()))
        })?;
    // The wire has CRLF line ends; a terminal reads LF.
    print_out(dry_run.to_string().replace("\r\n", "\n").trim_end())?;

    section("5. What the API received, and what the model gets back")?;
    let output = registry.call(call);
    let received = next_seen(&seen)?;
    print_out(&format!(
        "API received: {} (bearer token {})",
        received.request_line,
        if received.authorized {
            "correct"
        } else {
            "WRONG"
        }
    ))?;
    print_out(&openai::chat_result(call, &output).to_pretty())?;
    if output.is_error() || !received.authorized {
        return Err(CliError::Failed(
            "the demo call did not succeed".to_string(),
        ));
    }

    section("6. A mistaken call: the model reads the error and can correct itself")?;
    let mistaken = registry.call(&httptool::tool::ToolCall::new(
        "call_2",
        "getWeather",
        r#"{"ctiy":"Paris"}"#,
    ));
    print_out(&format!(
        "arguments: {{\"ctiy\":\"Paris\"}}\nis_error:  {}\ntext:      {}",
        mistaken.is_error(),
        mistaken.text()
    ))?;

    section("7. A hostile call: a path value cannot leave its segment")?;
    let hostile = registry.call(&httptool::tool::ToolCall::new(
        "call_3",
        "getStation",
        r#"{"station_id":"../admin"}"#,
    ));
    print_out(&format!(
        "arguments: {{\"station_id\":\"../admin\"}}\nis_error:  {}\ntext:      {}",
        hostile.is_error(),
        hostile.text()
    ))?;
    let reached = seen.recv_timeout(Duration::from_millis(200)).is_ok();
    print_out(&format!(
        "API received: {}",
        if reached {
            "a request (unexpected!)"
        } else {
            "nothing"
        }
    ))?;
    if !mistaken.is_error() || !hostile.is_error() || reached {
        return Err(CliError::Failed(
            "the demo's refusals did not hold".to_string(),
        ));
    }
    Ok(ExitCode::SUCCESS)
}

fn section(title: &str) -> Result<(), CliError> {
    print_out(&format!("\n== {} ==", title))
}

/// The plugin file for the embedded API.
fn plugin_file(port: u16) -> String {
    format!(
        r#"{{
  "name": "weather",
  "description": "City weather from the demo API",
  "base_url": "http://127.0.0.1:{port}",
  "headers": {{ "Accept": "application/json" }},
  "auth": {{ "type": "bearer", "token": "${{WEATHER_TOKEN}}" }},
  "endpoints": [
    {{
      "name": "getWeather",
      "description": "Current weather and a forecast for a city",
      "method": "GET",
      "path": "/v1/weather",
      "params": [
        {{ "name": "city", "wire_name": "q", "in": "query", "type": "string",
          "description": "City name", "required": true }},
        {{ "name": "days", "in": "query", "type": "integer",
          "description": "Days of forecast, 1 to 7", "default": 1 }}
      ]
    }},
    {{
      "name": "getStation",
      "description": "One weather station by its id",
      "method": "GET",
      "path": "/v1/stations/{{station_id}}",
      "params": [
        {{ "name": "station_id", "in": "path", "type": "string", "required": true }}
      ]
    }}
  ]
}}"#,
        port = port
    )
}

/// A chat completion in OpenAI's shape whose message asks for one getWeather call.
fn model_reply(arguments: &str) -> Result<Json, CliError> {
    let mut arguments_json = String::new();
    json::write_str(&mut arguments_json, arguments);
    json::parse(&format!(
        r#"{{"choices": [{{"index": 0, "finish_reason": "tool_calls", "message": {{
            "role": "assistant", "content": null,
            "tool_calls": [{{"id": "call_1", "type": "function",
                "function": {{"name": "getWeather", "arguments": {}}}}}]}}}}]}}"#,
        arguments_json
    ))
    .map_err(|e| CliError::Failed(format!("the demo's model reply is not JSON: {}", e)))
}

fn next_seen(seen: &mpsc::Receiver<Seen>) -> Result<Seen, CliError> {
    seen.recv_timeout(Duration::from_secs(5))
        .map_err(|_| CliError::Failed("the embedded API saw no request".to_string()))
}

/// Starts the embedded API on an ephemeral loopback port; it lives as long as the process.
fn start_api() -> Result<(u16, mpsc::Receiver<Seen>), CliError> {
    let listener = TcpListener::bind("127.0.0.1:0")
        .map_err(|e| CliError::Failed(format!("cannot start the demo API on 127.0.0.1: {}", e)))?;
    let port = listener
        .local_addr()
        .map_err(|e| CliError::Failed(format!("cannot start the demo API: {}", e)))?
        .port();
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let tx = tx.clone();
            thread::spawn(move || serve(stream, &tx));
        }
    });
    Ok((port, rx))
}

/// Serves one keep-alive connection until the client closes it.
fn serve(stream: TcpStream, seen: &mpsc::Sender<Seen>) {
    let mut writer = match stream.try_clone() {
        Ok(writer) => writer,
        Err(_) => return,
    };
    let mut reader = BufReader::new(stream);
    loop {
        let mut request_line = String::new();
        match reader.read_line(&mut request_line) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let mut authorized = false;
        loop {
            let mut line = String::new();
            match reader.read_line(&mut line) {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some((name, value)) = line.split_once(':') {
                if name.eq_ignore_ascii_case("authorization")
                    && value.trim() == format!("Bearer {}", TOKEN)
                {
                    authorized = true;
                }
            }
        }
        let request_line = request_line.trim_end().to_string();
        let (status, body) = respond(&request_line, authorized);
        let _ = seen.send(Seen {
            request_line,
            authorized,
        });
        let head = format!(
            "HTTP/1.1 {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            status,
            body.len()
        );
        if writer.write_all(head.as_bytes()).is_err() || writer.write_all(body.as_bytes()).is_err()
        {
            return;
        }
    }
}

/// The API's answer to one request line.
fn respond(request_line: &str, authorized: bool) -> (&'static str, String) {
    if !authorized {
        return (
            "401 Unauthorized",
            r#"{"error":"a valid bearer token is required"}"#.to_string(),
        );
    }
    let target = request_line.split(' ').nth(1).unwrap_or("");
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    if path != "/v1/weather" {
        return (
            "404 Not Found",
            r#"{"error":"no such resource"}"#.to_string(),
        );
    }
    let mut city = None;
    let mut days = 1i64;
    for pair in query.split('&') {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        let value = url::percent_decode_utf8(value).unwrap_or_default();
        match name {
            "q" => city = Some(value),
            "days" => days = value.parse().unwrap_or(0),
            _ => {}
        }
    }
    let city = match city {
        Some(city) if !city.is_empty() => city,
        _ => {
            return (
                "400 Bad Request",
                r#"{"error":"the q parameter names the city"}"#.to_string(),
            )
        }
    };
    if !(1..=7).contains(&days) {
        return (
            "400 Bad Request",
            r#"{"error":"days must be between 1 and 7"}"#.to_string(),
        );
    }
    let forecast: Vec<Json> = (0..days)
        .map(|day| httptool::json!({"day": day + 1, "high_c": 22 + day, "low_c": 14 + day / 2}))
        .collect();
    let body = httptool::json!({
        "city": city,
        "temp_c": 21.5,
        "condition": "cloudy",
        "forecast": forecast
    });
    ("200 OK", body.to_string())
}
