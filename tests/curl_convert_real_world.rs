//! Real-world commands into tools: browser "Copy as cURL" (Chrome, Firefox), Postman, and
//! the API docs of well-known services. Each command was written for this table in the
//! style of its source (tokens, ids and hosts are made up). Every row checks the tool's
//! name and shape, where credentials went, and the request its sample arguments send.

use httptool::curl::{self, Import, ImportOptions};
use httptool::http::{Method, Request};
use httptool::json::Json;
use httptool::plugin::{Auth, Location, Param};
use httptool::tool::CallContext;

fn convert(command: &str) -> Import {
    let cmd = curl::parse(command).unwrap_or_else(|e| panic!("{}", e));
    curl::to_plugin_with(&cmd, &ImportOptions::new()).unwrap_or_else(|e| panic!("{}", e))
}

fn params(import: &Import) -> Vec<(&str, Location)> {
    let endpoint = import.plugin().endpoints().next().unwrap();
    endpoint
        .params()
        .iter()
        .map(|p| (p.name(), p.location()))
        .collect()
}

fn variables(import: &Import) -> Vec<&str> {
    import.variables().iter().map(|v| v.name()).collect()
}

fn replay(import: &Import) -> Request {
    let arguments = Json::Object(import.sample_arguments().clone()).to_string();
    import
        .plugin()
        .dry_run(import.tool_name(), &arguments, &CallContext::new())
        .unwrap_or_else(|o| panic!("{}", o.text()))
        .into_request()
}

fn dropped(import: &Import) -> Vec<String> {
    import
        .notes()
        .iter()
        .filter_map(|n| {
            let rest = n.message().strip_prefix("header `")?;
            Some(rest.split('`').next()?.to_string())
        })
        .collect()
}

/// The spec the model reads never holds a credential.
fn assert_no_secret_in_spec(import: &Import, secrets: &[&str]) {
    let spec = import.plugin().specs()[0].parameters().to_string();
    let file = import.plugin().to_json().to_string();
    for secret in secrets {
        assert!(!spec.contains(secret), "{} in the spec {}", secret, spec);
        assert!(!file.contains(secret), "{} in the file {}", secret, file);
    }
}

macro_rules! real_world {
    ($($name:ident: $command:expr => |$import:ident| $check:block)*) => {
        $(
            #[test]
            fn $name() {
                let $import = convert($command);
                $check
            }
        )*
    };
}

