// Waits for change notifications with an official MCP TypeScript client and prints one JSON line
// per event, which McpNodeClientsIT reads while it reloads the project. Usage:
//   node listen.mjs <flavour> <url>, flavour `pin` (2026-07-28: subscriptions/listen) or
//   `legacy` (2025-11-25: resources/subscribe, and the session's GET stream)
// Lines: {"event":"listening",...} once it listens, {"event":"notification",...} per notification,
// {"event":"heard",...} when both kinds arrived (or after 20 seconds), then {"event":"done",...}:
// on 2026-07-28 once svc, stopped by the test, has ended the subscription, with how it ended.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const [flavour, url] = process.argv.slice(2);
const say = (line) => process.stdout.write(JSON.stringify(line) + '\n');
const mode = { pin: { pin: '2026-07-28' }, legacy: 'legacy' }[flavour];
if (mode === undefined) throw new Error(`unknown flavour ${flavour}`);

let getStreamOpen = false;
const watchingFetch = async (input, init) => {
  const response = await fetch(input, init);
  if ((init?.method ?? 'GET') === 'GET' && response.ok) getStreamOpen = true;
  return response;
};
const client = new Client(
  { name: `svc-interop-listen-${flavour}`, version: '2.0.0' },
  { versionNegotiation: { mode } }
);
const seen = new Set();
let arrived;
const both = new Promise((resolve) => (arrived = resolve));
for (const method of ['notifications/tools/list_changed', 'notifications/resources/updated']) {
  client.setNotificationHandler(method, (n) => {
    say({ event: 'notification', method, params: n.params ?? {} });
    seen.add(method);
    if (seen.size === 2) arrived();
  });
}
await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: watchingFetch }));

let subscription;
if (client.getProtocolEra() === 'modern') {
  subscription = await client.listen({ toolsListChanged: true, resourceSubscriptions: ['docs://guide'] });
  say({ event: 'listening', era: 'modern', honored: subscription.honoredFilter });
} else {
  await client.subscribeResource({ uri: 'docs://guide' });
  // the session's notifications come on its GET stream, which the client opens after connecting
  for (let i = 0; i < 100 && !getStreamOpen; i++) await new Promise((r) => setTimeout(r, 50));
  say({ event: 'listening', era: 'legacy', getStreamOpen });
}
await Promise.race([both, new Promise((r) => setTimeout(r, 20_000))]);
say({ event: 'heard', seen: [...seen].sort() });
let closed = null;
if (subscription) {
  // the test now stops svc, which ends the subscription with the listen request's response
  closed = await Promise.race([
    subscription.closed,
    new Promise((r) => setTimeout(() => r('still open after 20 s'), 20_000)),
  ]);
} else {
  await client.close();
}
say({ event: 'done', closed });
process.exit(0);
