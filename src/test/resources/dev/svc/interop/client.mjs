// Drives svc with an official MCP TypeScript client and prints one JSON report on stdout, which
// McpNodeClientsIT asserts. Usage: node client.mjs <flavour> <url>, where flavour is
//   sdk1    @modelcontextprotocol/sdk 1.x (2025-11-25, a session)
//   legacy  @modelcontextprotocol/client 2.x, versionNegotiation.mode 'legacy' (its default)
//   auto    @modelcontextprotocol/client 2.x, mode 'auto' (server/discover, else initialize)
//   pin     @modelcontextprotocol/client 2.x, mode {pin: '2026-07-28'}
// Every step records its value or the error it met, so one failure never hides the others.
const [flavour, url] = process.argv.slice(2);
const LOG_LEVEL = 'io.modelcontextprotocol/logLevel';

// every HTTP exchange the client makes: the method it posted, the status, whether the reply named a
// session, the request's Mcp-* headers, and the start of the body
const wire = [];
const reading = [];
const recordingFetch = async (input, init) => {
  let method = init?.method ?? 'GET';
  try {
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    if (body?.method) method = `${method} ${body.method}`;
  } catch {}
  const response = await fetch(input, init);
  const type = response.headers.get('content-type') ?? '';
  const session = response.headers.get('mcp-session-id');
  // the 2026-07-28 request headers a client adds: Mcp-Method, Mcp-Name, Mcp-Param-*
  const headers = {};
  new Headers(init?.headers ?? {}).forEach((value, name) => {
    if (name.startsWith('mcp-') && name !== 'mcp-session-id') headers[name] = value;
  });
  const exchange = { request: method, status: response.status, type, session, headers, body: '' };
  wire.push(exchange);
  // read beside the client, so that an event stream still reaches it as it comes; a POST's stream
  // ends with its response, the GET stream never ends, so it is not read
  if (type.includes('application/json') || (method !== 'GET' && type.includes('event-stream'))) {
    reading.push(
      response
        .clone()
        .text()
        .then((text) => (exchange.body = text.slice(0, 400)))
        .catch(() => {})
    );
  }
  return response;
};

let notifications = [];
// what the user answers the next question (elicitation/create), and the questions asked
let answer = { action: 'accept', content: {} };
const asked = [];
const answerQuestion = (request) => {
  asked.push({ message: request.params.message, fields: Object.keys(request.params.requestedSchema?.properties ?? {}) });
  return answer;
};
// a client of this flavour and its transport, sending `headers` with every request; one that
// `canBeAsked` declares the elicitation capability and answers with `answer`
const open = async (headers, canBeAsked = true) => {
  const requestInit = { headers };
  const capabilities = canBeAsked ? { elicitation: {} } : {};
  if (flavour === 'sdk1') {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StreamableHTTPClientTransport } = await import(
      '@modelcontextprotocol/sdk/client/streamableHttp.js'
    );
    const { LoggingMessageNotificationSchema, ElicitRequestSchema } = await import(
      '@modelcontextprotocol/sdk/types.js'
    );
    const client = new Client({ name: 'svc-interop-sdk1', version: '1.0.0' }, { capabilities });
    if (canBeAsked) client.setRequestHandler(ElicitRequestSchema, answerQuestion);
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) =>
      notifications.push(n.params)
    );
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      fetch: recordingFetch,
      requestInit,
    });
    return { client, transport };
  }
  const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
  const mode = { legacy: 'legacy', auto: 'auto', pin: { pin: '2026-07-28' } }[flavour];
  if (mode === undefined) throw new Error(`unknown flavour ${flavour}`);
  const client = new Client(
    { name: `svc-interop-${flavour}`, version: '2.0.0' },
    { versionNegotiation: { mode }, capabilities }
  );
  if (canBeAsked) client.setRequestHandler('elicitation/create', answerQuestion);
  client.setNotificationHandler('notifications/message', (n) => notifications.push(n.params));
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    fetch: recordingFetch,
    requestInit,
  });
  return { client, transport };
};
const { client, transport } = await open({});

const report = { flavour };
const step = async (name, run) => {
  try {
    report[name] = await run();
  } catch (e) {
    report[name] = { error: `${e?.name ?? 'Error'}: ${e?.message ?? e}`, code: e?.code };
  }
};
const text = (result) => (result.content ?? []).map((c) => c.text ?? '').join('');
const modern = () => client.getProtocolEra?.() === 'modern';
// a call's own log level: a 2025 session sets it once (logging/setLevel); 2026-07-28 asks per request
const logMeta = (level) => (modern() ? { _meta: { [LOG_LEVEL]: level } } : {});