real_world! {
    chrome_get_with_cookies_and_client_hints: r#"curl 'https://app.example.com/api/v3/boards/42/cards?limit=50&cursor=eyJpZCI6MTB9' \
  -H 'accept: application/json, text/plain, */*' \
  -H 'accept-language: en-US,en;q=0.9' \
  -H 'cookie: _ga=GA1.1.123; session=s%3Aabc.def' \
  -H 'priority: u=1, i' \
  -H 'referer: https://app.example.com/boards/42' \
  -H 'sec-ch-ua: "Chromium";v="124", "Google Chrome";v="124"' \
  -H 'sec-ch-ua-mobile: ?0' \
  -H 'sec-ch-ua-platform: "macOS"' \
  -H 'sec-fetch-dest: empty' \
  -H 'sec-fetch-mode: cors' \
  -H 'sec-fetch-site: same-origin' \
  -H 'user-agent: Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36' \
  -H 'x-csrf-token: 9f8e7d6c'"# => |import| {
        assert_eq!(import.plugin().name(), "example");
        assert_eq!(import.plugin().base_url().as_str(), "https://app.example.com/api/v3");
        assert_eq!(import.tool_name(), "list_cards");
        assert_eq!(params(&import), [("limit", Location::Query), ("cursor", Location::Query)]);
        assert_eq!(dropped(&import).len(), 7);
        assert_eq!(variables(&import), ["EXAMPLE_COOKIE", "EXAMPLE_X_CSRF_TOKEN"]);
        assert!(matches!(import.plugin().auth(), Some(Auth::Header { name, .. }) if name == "x-csrf-token"));
        let request = replay(&import);
        assert_eq!(request.url().as_str(), "https://app.example.com/api/v3/boards/42/cards?limit=50&cursor=eyJpZCI6MTB9");
        assert_eq!(request.headers().get("referer"), Some("https://app.example.com/boards/42"));
        assert_no_secret_in_spec(&import, &["s%3Aabc", "9f8e7d6c"]);
    }

    chrome_graphql_mutation: r#"curl 'https://app.example.com/graphql' \
  -H 'content-type: application/json' \
  -H 'origin: https://app.example.com' \
  -b 'sid=8f2c1d' \
  --data-raw $'{"operationName":"Rename","variables":{"id":42,"title":"Sam\'s board"},"query":"mutation Rename($id: ID!, $title: String!) { rename(id: $id, title: $title) { id } }"}'"# => |import| {
        assert_eq!(import.tool_name(), "create_graphql");
        assert_eq!(
            params(&import),
            [("operationName", Location::Body), ("variables", Location::Body), ("query", Location::Body)]
        );
        let body = String::from_utf8(replay(&import).body().to_vec()).unwrap();
        assert!(body.contains(r#""variables":{"id":42,"title":"Sam's board"}"#), "{}", body);
    }

    firefox_post_with_te_and_compressed: r#"curl 'https://shop.example.com/api/cart/items' --compressed -X POST -H 'User-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0' -H 'Accept: */*' -H 'Accept-Language: en-US,en;q=0.5' -H 'Accept-Encoding: gzip, deflate, br' -H 'Content-Type: application/json' -H 'Origin: https://shop.example.com' -H 'Connection: keep-alive' -H 'Sec-Fetch-Dest: empty' -H 'Sec-Fetch-Mode: cors' -H 'Sec-Fetch-Site: same-origin' -H 'TE: trailers' --data-raw '{"sku":"TEA-01","qty":2}'"# => |import| {
        assert_eq!(import.tool_name(), "create_item");
        assert_eq!(
            dropped(&import),
            ["Accept-Encoding", "Connection", "Sec-Fetch-Dest", "Sec-Fetch-Mode", "Sec-Fetch-Site", "TE"]
        );
        let headers: Vec<&str> = import.plugin().headers().map(|(n, _)| n).collect();
        assert_eq!(headers, ["User-Agent", "Accept", "Accept-Language", "Content-Type", "Origin"]);
        assert_eq!(replay(&import).body(), br#"{"sku":"TEA-01","qty":2}"#);
    }

    postman_export_with_its_token: r#"curl --location 'https://api.example.com/v2/orders' \
--header 'Content-Type: application/json' \
--header 'Postman-Token: 1d2c3b4a-0000-1111-2222-333344445555' \
--header 'Authorization: Bearer pm-t0ken' \
--data '{
    "customer_id": 77,
    "items": [{"sku": "A", "qty": 1}],
    "note": null
}'"# => |import| {
        assert_eq!(import.tool_name(), "create_order");
        assert_eq!(dropped(&import), ["Postman-Token"]);
        assert_eq!(variables(&import), ["EXAMPLE_TOKEN"]);
        assert_eq!(replay(&import).body(), br#"{"customer_id":77,"items":[{"sku":"A","qty":1}]}"#);
        assert!(import.notes().iter().any(|n| n.message().contains("`note` is null")));
    }

    github_create_issue: r#"curl -L \
  -X POST \
  -H "Accept: application/vnd.github+json" \
  -H "Authorization: Bearer ghp_16C7e42F292c6912E7710c838347Ae178B4a" \
  -H "X-GitHub-Api-Version: 2022-11-28" \
  https://api.github.com/repos/OWNER/REPO/issues \
  -d '{"title":"Found a bug","body":"I'\''m having a problem with this.","assignees":["octocat"],"milestone":1,"labels":["bug"]}'"# => |import| {
        assert_eq!(import.plugin().name(), "github");
        assert_eq!(import.tool_name(), "create_issue");
        assert_eq!(variables(&import), ["GITHUB_TOKEN"]);
        assert_eq!(params(&import).len(), 5);
        // No Content-Type in the docs: curl labels the JSON as a form, and so does the tool.
        assert_eq!(replay(&import).headers().get("content-type"), Some("application/x-www-form-urlencoded"));
        assert_no_secret_in_spec(&import, &["ghp_16C7e42F292c6912E7710c838347Ae178B4a"]);
    }

    stripe_create_customer: r#"curl https://api.stripe.com/v1/customers \
  -u "sk_test_4eC39HqLyjWDarjtT1zdp7dc:" \
  -d email="jenny.rosen@example.com" \
  -d name="Jenny Rosen" \
  -d "metadata[plan]"=pro \
  -d "expand[]"=tax \
  -d "expand[]"=invoice_settings"# => |import| {
        assert_eq!(import.plugin().name(), "stripe");
        assert_eq!(import.plugin().base_url().as_str(), "https://api.stripe.com/v1");
        assert_eq!(import.tool_name(), "create_customer");
        assert_eq!(
            params(&import),
            [("email", Location::Form), ("name", Location::Form), ("metadata_plan", Location::Form), ("expand", Location::Form)]
        );
        assert_eq!(variables(&import), ["STRIPE_USERNAME"]);
        assert_eq!(
            replay(&import).body(),
            b"email=jenny.rosen%40example.com&name=Jenny+Rosen&metadata%5Bplan%5D=pro&expand%5B%5D=tax&expand%5B%5D=invoice_settings"
        );
    }

    openai_chat_completion: r#"curl https://api.openai.com/v1/chat/completions \
  -H "Content-Type: application/json" \
  -H "Authorization: Bearer sk-proj-Ab12Cd34Ef56Gh78" \
  -d '{
    "model": "gpt-4o-mini",
    "messages": [
      {"role": "system", "content": "You are a helpful assistant."},
      {"role": "user", "content": "Hello!"}
    ],
    "temperature": 0.7,
    "max_tokens": 256
  }'"# => |import| {
        assert_eq!(import.plugin().name(), "openai");
        assert_eq!(import.tool_name(), "create_completion");
        assert_eq!(variables(&import), ["OPENAI_TOKEN"]);
        let messages = import.plugin().endpoints().next().unwrap().param("messages").map(Param::ty).cloned();
        assert_eq!(messages.map(|t| t.as_str()), Some("array"));
        assert_eq!(
            replay(&import).body(),
            br#"{"model":"gpt-4o-mini","messages":[{"role":"system","content":"You are a helpful assistant."},{"role":"user","content":"Hello!"}],"temperature":0.7,"max_tokens":256}"#
        );
    }

    anthropic_messages: r#"curl https://api.anthropic.com/v1/messages \
     --header "x-api-key: sk-ant-api03-AbCdEfGh" \
     --header "anthropic-version: 2023-06-01" \
     --header "content-type: application/json" \
     --data \
