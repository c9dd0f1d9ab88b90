//! `httptool serve`: every tool of the plugin files, served to an MCP client on standard
//! input and output, or over Streamable HTTP with `--http ADDR:PORT`.

use std::io::{self, BufReader};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::process::ExitCode;
use std::sync::Arc;

use httptool::http::{HttpServer, ServerConfig};
use httptool::mcp::{self, HttpTransport, OAuth, Server};
use httptool::plugin::HttpPlugin;
use httptool::tool::{Confirm, ToolRegistry};

use crate::args::Args;
use crate::context::call_context;
use crate::error::CliError;
use crate::load::load_plugin_for;
use crate::output::print_out;

const HELP: &str = "\
usage: httptool serve PLUGIN.json... [--openapi SPEC]... [--context KEY=VALUE] [--max-concurrency N]
       httptool serve PLUGIN.json... --http [ADDR:]PORT [--token-env VAR | --no-auth] [HTTP OPTIONS]
       httptool serve PLUGIN.json... --http [ADDR:]PORT --introspection-url URL --authorization-server URL [OAUTH OPTIONS]

Serves every tool of the plugin files as a Model Context Protocol server (revision
2026-07-28, no handshake; and 2025-11-25, 2025-06-18, 2025-03-26 and 2024-11-05 through
initialize) on standard input and output: JSON-RPC messages, one a line. Nothing else is written to standard output. It runs until
standard input ends, then waits up to 5 s for calls in flight. Tool names must be unique
across the files. Plugin files (JSON or YAML) read ${NAME} from the environment; an
OpenAPI document (JSON or YAML) is imported as `import openapi` does, and every credential
variable it names must be set.

  --openapi SPEC        an OpenAPI document to serve (also accepted as a plain argument);
                        repeatable

  --context K=V         a per-call context value every call gets (a user's token, a
                        tenant id); repeatable
  --max-concurrency N   tool calls running at once (default 8)
  --confirm POLICY      ask the user (through the MCP client) before calls this policy
                        names, besides those the plugins' own \"confirm\" names: destructive
                        (DELETE and tools annotated destructive) or writes (every method
                        but GET, HEAD, OPTIONS). A client that cannot ask gets an error,
                        never a silent call
  --confirm-key-env VAR the key (16 bytes or more) that signs approvals at revision
                        2026-07-28, read from the environment variable VAR: give every copy
                        behind one load balancer the same. Default: a random key per process
  --page-size N         tools on one page of tools/list (default 0: every tool on one
                        page, since many clients never ask for the next one)
  --full-schemas        the schemas as declared, every description whole, instead of
                        the compact schemas a model reads by default
  --max-input-bytes N   read at most N bytes of each plugin file (default 64 MiB)

Streamable HTTP (MCP over the network; no sessions, so any number of copies can serve
behind a load balancer):
  --http [ADDR:]PORT    serve at http://ADDR:PORT/mcp instead of stdio; ADDR defaults to
                        127.0.0.1 (loopback only). GET /healthz answers 200 for load
                        balancers. The address served is printed on standard error.
  --token-env VAR       every request must send `Authorization: Bearer $VAR` (the token
                        is read from the environment variable VAR, never from the command
                        line; default variable: HTTPTOOL_MCP_TOKEN, when it is set)
  --no-auth             serve without a token. Needed to listen on a non-loopback address
                        without one; loopback without a token needs nothing
  --allow-host HOST[:PORT]  a Host header to accept besides the address listened on (the
                        name a proxy or load balancer sends); repeatable. Others get 403
  --allow-origin ORIGIN a browser Origin to accept (https://app.example.com); repeatable.
                        Requests with any other Origin get 403 (DNS rebinding)
  --path PATH           the MCP endpoint's path (default /mcp)
  --max-connections N   connections served at once (default 512); more get 503

OAuth 2.1 resource server (MCP authorization: clients log in with an authorization server,
and each access token is checked by its token introspection, RFC 7662, then cached for at
most 60 s and never past its expiry):
  --introspection-url URL   the authorization server's introspection endpoint. This server
                        authenticates to it with the client id and secret in the variables
                        HTTPTOOL_INTROSPECTION_CLIENT_ID and HTTPTOOL_INTROSPECTION_CLIENT_SECRET
  --authorization-server URL  the authorization server clients log in with, listed in
                        the Protected Resource Metadata at
                        /.well-known/oauth-protected-resource; repeatable
  --resource URL        this server's canonical URI, which tokens must name as their
                        audience (default http://ADDR:PORT/PATH as listened on; give the
                        public URL behind a proxy or load balancer)
  --required-scope SCOPE  a scope every token must hold (else 403); repeatable
  A missing or bad token gets 401 with WWW-Authenticate naming the metadata; an
  introspection endpoint that cannot answer, 503. Tools get the caller as context values
  oauth_subject, oauth_scopes and oauth_client_id; the client's token never reaches them.
{catalog}";

/// The end of the help, after the network options: an MCP client's configuration.
const HELP_CLIENT: &str = "\
In an MCP client's configuration (Claude Desktop's claude_desktop_config.json, an IDE
agent's mcp.json), the server is one entry of \"mcpServers\"; use absolute paths:

  {
    \"mcpServers\": {
      \"weather\": {
        \"command\": \"/usr/local/bin/httptool\",
        \"args\": [\"serve\", \"/home/me/weather.json\"],
        \"env\": { \"WEATHER_TOKEN\": \"...\" }
      }
    }
  }";

