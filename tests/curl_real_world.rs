//! Commands in the shapes people paste: browser "Copy as cURL" output and API documentation.
//! Each was written for this table in the style of its source (tokens and hosts are made up).

use std::time::Duration;

use httptool::curl::{self, Auth, CurlCommand, DataKind, ErrorKind, FormValue};

fn parse(command: &str) -> CurlCommand {
    match curl::parse(command) {
        Ok(cmd) => cmd,
        Err(err) => panic!("{:?} failed: {}", command, err),
    }
}

fn header_names(cmd: &CurlCommand) -> Vec<&str> {
    cmd.headers().iter().map(|h| h.name()).collect()
}

/// One named test per row: the command, then what must hold for it.
macro_rules! real_world {
    ($($name:ident: $command:expr => |$cmd:ident| $check:block)*) => {
        $(
            #[test]
            fn $name() {
                let $cmd = parse($command);
                $check
            }
        )*
    };
}

real_world! {
    chrome_graphql_post: r#"curl 'https://app.example.com/api/graphql' \
  -H 'accept: */*' \
  -H 'accept-language: en-US,en;q=0.9' \
  -H 'content-type: application/json' \
  -b 'sid=8f2c1d; theme=dark' \
  -H 'origin: https://app.example.com' \
  -H 'priority: u=1, i' \
  -H 'referer: https://app.example.com/board/42' \
  -H 'sec-ch-ua: "Chromium";v="124", "Google Chrome";v="124", "Not-A.Brand";v="99"' \
  -H 'sec-ch-ua-mobile: ?0' \
  -H 'sec-ch-ua-platform: "macOS"' \
  -H 'user-agent: Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36' \
  --data-raw $'{"operationName":"Rename","variables":{"id":42,"title":"Sam\'s board \u2013 Q3"},"query":"mutation Rename($id: ID!, $title: String!) { rename(id: $id, title: $title) { id } }"}'"# => |cmd| {
        assert_eq!(cmd.method(), "POST");
        assert_eq!(cmd.url(), "https://app.example.com/api/graphql");
        assert_eq!(cmd.headers().len(), 10);
        assert_eq!(cmd.header("sec-ch-ua-platform"), Some("\"macOS\""));
        assert_eq!(cmd.cookies(), ["sid=8f2c1d; theme=dark"]);
        assert_eq!(cmd.data().len(), 1);
        assert_eq!(cmd.data()[0].kind(), DataKind::Raw);
        let body = cmd.data()[0].text().unwrap_or_default();
        assert!(body.contains("\"title\":\"Sam's board \u{2013} Q3\""), "{}", body);
        assert!(body.contains("mutation Rename($id: ID!"), "{}", body);
        assert!(cmd.notes().is_empty());
    }

    chrome_get_with_compressed: "curl 'https://news.example.com/api/v2/stories?page=2&per_page=30' \\\n  -H 'accept: application/json' \\\n  -H 'accept-encoding: gzip, deflate, br, zstd' \\\n  -H 'cookie: _ga=GA1.1.1; session=eyJhbGciOi' \\\n  -H 'user-agent: Mozilla/5.0' \\\n  --compressed" => |cmd| {
        assert_eq!(cmd.method(), "GET");
        assert_eq!(cmd.raw_query(), Some("page=2&per_page=30"));
        assert!(cmd.compressed());
        assert_eq!(cmd.header("Cookie"), Some("_ga=GA1.1.1; session=eyJhbGciOi"));
        assert!(cmd.data().is_empty());
    }

    chrome_multipart_as_raw_data: "curl 'https://forms.example.com/submit' \\\n  -H 'content-type: multipart/form-data; boundary=----WebKitFormBoundaryq1w2e3' \\\n  --data-raw $'------WebKitFormBoundaryq1w2e3\\r\\nContent-Disposition: form-data; name=\"title\"\\r\\n\\r\\nHello\\r\\n------WebKitFormBoundaryq1w2e3--\\r\\n'" => |cmd| {
        assert_eq!(cmd.method(), "POST");
        let body = cmd.data()[0].text().unwrap_or_default();
        assert!(body.starts_with("------WebKitFormBoundaryq1w2e3\r\nContent-Disposition"));
        assert!(body.ends_with("--\r\n"));
        assert!(cmd.form().is_empty());
    }

    chrome_latin1_escape_keeps_the_byte: "curl 'https://x.example.com/q' --data-raw $'name=Jos\\xe9'" => |cmd| {
        // Chrome writes U+00E9 as \xe9; bash and curl send the single byte 0xE9.
        assert_eq!(cmd.data()[0].inline(), Some(&b"name=Jos\xe9"[..]));
        assert_eq!(cmd.data()[0].text(), None);
    }

    firefox_form_post: "curl 'https://shop.example.org/cart/add' -X POST -H 'User-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0' -H 'Accept: application/json, text/javascript, */*; q=0.01' -H 'Accept-Language: en-US,en;q=0.5' -H 'Accept-Encoding: gzip, deflate, br' -H 'Content-Type: application/x-www-form-urlencoded; charset=UTF-8' -H 'X-Requested-With: XMLHttpRequest' -H 'Origin: https://shop.example.org' -H 'Connection: keep-alive' -H 'Referer: https://shop.example.org/p/ab-12' -H 'Cookie: cart=7; sess=Zm9vYmFy' -H 'Sec-Fetch-Dest: empty' -H 'Sec-Fetch-Mode: cors' -H 'Sec-Fetch-Site: same-origin' -H 'TE: trailers' --data-raw 'sku=AB-12&qty=2'" => |cmd| {
        assert_eq!(cmd.method(), "POST");
        assert!(cmd.method_is_explicit());
        assert_eq!(cmd.headers().len(), 14);
        assert_eq!(header_names(&cmd)[0], "User-Agent");
        assert_eq!(cmd.header("te"), Some("trailers"));
        assert_eq!(cmd.data()[0].text(), Some("sku=AB-12&qty=2"));
    }

    firefox_get_with_globoff: "curl 'https://search.example.org/api?filter[tags][]=rust&sort=-stars' --globoff -H 'Accept: application/json'" => |cmd| {
        assert_eq!(cmd.method(), "GET");
        assert_eq!(cmd.raw_query(), Some("filter[tags][]=rust&sort=-stars"));
        assert!(cmd.notes().is_empty());
    }

    github_create_issue: r#"curl -L \
  -X POST \
  -H "Accept: application/vnd.github+json" \
  -H "Authorization: Bearer ghp_exampletoken0000" \
  -H "X-GitHub-Api-Version: 2022-11-28" \
  https://api.github.com/repos/octo-org/hello/issues \
  -d '{"title":"Found a bug","body":"I'\''m having a problem with this.","labels":["bug"]}'"# => |cmd| {
        assert_eq!(cmd.method(), "POST");
        assert!(cmd.location());
        assert_eq!(cmd.url(), "https://api.github.com/repos/octo-org/hello/issues");
        assert_eq!(header_names(&cmd), ["Accept", "Authorization", "X-GitHub-Api-Version"]);
        assert_eq!(
            cmd.data()[0].text(),
            Some(r#"{"title":"Found a bug","body":"I'm having a problem with this.","labels":["bug"]}"#)
        );
        assert_eq!(cmd.data()[0].arg_index(), 11);
    }

    stripe_create_charge: "curl https://api.stripe.com/v1/charges \\\n  -u sk_test_51Example000: \\\n  -d amount=2000 \\\n  -d currency=usd \\\n  -d \"metadata[order_id]\"=6735 \\\n  -d description=\"My First Test Charge\"" => |cmd| {
        assert_eq!(cmd.method(), "POST");
        let auth = Auth::Basic { user: "sk_test_51Example000".to_owned(), password: Some(String::new()) };
        assert_eq!(cmd.auth(), Some(&auth));
        let parts: Vec<&str> = cmd.data().iter().filter_map(|p| p.text()).collect();
        assert_eq!(parts, ["amount=2000", "currency=usd", "metadata[order_id]=6735", "description=My First Test Charge"]);
        assert!(cmd.notes().is_empty());
    }

    stripe_list_with_get: "curl -G https://api.stripe.com/v1/customers \\\n  -u sk_test_51Example000: \\\n  -d limit=3 \\\n  --data-urlencode 'email=ada@example.com'" => |cmd| {
        assert_eq!(cmd.method(), "GET");
        assert!(cmd.get());
        assert_eq!(cmd.data()[1].kind(), DataKind::UrlEncode);
        assert_eq!(cmd.data()[1].name(), Some("email"));
        assert_eq!(cmd.data()[1].text(), Some("ada@example.com"));
    }

    openai_chat_with_json: r#"curl https://api.openai.com/v1/chat/completions \
  -H "Authorization: Bearer sk-proj-example000" \
  --json '{
    "model": "gpt-4o-mini",
    "messages": [{"role": "user", "content": "Say \"hi\""}],
    "temperature": 0.2
  }'"# => |cmd| {
        assert_eq!(cmd.method(), "POST");
        assert_eq!(header_names(&cmd), ["Authorization", "Content-Type", "Accept"]);
        assert_eq!(cmd.data()[0].kind(), DataKind::Json);
        let body = cmd.data()[0].text().unwrap_or_default();
        assert!(body.contains("\"content\": \"Say \\\"hi\\\"\""), "{}", body);
        assert!(body.contains('\n'));
    }

    openai_chat_with_data: r#"curl https://api.openai.com/v1/embeddings \
  -H "Content-Type: application/json" \
  -H "Authorization: Bearer sk-proj-example000" \
  -d '{"input": "The food was delicious", "model": "text-embedding-3-small"}'"# => |cmd| {
        assert_eq!(cmd.method(), "POST");
        assert_eq!(cmd.data()[0].kind(), DataKind::Data);
        assert_eq!(cmd.header("content-type"), Some("application/json"));
        assert_eq!(cmd.headers().len(), 2);
    }

    slack_webhook: r#"curl -X POST -H 'Content-type: application/json' --data '{"text":"Deploy finished :rocket:"}' https://hooks.slack.com/services/T0000/B0000/XXXXXXXX"# => |cmd| {
        assert_eq!(cmd.method(), "POST");
        assert_eq!(cmd.url(), "https://hooks.slack.com/services/T0000/B0000/XXXXXXXX");
        assert_eq!(cmd.data()[0].text(), Some(r#"{"text":"Deploy finished :rocket:"}"#));
    }

    twilio_send_sms: "curl -X POST \"https://api.twilio.com/2010-04-01/Accounts/AC0000/Messages.json\" \\\n--data-urlencode \"Body=Hi there & welcome\" \\\n--data-urlencode \"From=+15557122661\" \\\n--data-urlencode \"To=+15558675310\" \\\n-u AC0000:example_auth_token" => |cmd| {
        let names: Vec<Option<&str>> = cmd.data().iter().map(|p| p.name()).collect();
        assert_eq!(names, [Some("Body"), Some("From"), Some("To")]);
        assert_eq!(cmd.data()[0].text(), Some("Hi there & welcome"));
        assert!(matches!(cmd.auth(), Some(Auth::Basic { user, .. }) if user == "AC0000"));
    }

    anthropic_messages: "curl https://api.anthropic.com/v1/messages \\\n     --header \"x-api-key: sk-ant-example000\" \\\n     --header \"anthropic-version: 2023-06-01\" \\\n     --header \"content-type: application/json\" \\\n     --data \\\n'{\n    \"model\": \"claude-example\",\n    \"max_tokens\": 1024,\n    \"messages\": [{\"role\": \"user\", \"content\": \"Hello, world\"}]\n}'" => |cmd| {
        assert_eq!(cmd.method(), "POST");
        assert_eq!(cmd.header("x-api-key"), Some("sk-ant-example000"));
        assert!(cmd.data()[0].text().unwrap_or_default().starts_with("{\n    \"model\""));
        assert!(!format!("{:?}", cmd).contains("sk-ant-example000"));
    }

    cloudflare_patch_setting: r#"curl --request PATCH \
  --url https://api.cloudflare.com/client/v4/zones/023e105f/settings/ssl \
  --header 'Authorization: Bearer cf-example-token' \
  --json '{"value": "strict"}'"# => |cmd| {
        assert_eq!(cmd.method(), "PATCH");
        assert!(cmd.method_is_explicit());
        assert_eq!(cmd.url_index(), 4);
        assert_eq!(cmd.header("accept"), Some("application/json"));
    }

    elasticsearch_get_with_body: "curl -X GET \"localhost:9200/products/_search?pretty\" -H 'Content-Type: application/json' -d'\n{\n  \"query\": { \"match\": { \"name\": \"lamp\" } }\n}\n'" => |cmd| {
        assert_eq!(cmd.method(), "GET");
        assert_eq!(cmd.url(), "http://localhost:9200/products/_search?pretty");
        assert_eq!(cmd.data().len(), 1);
    }

    docker_over_unix_socket: "curl --unix-socket /var/run/docker.sock http://localhost/v1.43/containers/json?all=1" => |cmd| {
        assert_eq!(cmd.url(), "http://localhost/v1.43/containers/json?all=1");
        assert_eq!(cmd.notes().len(), 1);
        assert_eq!(cmd.notes()[0].arg_index(), 1);
    }

    upload_with_form: "curl -H \"Authorization: Bearer up-example\" \\\n  -F \"file=@photos/sunset.jpg;type=image/jpeg\" \\\n  -F \"caption=Sunset over the bay\" \\\n  https://upload.example.com/api/v1/media" => |cmd| {
        assert_eq!(cmd.method(), "POST");
        assert_eq!(cmd.form()[0].value(), &FormValue::File("photos/sunset.jpg".to_owned()));
        assert_eq!(cmd.form()[0].content_type(), Some("image/jpeg"));
        assert_eq!(cmd.form()[1].text(), Some("Sunset over the bay"));
        assert_eq!(cmd.notes().len(), 1);
    }

    binary_upload_from_file: "curl --data-binary @payload.bin -H 'Content-Type: application/octet-stream' https://ingest.example.com/upload" => |cmd| {
        assert_eq!(cmd.data()[0].file(), Some("payload.bin"));
        assert_eq!(cmd.notes().len(), 1);
    }

    docs_with_prompt_and_flags: "$ curl -sS -i --max-time 10 --connect-timeout 2.5 --retry 3 https://api.example.com/health" => |cmd| {
        assert_eq!(cmd.max_time(), Some(Duration::from_secs(10)));
        assert_eq!(cmd.connect_timeout(), Some(Duration::from_millis(2500)));
        assert_eq!(cmd.notes().len(), 1);
    }

    docs_with_unquoted_url: "curl https://api.example.com/v1/search?q=lamp" => |cmd| {
        assert_eq!(cmd.raw_query(), Some("q=lamp"));
    }

    httpie_style_put_with_user: "curl -X PUT -u admin:correct-horse https://cms.example.com/api/pages/7 -H 'If-Match: \"abc\"' -d 'title=New'" => |cmd| {
        assert_eq!(cmd.method(), "PUT");
        assert_eq!(cmd.header("if-match"), Some("\"abc\""));
    }

    chrome_head_request: "curl -I 'https://cdn.example.com/app.js' -H 'cache-control: no-cache'" => |cmd| {
        assert_eq!(cmd.method(), "HEAD");
    }
}

