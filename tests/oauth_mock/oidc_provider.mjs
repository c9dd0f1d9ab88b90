// Starts node-oidc-provider (npm oidc-provider, installed outside the tree), a certified
// OAuth 2.0 / OpenID Connect authorization server, on 127.0.0.1 for the ignored tests of
// tests/mcp_http_oauth.rs: the MCP server checks the tokens it issues by RFC 7662 token
// introspection. oauth2-mock-server (tests/oauth_mock/server.mjs) cannot serve there: its
// /introspect answers {"active": true} to any string, and it sets `aud` only from a
// non-standard `aud` parameter, never from RFC 8707's `resource`. Usage:
//
//     node tests/oauth_mock/oidc_provider.mjs NODE_MODULES_DIR
//
// Prints one line, `ready ISSUER_URL`, once it listens; runs until killed.
//
// Configuration, all the provider's own features:
// - client `mcp-server` (secret `mcp-server-secret`): the resource server, which may only
//   introspect (RFC 7662 section 2.1 client authentication, client_secret_basic);
// - clients `agent` and `short-agent` (secrets `agent-secret`, `short-agent-secret`):
//   client_credentials grant, for any resource indicator (RFC 8707), which becomes the
//   opaque access token's `aud`; scopes `tools` and `read`; tokens live 3600 s, or 2 s
//   for `short-agent`;
// - token revocation (RFC 7009) at /token/revocation.
import { createServer } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const modules = process.argv[2];
if (!modules) {
  console.error('usage: oidc_provider.mjs NODE_MODULES_DIR');
  process.exit(2);
}
const entry = join(modules, 'oidc-provider', 'lib', 'index.js');
const { default: Provider } = await import(pathToFileURL(entry).href);

const http = createServer();
await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${http.address().port}`;

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: 'mcp-server',
      client_secret: 'mcp-server-secret',
      grant_types: [],
      response_types: [],
      redirect_uris: [],
    },
    ...['agent', 'short-agent'].map((id) => ({
      client_id: id,
      client_secret: `${id}-secret`,
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      scope: 'tools read',
    })),
  ],
  scopes: ['tools', 'read'],
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    introspection: { enabled: true },
    revocation: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => undefined,
      useGrantedResource: () => true,
      getResourceServerInfo: (ctx, resource, client) => ({
        scope: 'tools read',
        accessTokenFormat: 'opaque',
        accessTokenTTL: client.clientId === 'short-agent' ? 2 : 3600,
      }),
    },
  },
});
provider.on('server_error', (ctx, error) => console.error('server_error', error));

http.on('request', provider.callback());
console.log(`ready ${issuer}`);

const stop = () => {
  http.close();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