pub fn run(mut args: Args) -> Result<ExitCode, CliError> {
    if args.help() {
        print_out(&format!(
            "{}\n\n{}\n\n{}",
            HELP.replace("{catalog}", crate::catalog::HELP),
            crate::network::HELP,
            HELP_CLIENT
        ))?;
        return Ok(ExitCode::SUCCESS);
    }
    let max_bytes = crate::input::max_input_bytes(&mut args)?;
    let network = crate::network::Network::from_args(&mut args)?;
    let mut context = call_context(args.values("--context")?)?;
    if let Some(word) = args.value("--confirm")? {
        let policy = match Confirm::parse(&word) {
            Some(policy @ (Confirm::Destructive | Confirm::Writes | Confirm::Never)) => policy,
            _ => {
                return Err(CliError::Usage(format!(
                    "--confirm takes destructive, writes or never; got '{}'",
                    word
                )))
            }
        };
        context = context.with_confirm(policy);
    }
    let mut server = Server::new().context(context);
    if let Some(variable) = args.value("--confirm-key-env")? {
        match std::env::var(&variable) {
            Ok(key) if key.len() >= 16 => server = server.approval_key(key.into_bytes()),
            _ => {
                return Err(CliError::Failed(format!(
                    "--confirm-key-env {}: the variable is not set or holds fewer than 16 bytes; set it to the key every copy shares",
                    variable
                )))
            }
        }
    }
    if let Some(word) = args.value("--max-concurrency")? {
        server = server.max_concurrency(count(&word, "--max-concurrency", 1)?);
    }
    if let Some(word) = args.value("--page-size")? {
        server = server.page_size(count(&word, "--page-size", 0)?);
    }
    let http = HttpOptions::take(&mut args)?;
    let catalog = crate::catalog::take(&mut args)?;
    let full = args.flag("--full-schemas");
    let documents = args.values("--openapi")?;
    let mut paths = args.positionals()?;
    paths.extend(documents);
    if paths.is_empty() {
        return Err(CliError::Usage(
            "serve needs at least one plugin file or OpenAPI document".to_string(),
        ));
    }
    let mut plugins = plugins(&paths, max_bytes)?;
    if full {
        plugins = paths
            .iter()
            .zip(plugins)
            .map(|(path, plugin)| crate::schemas::full(plugin, path))
            .collect::<Result<_, _>>()?;
    }
    let plugins: Vec<HttpPlugin> = plugins
        .into_iter()
        .map(|plugin| network.install(plugin, false, true))
        .collect();
    let mut registry = ToolRegistry::new();
    for (path, plugin) in paths.iter().zip(&plugins) {
        registry
            .add_plugin(plugin)
            .map_err(|e| CliError::Failed(format!("{}: {}", path, e)))?;
    }
    let names: Vec<&str> = plugins.iter().map(HttpPlugin::name).collect();
    let registry = crate::catalog::apply(&catalog, registry, &names);
    if let Some(instructions) = mcp::plugin_instructions(&plugins) {
        server = server.instructions(instructions);
    }
    if let Some(http) = http {
        return serve_http(http, server, registry);
    }
    let stdin = io::stdin();
    let reader = BufReader::with_capacity(64 * 1024, stdin.lock());
    server
        .serve(&registry, reader, io::stdout())
        .map_err(|e| CliError::Failed(e.to_string()))?;
    Ok(ExitCode::SUCCESS)
}

/// The options of `serve --http`.
struct HttpOptions {
    addr: SocketAddr,
    token: Option<String>,
    no_auth: bool,
    hosts: Vec<String>,
    origins: Vec<String>,
    path: String,
    max_connections: Option<usize>,
    oauth: Option<OAuthOptions>,
}

/// The options of the OAuth resource server.
struct OAuthOptions {
    introspection_url: String,
    authorization_servers: Vec<String>,
    resource: Option<String>,
    scopes: Vec<String>,
    client_id: String,
    client_secret: String,
}