'{
    "model": "claude-sonnet-4-20250514",
    "max_tokens": 1024,
    "messages": [
        {"role": "user", "content": "Hello, world"}
    ]
}'"# => |import| {
        assert_eq!(import.plugin().name(), "anthropic");
        assert_eq!(import.tool_name(), "create_message");
        assert!(matches!(import.plugin().auth(), Some(Auth::Header { name, .. }) if name == "x-api-key"));
        assert_eq!(variables(&import), ["ANTHROPIC_X_API_KEY"]);
        let headers: Vec<&str> = import.plugin().headers().map(|(n, _)| n).collect();
        assert_eq!(headers, ["anthropic-version", "content-type"]);
    }

    gemini_with_a_key_in_the_query: r#"curl "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent?key=AIzaSyD-abcdefghijklmnopqrstuvwx" \
  -H 'Content-Type: application/json' \
  -X POST \
  -d '{"contents": [{"parts": [{"text": "Explain how AI works"}]}]}'"# => |import| {
        assert_eq!(import.plugin().name(), "googleapis");
        assert_eq!(import.plugin().base_url().as_str(), "https://generativelanguage.googleapis.com/v1beta");
        assert_eq!(import.tool_name(), "generate_content");
        assert!(matches!(import.plugin().auth(), Some(Auth::Query { name, .. }) if name == "key"));
        assert_eq!(params(&import), [("contents", Location::Body)]);
        assert_eq!(replay(&import).redacted_url(), "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent?key=***");
    }

    azure_openai_with_api_version: r#"curl "https://my-resource.openai.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2024-02-01" \
  -H "Content-Type: application/json" \
  -H "api-key: 0123456789abcdef0123456789abcdef" \
  -d '{"messages":[{"role":"user","content":"Hi"}]}'"# => |import| {
        assert_eq!(import.plugin().name(), "azure");
        assert_eq!(params(&import), [("api-version", Location::Query), ("messages", Location::Body)]);
        assert!(matches!(import.plugin().auth(), Some(Auth::Header { name, .. }) if name == "api-key"));
    }

    slack_incoming_webhook: r#"curl -X POST -H 'Content-type: application/json' --data '{"text":"Hello, World!"}' https://hooks.slack.com/services/T00000000/B00000000/aB3dE5fG7hJ9kL1mN3pQ5rS7"# => |import| {
        assert_eq!(import.plugin().name(), "slack");
        assert_eq!(import.tool_name(), "post_service");
        assert!(import.notes().iter().any(|n| n.message().contains("looks like a secret token")));
        assert_eq!(replay(&import).body(), br#"{"text":"Hello, World!"}"#);
    }

    slack_web_api_form_parts: r#"curl -F channel=C0123456789 -F 'text=Deploy *done* :rocket:' -H "Authorization: Bearer xoxb-1234-5678-AbCdEf" https://slack.com/api/chat.postMessage"# => |import| {
        assert_eq!(import.tool_name(), "chat_post_message");
        assert_eq!(params(&import), [("channel", Location::Form), ("text", Location::Form)]);
        assert_eq!(variables(&import), ["SLACK_TOKEN"]);
        let content_type = replay(&import).headers().get("content-type").unwrap_or("").to_string();
        assert!(content_type.starts_with("multipart/form-data; boundary="), "{}", content_type);
    }

    twilio_send_sms: r#"curl -X POST "https://api.twilio.com/2010-04-01/Accounts/AC0123456789abcdef0123456789abcdef/Messages.json" \