await step('connect', async () => {
  await client.connect(transport);
  return {
    era: client.getProtocolEra?.() ?? null,
    protocolVersion:
      client.getNegotiatedProtocolVersion?.() ?? transport.protocolVersion ?? null,
    server: client.getServerVersion()?.name ?? null,
    capabilities: Object.keys(client.getServerCapabilities() ?? {}).sort(),
  };
});
if (report.connect.error === undefined) {
  await step('tools', async () => (await client.listTools()).tools.map((t) => t.name));
  await step('add', async () => {
    const r = await client.callTool({ name: 'add', arguments: { a: 2, b: 40 } });
    return { isError: r.isError ?? false, text: text(r), structured: r.structuredContent ?? null };
  });
  await step('broken', async () => {
    const r = await client.callTool({ name: 'broken', arguments: {} });
    return { isError: r.isError ?? false, text: text(r) };
  });
  await step('unknownTool', async () => {
    const r = await client.callTool({ name: 'no_such_tool', arguments: {} });
    return { isError: r.isError ?? false, text: text(r) };
  });
  await step('inRegion', async () => {
    const places = [];
    for (const region of ['us-west1', 'Zürich']) {
      const r = await client.callTool({ name: 'in_region', arguments: { region, zone: 3 } });
      places.push({ isError: r.isError ?? false, structured: r.structuredContent ?? null, text: text(r) });
    }
    return places;
  });
  await step('secret', async () => {
    // the key travels in a header of the caller's own request, on either revision
    const keyed = await open({ 'X-API-Key': 'letmein' });
    await keyed.client.connect(keyed.transport);
    const calls = [];
    for (const caller of [client, keyed.client]) {
      const r = await caller.callTool({ name: 'secret', arguments: {} });
      calls.push({ isError: r.isError ?? false, text: text(r) });
    }
    await keyed.client.close();
    return calls;
  });
  await step('confirm', async () => {
    // svc asks before the tool runs: on 2025-11-25 on the call's stream, on 2026-07-28 in an
    // input_required result that the client answers by calling again
    const outcomes = {};
    for (const action of ['accept', 'decline', 'cancel']) {
      answer = action === 'accept' ? { action, content: {} } : { action };
      asked.length = 0;
      const r = await client.callTool({ name: 'forget', arguments: { name: 'Bob' } });
      outcomes[action] = { isError: r.isError ?? false, text: text(r), asked: [...asked] };
    }
    // a client that cannot be asked: an isError result on 2025-11-25, -32021 on 2026-07-28
    const mute = await open({}, false);
    await mute.client.connect(mute.transport);
    try {
      const r = await mute.client.callTool({ name: 'forget', arguments: { name: 'Bob' } });
      outcomes.cannotBeAsked = { isError: r.isError ?? false, text: text(r) };
    } catch (e) {
      outcomes.cannotBeAsked = { error: e.message, code: e.code };
    }
    await mute.client.close();
    return outcomes;
  });
  await step('elicit', async () => {
    answer = { action: 'accept', content: { name: 'Ada' } };
    asked.length = 0;
    const r = await client.callTool({ name: 'rename', arguments: {} });
    return { structured: r.structuredContent ?? null, isError: r.isError ?? false, asked: [...asked] };
  });
  await step('logsWithoutLevel', async () => {
    notifications = [];
    await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
    return notifications;
  });
  await step('logsAtInfo', async () => {
    if (!modern()) await client.setLoggingLevel('info');
    notifications = [];
    const r = await client.callTool({
      name: 'greet',
      arguments: { name: 'Ada' },
      ...logMeta('info'),
    });
    return { logs: notifications, greeting: r.structuredContent?.greeting ?? null };
  });
  await step('progress', async () => {
    const seen = [];
    const params = { name: 'add', arguments: { a: 1, b: 1 } };
    const options = { onprogress: (p) => seen.push(p) };
    // the 1.x client takes a result schema before the options
    const r =
      flavour === 'sdk1'
        ? await client.callTool(params, undefined, options)
        : await client.callTool(params, options);
    return { updates: seen, text: text(r) };
  });
  await step('resources', async () => (await client.listResources()).resources.map((r) => r.uri));
  await step('guide', async () => {
    const r = await client.readResource({ uri: 'docs://guide' });
    return r.contents.map((c) => ({ uri: c.uri, mimeType: c.mimeType, text: c.text }));
  });
  await step('missingResource', async () => {
    await client.readResource({ uri: 'docs://nothing-here' });
    return 'read';
  });
  await step('prompts', async () => (await client.listPrompts()).prompts.map((p) => p.name));
  await step('prompt', async () => {
    const r = await client.getPrompt({ name: 'review', arguments: { language: 'java' } });
    return r.messages.map((m) => ({ role: m.role, text: m.content.text }));
  });
  await step('completion', async () => {
    const r = await client.complete({
      ref: { type: 'ref/prompt', name: 'review' },
      argument: { name: 'language', value: 'ja' },
    });
    return r.completion.values;
  });
  await step('close', async () => {
    await client.close();
    return 'closed';
  });
}
await Promise.all(reading);
report.wire = wire;
process.stdout.write(JSON.stringify(report) + '\n');