/// The variables the introspection client's credentials are read from.
const INTROSPECTION_CLIENT_ID: &str = "HTTPTOOL_INTROSPECTION_CLIENT_ID";
const INTROSPECTION_CLIENT_SECRET: &str = "HTTPTOOL_INTROSPECTION_CLIENT_SECRET";

impl OAuthOptions {
    /// The OAuth options, when `--introspection-url` is given; `other_auth`: a token or
    /// `--no-auth` was given too (a usage error with it).
    fn take(args: &mut Args, other_auth: bool) -> Result<Option<OAuthOptions>, CliError> {
        let introspection_url = args.value("--introspection-url")?;
        let authorization_servers = args.values("--authorization-server")?;
        let resource = args.value("--resource")?;
        let scopes = args.values("--required-scope")?;
        let introspection_url = match introspection_url {
            Some(url) => url,
            None if authorization_servers.is_empty()
                && resource.is_none()
                && scopes.is_empty() =>
            {
                return Ok(None)
            }
            None => {
                return Err(CliError::Usage(
                    "--authorization-server, --resource and --required-scope go with --introspection-url URL".to_string(),
                ))
            }
        };
        if other_auth {
            return Err(CliError::Usage(
                "--introspection-url authenticates with OAuth; leave out --token-env and --no-auth"
                    .to_string(),
            ));
        }
        for url in std::iter::once(&introspection_url)
            .chain(&authorization_servers)
            .chain(&resource)
        {
            if httptool::url::Url::parse(url).is_err() {
                return Err(CliError::Usage(format!(
                    "'{}' is not an absolute http or https URL",
                    url
                )));
            }
        }
        if authorization_servers.is_empty() {
            return Err(CliError::Usage(
                "--introspection-url needs at least one --authorization-server URL for clients to log in with".to_string(),
            ));
        }
        let variable = |name: &str| {
            match std::env::var(name) {
            Ok(value) if !value.is_empty() => Ok(value),
            _ => Err(CliError::Failed(format!(
                "--introspection-url: set {} and {} to the client id and secret this server authenticates to the introspection endpoint with",
                INTROSPECTION_CLIENT_ID, INTROSPECTION_CLIENT_SECRET
            ))),
        }
        };
        Ok(Some(OAuthOptions {
            introspection_url,
            authorization_servers,
            resource,
            scopes,
            client_id: variable(INTROSPECTION_CLIENT_ID)?,
            client_secret: variable(INTROSPECTION_CLIENT_SECRET)?,
        }))
    }
}

/// The variable the token is read from when `--token-env` is not given.
const DEFAULT_TOKEN_VARIABLE: &str = "HTTPTOOL_MCP_TOKEN";

impl HttpOptions {
    /// The HTTP options, when `--http` is given; the others alone are a usage error.
    fn take(args: &mut Args) -> Result<Option<HttpOptions>, CliError> {
        let addr = args.value("--http")?;
        let token_env = args.value("--token-env")?;
        let no_auth = args.flag("--no-auth");
        let hosts = args.values("--allow-host")?;
        let origins = args.values("--allow-origin")?;
        let path = args.value("--path")?;
        let max_connections = args.value("--max-connections")?;
        let oauth = if addr.is_some() {
            OAuthOptions::take(args, token_env.is_some() || no_auth)?
        } else {
            None
        };
        let addr = match addr {
            Some(addr) => addr,
            None => {
                let given = token_env.is_some()
                    || no_auth
                    || !hosts.is_empty()
                    || !origins.is_empty()
                    || path.is_some()
                    || max_connections.is_some()
                    || args.value("--introspection-url")?.is_some();
                if given {
                    return Err(CliError::Usage(
                        "--token-env, --no-auth, --allow-host, --allow-origin, --path, --max-connections and --introspection-url go with --http ADDR:PORT".to_string(),
                    ));
                }
                return Ok(None);
            }
        };
        let addr = listen_address(&addr)?;
        if token_env.is_some() && no_auth {
            return Err(CliError::Usage(
                "--token-env and --no-auth contradict each other; give one".to_string(),
            ));
        }
        let token = match &token_env {
            Some(variable) => match std::env::var(variable) {
                Ok(token) if !token.trim().is_empty() => Some(token.trim().to_string()),
                _ => {
                    return Err(CliError::Failed(format!(
                        "--token-env {}: the variable is not set or is empty; set it to the token clients must send",
                        variable
                    )))
                }
            },
            None if no_auth || oauth.is_some() => None,
            None => std::env::var(DEFAULT_TOKEN_VARIABLE)
                .ok()
                .map(|t| t.trim().to_string())
                .filter(|t| !t.is_empty()),
        };
        let path = path.unwrap_or_else(|| mcp::DEFAULT_HTTP_PATH.to_string());
        if !path.starts_with('/') || path.contains(['?', '#', ' ']) || path == mcp::HEALTH_PATH {
            return Err(CliError::Usage(format!(
                "--path takes a path such as /mcp (not {}), got '{}'",
                mcp::HEALTH_PATH,
                path
            )));
        }
        let max_connections = match max_connections {
            Some(word) => Some(count(&word, "--max-connections", 1)?),
            None => None,
        };
        Ok(Some(HttpOptions {
            addr,
            token,
            no_auth,
            hosts,
            origins,
            path,
            max_connections,
            oauth,
        }))
    }
}