--data-urlencode "Body=Hi there, it's 5 o'clock" \
--data-urlencode "From=+15557122661" \
--data-urlencode "To=+15558675310" \
-u AC0123456789abcdef0123456789abcdef:your_auth_token"# => |import| {
        assert_eq!(import.plugin().base_url().as_str(), "https://api.twilio.com/2010-04-01");
        assert_eq!(import.tool_name(), "create_message");
        assert_eq!(params(&import), [("Body", Location::Form), ("From", Location::Form), ("To", Location::Form)]);
        assert_eq!(variables(&import), ["TWILIO_USERNAME", "TWILIO_PASSWORD"]);
        assert_eq!(
            replay(&import).body(),
            b"Body=Hi+there%2C+it%27s+5+o%27clock&From=%2B15557122661&To=%2B15558675310"
        );
    }

    mailgun_multipart_message: r#"curl -s --user 'api:key-3ax6xnjp29jd6fds4gc373sgvjxteol0' \
    https://api.mailgun.net/v3/mg.example.com/messages \
    -F from='Excited User <mailgun@mg.example.com>' \
    -F to=ann@example.com \
    -F to=bob@example.com \
    -F subject='Hello' \
    -F text='Testing some Mailgun awesomeness!' \
    -F attachment=@files/cartman.jpg"# => |import| {
        assert_eq!(import.plugin().name(), "mailgun");
        assert_eq!(import.tool_name(), "create_message");
        let endpoint = import.plugin().endpoints().next().unwrap();
        assert!(endpoint.param("attachment").unwrap().is_file());
        assert_eq!(endpoint.param("to").unwrap().ty().as_str(), "array");
        assert_eq!(import.sample_arguments().get("attachment").and_then(Json::as_str), Some("files/cartman.jpg"));
    }

    cloudflare_purge_with_two_keys: r#"curl -X DELETE "https://api.cloudflare.com/client/v4/zones/023e105f4ecef8ad9ca31a8372d0c353/dns_records/372e67954025e0ba6aaa6d586b9e0b59" \
     -H "X-Auth-Email: user@example.com" \
     -H "X-Auth-Key: c2547eb745079dac9320b638f5e225cf483cc5cfdda41""# => |import| {
        assert_eq!(import.plugin().base_url().as_str(), "https://api.cloudflare.com/");
        assert_eq!(import.tool_name(), "delete_dns_record");
        // Both names hold `auth`: the first takes the slot, the second is a secret parameter.
        assert!(matches!(import.plugin().auth(), Some(Auth::Header { name, .. }) if name == "X-Auth-Email"));
        let key = import.plugin().endpoints().next().unwrap().param("X-Auth-Key").unwrap();
        assert!(key.is_secret());
        assert_eq!(replay(&import).method(), Method::Delete);
        assert_no_secret_in_spec(&import, &["c2547eb745079dac"]);
    }

    shopify_admin_graphql_token: r#"curl -X POST https://shop.example.com/admin/api/2024-01/graphql.json -H 'Content-Type: application/json' -H 'X-Shopify-Access-Token: shpat_0123456789abcdef' -d '{"query": "{ shop { name } }"}'"# => |import| {
        assert_eq!(import.tool_name(), "create_graphql");
        assert_eq!(variables(&import), ["EXAMPLE_X_SHOPIFY_ACCESS_TOKEN"]);
        assert_eq!(params(&import), [("query", Location::Body)]);
    }

    json_payload_from_a_file: r#"curl -X PUT https://api.example.com/v1/settings -H 'Content-Type: application/json' -d @settings.json"# => |import| {
        assert_eq!(import.tool_name(), "update_setting");
        assert_eq!(params(&import), [("body", Location::Body)]);
        assert!(import.notes().iter().any(|n| n.message().contains("kept as an inert reference")));
    }
}

#[test]
fn docs_that_read_a_shell_variable_keep_its_name() {
    let cmd = curl::parse(
        r#"curl https://api.openai.com/v1/models -H "Authorization: Bearer $OPENAI_API_KEY""#,
    )
    .unwrap();
    let import = curl::to_plugin_with(&cmd, &ImportOptions::new()).unwrap();
    assert_eq!(variables(&import), ["OPENAI_API_KEY"]);
    assert!(import
        .plugin()
        .to_json()
        .to_string()
        .contains(r#""token":"${OPENAI_API_KEY}""#));
}

#[test]
fn elasticsearch_get_with_a_body_sends_it() {
    let cmd = curl::parse(r#"curl -X GET "localhost:9200/my-index/_search?pretty" -H 'Content-Type: application/json' -d'{"query": {"match_all": {}}}'"#).unwrap();
    let plugin = curl::to_plugin(&cmd).unwrap();
    let endpoint = plugin.endpoints().next().unwrap();
    assert!(endpoint.allow_get_body());
    assert_eq!(endpoint.method(), Method::Get);
    assert!(plugin
        .to_json()
        .to_string()
        .contains(r#""allow_get_body":true"#));
}