#[test]
fn docs_with_environment_variables_name_them() {
    let cmd = curl::parse(
        "curl https://api.openai.com/v1/models \\\n  -H \"Authorization: Bearer $OPENAI_API_KEY\"",
    )
    .unwrap_or_else(|e| panic!("{}", e));
    assert_eq!(cmd.variables(), ["OPENAI_API_KEY"]);
    assert_eq!(
        cmd.header("Authorization"),
        Some("Bearer ${OPENAI_API_KEY}")
    );
}

#[test]
fn chrome_cmd_copy_is_refused_with_a_hint() {
    let command = "curl \"https://app.example.com/api\" ^\n  -H \"accept: */*\" ^\n  --compressed";
    let err = curl::parse(command).map(|c| c.url().to_owned());
    let err = err.err().map(|e| (e.kind(), e.to_string()));
    let (kind, message) = err.unwrap_or((ErrorKind::Empty, String::new()));
    assert_eq!(kind, ErrorKind::UnsupportedShell);
    assert!(message.contains("Copy as cURL (bash)"), "{}", message);
}

#[test]
fn docs_piping_into_jq_are_refused() {
    let err = curl::parse("curl -s https://api.example.com/v1/items | jq '.items[]'");
    assert_eq!(
        err.map_err(|e| e.kind()).err(),
        Some(ErrorKind::UnsupportedShell)
    );
}