/// `ADDR:PORT`, `[V6]:PORT`, `localhost:PORT` or a bare `PORT` (on 127.0.0.1).
fn listen_address(word: &str) -> Result<SocketAddr, CliError> {
    let bad = || {
        CliError::Usage(format!(
            "--http takes [ADDR:]PORT, such as 8080, 127.0.0.1:8080, 0.0.0.0:8080 or [::1]:8080; got '{}'",
            word
        ))
    };
    if let Ok(port) = word.parse::<u16>() {
        return Ok(SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port));
    }
    if let Some(port) = word.strip_prefix("localhost:") {
        let port = port.parse::<u16>().map_err(|_| bad())?;
        return Ok(SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port));
    }
    word.parse::<SocketAddr>().map_err(|_| bad())
}

/// Serves over Streamable HTTP until the listening socket fails.
fn serve_http(
    options: HttpOptions,
    server: Server,
    registry: ToolRegistry,
) -> Result<ExitCode, CliError> {
    let loopback = options.addr.ip().is_loopback();
    if options.token.is_none() && options.oauth.is_none() && !loopback {
        if !options.no_auth {
            return Err(CliError::Failed(format!(
                "refusing to serve {} without authentication: anyone who reaches the address could call every tool with this server's credentials. Set a token with --token-env VAR (or {}), or give --no-auth if something in front of it authenticates",
                options.addr, DEFAULT_TOKEN_VARIABLE
            )));
        }
        eprintln!(
            "httptool: WARNING: serving {} with --no-auth: anyone who reaches this address can call every tool",
            options.addr
        );
    }
    let mut config = ServerConfig::new();
    if let Some(n) = options.max_connections {
        config = config.max_connections(n);
    }
    let listener = HttpServer::bind(options.addr, config)
        .map_err(|e| CliError::Failed(format!("cannot listen on {}: {}", options.addr, e)))?;
    let local = listener
        .local_addr()
        .map_err(|e| CliError::Failed(format!("cannot listen on {}: {}", options.addr, e)))?;
    let mut transport =
        HttpTransport::new(server.stateless(Arc::new(registry))).path(options.path.as_str());
    for host in options.hosts {
        transport = transport.allow_host(host);
    }
    for origin in options.origins {
        transport = transport.allow_origin(origin);
    }
    let auth = match (options.token, options.oauth) {
        (_, Some(oauth)) => {
            let resource = oauth
                .resource
                .unwrap_or_else(|| format!("http://{}{}", local, options.path));
            let mut settings = OAuth::new(resource.as_str(), oauth.introspection_url)
                .client_credentials(oauth.client_id, oauth.client_secret);
            for server in oauth.authorization_servers {
                settings = settings.authorization_server(server);
            }
            for scope in oauth.scopes {
                settings = settings.required_scope(scope);
            }
            transport = transport.oauth(settings);
            format!("OAuth access tokens for {} required", resource)
        }
        (Some(token), None) => {
            transport = transport.bearer_token(token);
            "bearer token required".to_string()
        }
        (None, None) => "no authentication".to_string(),
    };
    eprintln!(
        "httptool: serving MCP at http://{}{} ({}; health check at {})",
        local,
        options.path,
        auth,
        mcp::HEALTH_PATH
    );
    transport
        .serve(&listener)
        .map_err(|e| CliError::Failed(format!("serving {} failed: {}", local, e)))?;
    Ok(ExitCode::SUCCESS)
}

/// The plugins to serve, one for each file named, in order: plugin files and OpenAPI
/// documents alike become plugins here. A server makes real calls, so a document's
/// credential variables must be set.
fn plugins(paths: &[String], max_bytes: u64) -> Result<Vec<HttpPlugin>, CliError> {
    paths
        .iter()
        .map(|path| load_plugin_for(path, max_bytes, true))
        .collect()
}

/// A whole number of at least `min` given to `option`.
fn count(word: &str, option: &str, min: usize) -> Result<usize, CliError> {
    match word.parse::<usize>() {
        Ok(n) if n >= min => Ok(n),
        _ => Err(CliError::Usage(format!(
            "{} takes a whole number of {} or more, got '{}'",
            option, min, word
        ))),
    }
}
