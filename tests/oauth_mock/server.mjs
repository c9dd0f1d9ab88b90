// Starts oauth2-mock-server (npm, installed outside the tree) on 127.0.0.1 for
// tests/plugin_oauth_mock.rs, and a small control server beside it that reports how many token
// requests each client made. Usage:
//
//     node tests/oauth_mock/server.mjs NODE_MODULES_DIR
//
// Prints one line, `ready ISSUER_URL CONTROL_URL`, once both listen; runs until killed.
//
// The mock issues a signed JWT to any client with expires_in 3600 and rotates refresh tokens
// without checking them. Its documented hooks make it behave like a real authorization server
// where the tests need it to:
// - beforeTokenSigning: every token gets a `jti` and the `client_id` (tokens stay distinct);
// - beforeResponse: a client authenticates with the secret `<client_id>-secret`, anything else
//   is refused with `invalid_client` (RFC 6749 section 5.2); a client whose id starts with
//   `short-` gets `expires_in: 0`; a refresh token works once (`rt-seed-<client_id>` first, then
//   each one the server rotated to), anything else is `invalid_grant`.
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const modules = process.argv[2];
if (!modules) {
  console.error('usage: server.mjs NODE_MODULES_DIR');
  process.exit(2);
}
const entry = join(modules, 'oauth2-mock-server', 'dist', 'index.mjs');
const { OAuth2Server } = await import(pathToFileURL(entry).href);

const counts = new Map();
const refreshTokens = new Map();

// RFC 6749 section 2.3.1: Basic of the form-urlencoded id and secret, else the body's fields.
function client(req) {
  const header = req.headers['authorization'] || '';
  if (header.startsWith('Basic ')) {
    const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const unform = (s) => decodeURIComponent(s.replace(/\+/g, ' '));
    return { id: unform(decoded.slice(0, colon)), secret: unform(decoded.slice(colon + 1)) };
  }
  return { id: req.body.client_id || '', secret: req.body.client_secret || '' };
}

const server = new OAuth2Server();
await server.issuer.keys.generate('RS256');

server.service.on('beforeTokenSigning', (token, req) => {
  token.payload.jti = randomUUID();
  token.payload.client_id = client(req).id;
});

server.service.on('beforeResponse', (response, req) => {
  const { id, secret } = client(req);
  counts.set(id, (counts.get(id) || 0) + 1);
  if (secret !== `${id}-secret`) {
    response.statusCode = 401;
    response.body = { error: 'invalid_client', error_description: 'Client authentication failed.' };
    return;
  }
  if (req.body.grant_type === 'refresh_token') {
    const current = refreshTokens.get(id) || `rt-seed-${id}`;
    if (req.body.refresh_token !== current) {
      response.statusCode = 400;
      response.body = { error: 'invalid_grant', error_description: 'The refresh token is not valid.' };
      return;
    }
    refreshTokens.set(id, response.body.refresh_token);
  }
  if (id.startsWith('short-')) {
    response.body.expires_in = 0;
  }
});

await server.start(0, '127.0.0.1');

const control = createServer((req, res) => {
  const match = /^\/count\/([^/]+)$/.exec(req.url || '');
  if (!match) {
    res.writeHead(404).end();
    return;
  }
  const body = String(counts.get(decodeURIComponent(match[1])) || 0);
  res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': body.length }).end(body);
});
control.listen(0, '127.0.0.1', () => {
  console.log(`ready ${server.issuer.url} http://127.0.0.1:${control.address().port}`);
});

const stop = async () => {
  control.close();
  await server.stop();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
