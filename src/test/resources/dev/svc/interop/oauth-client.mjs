// Connects to svc protected by server.auth with the official MCP TypeScript SDK (1.x) and its
// client-credentials provider, and prints one JSON report on stdout, which McpOAuthClientIT asserts.
// Usage: node oauth-client.mjs <mcp url> <issuer> <tool> <arguments JSON>, with the client's
// credentials in OAUTH_CLIENT_ID and OAUTH_CLIENT_SECRET. The script is given no token and no
// metadata URL: the SDK finds them from svc's 401, as it would for any protected server.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';

const [url, issuer, tool, args] = process.argv.slice(2);

// every HTTP exchange: method, URL without its query, status, whether a bearer token was sent,
// and the WWW-Authenticate challenge; never a token or a secret
const wire = [];
const recordingFetch = async (input, init) => {
  const target = new URL(typeof input === 'string' ? input : input.url ?? input.href);
  const headers = new Headers(init?.headers ?? {});
  let method = init?.method ?? 'GET';
  try {
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    if (body?.method) method = `${method} ${body.method}`;
  } catch {}
  if (init?.body instanceof URLSearchParams) {
    method = `${method} grant_type=${init.body.get('grant_type')}`;
  }
  const response = await fetch(input, init);
  wire.push({
    request: method,
    url: target.origin + target.pathname,
    status: response.status,
    bearer: (headers.get('authorization') ?? '').toLowerCase().startsWith('bearer '),
    challenge: response.headers.get('www-authenticate') ?? undefined,
  });
  return response;
};

const report = { wire };
const provider = new ClientCredentialsProvider({
  clientId: process.env.OAUTH_CLIENT_ID,
  clientSecret: process.env.OAUTH_CLIENT_SECRET,
  expectedIssuer: issuer,
});
const client = new Client({ name: 'svc-oauth-interop', version: '1.0.0' });
const transport = new StreamableHTTPClientTransport(new URL(url), {
  authProvider: provider,
  fetch: recordingFetch,
});
try {
  try {
    await client.connect(transport);
  } catch (error) {
    // the first attempt meets the 401 and gets a token; a client reconnects with it
    report.firstConnect = String(error?.message ?? error);
    await client.connect(transport);
  }
  report.connected = true;
  const result = await client.callTool({ name: tool, arguments: JSON.parse(args) });
  report.result = result;
  report.tokenType = provider.tokens()?.token_type;
} catch (error) {
  report.connected = report.connected ?? false;
  report.error = String(error?.message ?? error);
  report.errorCode = error?.code;
} finally {
  try {
    await client.close();
  } catch {}
}
console.log(JSON.stringify(report));
