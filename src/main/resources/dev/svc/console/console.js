// svc dev console (svc start --ui). Plain DOM, no framework, nothing loaded from elsewhere: the
// two npm packages it imports (marked, DOMPurify) are served by svc from the jar.
// It speaks the server's own protocols: MCP JSON-RPC at POST /mcp and A2A v1 at /agent/{name};
// GET /ui/events carries only what no protocol does (agents' names, log lines, reloads).

import { marked } from './vendor/marked.js';
import DOMPurify from './vendor/purify.js';

const MCP_VERSION = '2025-11-25';
const TOKEN_KEY = 'svc-console-token';

const state = {
  token: sessionStorage.getItem(TOKEN_KEY) || '',
  session: null,
  nextId: 1,
  tools: [],
  prompts: [],
  resources: [],
  templates: [],
  agents: [],
  selected: { tools: null, prompts: null, resources: null, agents: null },
  chat: { contextId: null, busy: false },
};

const $ = (id) => document.getElementById(id);

/** An element with attributes (on* are listeners) and children (strings become text). */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else if (key === 'class') node.className = value;
    else if (key === 'text') node.textContent = value;
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// ---------------------------------------------------------------- markdown

// links a description or an answer holds open in a new tab, and never tell where they came from
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
});

// What markdown makes, and nothing else: no form or input (a fake token field), no style, and no
// id, name or class, which would let a description take the place of the page's own elements
const MARKDOWN_HTML = {
  ALLOWED_TAGS: ['a', 'b', 'blockquote', 'br', 'code', 'del', 'em', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'i', 'li', 'ol', 'p', 'pre', 's', 'strong', 'table', 'tbody', 'td', 'th', 'thead', 'tr', 'ul'],
  ALLOWED_ATTR: ['href', 'title', 'start', 'align'],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
};

// marked's time grows with the square of some inputs (20,000 characters of `**a ` take seconds)
// and deeply nested quotes overflow its stack: longer text, or text it cannot parse, is shown as text
const MARKDOWN_MAX = 10_000;
// while an answer streams in it is parsed again at each frame: only while it is short
const STREAMING_MARKDOWN_MAX = 2_000;

/** Markdown (descriptions, agents' answers) as sanitised HTML in the node: no script, no handler. */
function setMarkdown(node, text) {
  const source = String(text ?? '');
  if (source.length > MARKDOWN_MAX) return setPlain(node, source);
  let html;
  try {
    html = marked.parse(source, { async: false, gfm: true });
  } catch {
    return setPlain(node, source);
  }
  node.classList.remove('plain');
  node.classList.add('markdown');
  node.innerHTML = DOMPurify.sanitize(html, MARKDOWN_HTML);
  return node;
}

/** Text where markdown would go, as it is written. */
function setPlain(node, text) {
  node.classList.remove('markdown');
  node.classList.add('plain');
  node.textContent = shown(text);
  return node;
}

/** A block of markdown with the given classes. */
function markdown(text, cls) {
  return setMarkdown(el('div', { class: 'markdown ' + (cls || '') }), text);
}

// ---------------------------------------------------------------- bounds

// what one call row, message or log line shows at most: a result of 30 MB, or one call after
// another, must not grow the page without end
const SHOWN_CHARS = 100_000;
const SHOWN_CELL = 1_000;
const SHOWN_ROWS = 200;
const KEPT_CALLS = 50;
const SHOWN_LOG_LINE = 10_000;

/** The text, or its first `limit` characters and how many more there are. */
function shown(text, limit = SHOWN_CHARS) {
  return text.length <= limit ? text : text.slice(0, limit) + ' … (' + (text.length - limit).toLocaleString('en') + ' more characters not shown)';
}

/** Element ids the page makes for its forms: numbered, never made of a name, so no name can clash with the page's own. */
let formCount = 0;
const nextFormId = () => 'form-' + ++formCount;

// ---------------------------------------------------------------- HTTP, auth

class Unauthorized extends Error {}

function authHeaders() {
  return state.token ? { Authorization: 'Bearer ' + state.token } : {};
}

function askForToken(why) {
  const form = $('token-form');
  form.hidden = false;
  if (why) $('token-why').textContent = why;
  $('token').focus();
  setConnection('needs an access token', false);
}

$('token-form').addEventListener('submit', (event) => {
  event.preventDefault();
  state.token = $('token').value.trim();
  sessionStorage.setItem(TOKEN_KEY, state.token);
  $('token-form').hidden = true;
  state.session = null;
  start();
});

function setConnection(text, ok) {
  const node = $('connection');
  node.textContent = text;
  node.classList.toggle('ok', ok === true);
  node.classList.toggle('bad', ok === false);
}

/** Reads a text/event-stream body, calling onEvent with each event's data (parsed as JSON). */
async function readSse(response, onEvent) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.search(/\r?\n\r?\n/)) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
      const data = frame
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).replace(/^ /, ''))
        .join('\n');
      if (data) {
        let parsed;
        try {
          parsed = JSON.parse(data);
        } catch {
          continue;
        }
        if ((await onEvent(parsed)) === false) {
          reader.cancel();
          return;
        }
      }
    }
  }
}

// ---------------------------------------------------------------- MCP

async function mcpPost(body) {
  const headers = {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': MCP_VERSION,
    ...authHeaders(),
  };
  if (state.session) headers['Mcp-Session-Id'] = state.session;
  const response = await fetch('/mcp', { method: 'POST', headers, body: JSON.stringify(body) });
  if (response.status === 401 || response.status === 403 && response.headers.get('WWW-Authenticate')) {
    throw new Unauthorized('the server refused the token (' + response.status + ')');
  }
  return response;
}

async function initialize() {
  const response = await mcpPost({
    jsonrpc: '2.0',
    id: state.nextId++,
    method: 'initialize',
    params: {
      protocolVersion: MCP_VERSION,
      capabilities: {},
      clientInfo: { name: 'svc-dev-console', version: '1' },
    },
  });
  const reply = await jsonRpcReply(response);
  if (reply.error) throw new Error(reply.error.message);
  state.session = response.headers.get('Mcp-Session-Id');
  await mcpPost({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return reply.result;
}

/** The JSON-RPC answer of a POST /mcp, whether it came as JSON or as an SSE stream. */
async function jsonRpcReply(response) {
  const type = response.headers.get('Content-Type') || '';
  if (type.startsWith('text/event-stream')) {
    let answer = null;
    await readSse(response, (message) => {
      if ('result' in message || 'error' in message) {
        answer = message;
        return false;
      }
      return true;
    });
    if (answer) return answer;
    throw new Error('the stream ended without an answer');
  }
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new Error('HTTP ' + response.status + ': ' + text.slice(0, 300));
  }
}

/** Calls an MCP method; a lost session (the server restarted) is opened again once. */
async function mcp(method, params = {}) {
  if (!state.session) await initialize();
  let response = await mcpPost({ jsonrpc: '2.0', id: state.nextId++, method, params });
  if (response.status === 404 && state.session) {
    state.session = null;
    await initialize();
    response = await mcpPost({ jsonrpc: '2.0', id: state.nextId++, method, params });
  }
  const reply = await jsonRpcReply(response);
  if (reply.error) {
    const error = new Error(reply.error.message);
    error.data = reply.error.data;
    error.code = reply.error.code;
    throw error;
  }
  return reply.result;
}

async function listAll(method, key) {
  const all = [];
  let cursor;
  do {
    const result = await mcp(method, cursor ? { cursor } : {});
    all.push(...(result[key] || []));
    cursor = result.nextCursor;
  } while (cursor);
  return all;
}

// ---------------------------------------------------------------- tabs

const tabs = [...document.querySelectorAll('[role="tab"]')];

function selectTab(tab, focus) {
  for (const other of tabs) {
    const selected = other === tab;
    other.setAttribute('aria-selected', String(selected));
    other.tabIndex = selected ? 0 : -1;
    $(other.getAttribute('aria-controls')).hidden = !selected;
  }
  if (focus) tab.focus();
  if (tab.id === 'tab-log') scrollLog();
}

for (const tab of tabs) {
  tab.addEventListener('click', () => selectTab(tab, false));
  tab.addEventListener('keydown', (event) => {
    const index = tabs.indexOf(tab);
    const moves = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 };
    if (event.key in moves) {
      selectTab(tabs[(index + moves[event.key] + tabs.length) % tabs.length], true);
      event.preventDefault();
    } else if (event.key === 'Home' || event.key === 'End') {
      selectTab(tabs[event.key === 'Home' ? 0 : tabs.length - 1], true);
      event.preventDefault();
    }
  });
}

/** Fills a list of buttons, keeping the selected one marked. */
function renderList(listId, items, kind, label, sub, onPick) {
  const list = $(listId);
  list.replaceChildren(
    ...items.map((item) =>
      el(
        'li',
        {},
        el(
          'button',
          {
            type: 'button',
            'aria-current': state.selected[kind] === label(item) ? 'true' : false,
            onclick: () => {
              state.selected[kind] = label(item);
              for (const b of list.querySelectorAll('button')) b.removeAttribute('aria-current');
              list.querySelectorAll('button')[items.indexOf(item)].setAttribute('aria-current', 'true');
              onPick(item);
            },
          },
          label(item),
          sub(item) ? el('span', { class: 'sub' }, sub(item)) : null,
        ),
      ),
    ),
  );
  if (items.length === 0) list.replaceChildren(el('li', { class: 'hint' }, 'none'));
}

function firstLine(text) {
  return text ? String(text).split('\n')[0].slice(0, 90) : '';
}

// ---------------------------------------------------------------- forms from JSON Schema

/** One form field for a JSON Schema property; returns [element, read()] where read gives the value or undefined. */
function schemaField(formId, name, schema = {}, required) {
  const id = formId + '-' + name;
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  // the star is outside the label, so the label (the input's name) is the bare name; `required` tells assistive tech
  const label = el('span', { class: 'label-row' }, el('label', { for: id }, name), required ? el('span', { class: 'required', 'aria-hidden': 'true' }, ' *') : null);
  const helpId = schema.description ? id + '-help' : undefined;
  const help = schema.description ? el('span', { class: 'help', id: helpId }, schema.description) : null;
  const common = { id, name, 'aria-describedby': helpId, required: required && type !== 'boolean' };
  let input;
  let read;
  if (Array.isArray(schema.enum)) {
    input = el(
      'select',
      common,
      required ? null : el('option', { value: '' }, '(none)'),
      schema.enum.map((v) => el('option', { value: JSON.stringify(v) }, String(v))),
    );
    if (schema.default !== undefined) input.value = JSON.stringify(schema.default);
    read = () => (input.value === '' ? undefined : JSON.parse(input.value));
  } else if (type === 'boolean') {
    input = el('input', { ...common, type: 'checkbox', checked: schema.default === true });
    read = () => input.checked;
  } else if (type === 'integer' || type === 'number') {
    input = el('input', {
      ...common,
      type: 'number',
      step: type === 'integer' ? '1' : 'any',
      min: schema.minimum,
      max: schema.maximum,
      value: schema.default,
      inputmode: type === 'integer' ? 'numeric' : 'decimal',
    });
    // a whole number beyond JavaScript's exact range goes as the digits typed (svc reads "42" as 42)
    read = () =>
      input.value === ''
        ? undefined
        : type === 'integer' && !Number.isSafeInteger(Number(input.value))
          ? input.value.trim()
          : Number(input.value);
  } else if (type === 'array' || type === 'object' || type === undefined) {
    input = el('textarea', {
      ...common,
      class: 'json',
      rows: 3,
      placeholder: type === 'array' ? '[ … ] (JSON)' : type === 'object' ? '{ … } (JSON)' : 'JSON value',
    });
    if (schema.default !== undefined) input.value = JSON.stringify(schema.default, null, 2);
    read = () => {
      if (input.value.trim() === '') return undefined;
      try {
        return JSON.parse(input.value);
      } catch (e) {
        throw new Error(name + ': not valid JSON (' + e.message + ')');
      }
    };
  } else {
    const inputType = { date: 'date', 'date-time': 'text', email: 'email', uri: 'url' }[schema.format] || 'text';
    input = el('input', {
      ...common,
      type: inputType,
      minlength: schema.minLength,
      maxlength: schema.maxLength,
      pattern: schema.pattern,
      placeholder: schema.format === 'date-time' ? 'YYYY-MM-DDThh:mm:ssZ' : undefined,
      value: schema.default,
    });
    read = () => (input.value === '' ? undefined : input.value);
  }
  const field =
    type === 'boolean'
      ? el('div', { class: 'field' }, el('label', { class: 'check', for: id }, input, ' ' + name), help)
      : el('div', { class: 'field' }, label, help, input);
  return [field, read];
}

// ---------------------------------------------------------------- tools

function renderTools() {
  $('count-tools').textContent = state.tools.length;
  renderList('tool-list', state.tools, 'tools', (t) => t.name, (t) => firstLine(t.title || t.description), showTool);
  const current = state.tools.find((t) => t.name === state.selected.tools);
  if (current) showTool(current);
  else if (state.selected.tools) {
    $('tool-detail').replaceChildren(el('p', { class: 'hint' }, state.selected.tools + ' is no longer served.'));
  }
}

function showTool(tool) {
  const schema = tool.inputSchema || {};
  const required = new Set(schema.required || []);
  const formId = nextFormId();
  const readers = Object.create(null); // an input may be named __proto__
  const fields = Object.entries(schema.properties || {}).map(([name, property]) => {
    const [field, read] = schemaField(formId, name, property, required.has(name));
    readers[name] = read;
    return field;
  });
  const button = el('button', { type: 'submit' }, 'Call');
  const form = el(
    'form',
    {
      id: formId,
      'aria-label': 'Inputs of ' + tool.name,
      onsubmit: async (event) => {
        event.preventDefault();
        let args = Object.create(null);
        try {
          for (const [name, read] of Object.entries(readers)) {
            const value = read();
            if (value !== undefined) args[name] = value;
          }
        } catch (e) {
          addCall(tool.name, args, { error: e.message, ms: 0 });
          return;
        }
        button.disabled = true;
        const started = performance.now();
        try {
          const result = await mcp('tools/call', { name: tool.name, arguments: args });
          addCall(tool.name, args, { result, ms: performance.now() - started });
        } catch (e) {
          if (e instanceof Unauthorized) askForToken();
          addCall(tool.name, args, { error: e.message, data: e.data, ms: performance.now() - started });
        } finally {
          button.disabled = false;
        }
      },
    },
    fields.length ? fields : el('p', { class: 'hint' }, 'No inputs.'),
    button,
  );
  $('tool-detail').replaceChildren(
    el('h3', {}, tool.title || tool.name),
    tool.description ? markdown(tool.description, 'description') : null,
    form,
  );
}

/** A cell's value as text, at most SHOWN_CELL characters. */
function cellText(value) {
  return shown(typeof value === 'object' && value !== null ? JSON.stringify(value) : value === null || value === undefined ? '' : String(value), SHOWN_CELL);
}

/** A value as a table when it is a list of flat objects (its first SHOWN_ROWS rows), else as JSON. */
function valueView(value) {
  const all = Array.isArray(value) ? value : value && Array.isArray(value.rows) ? value.rows : null;
  if (all && all.length && all.every((r) => r && typeof r === 'object' && !Array.isArray(r))) {
    const rows = all.slice(0, SHOWN_ROWS);
    const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
    const extra = value && !Array.isArray(value) ? Object.keys(value).filter((k) => k !== 'rows') : [];
    return el(
      'div',
      {},
      el(
        'table',
        {},
        el('thead', {}, el('tr', {}, columns.map((c) => el('th', { scope: 'col' }, c)))),
        el(
          'tbody',
          {},
          rows.map((r) =>
            el('tr', {}, columns.map((c) => el('td', {}, cellText(r[c])))),
          ),
        ),
      ),
      all.length > rows.length ? el('p', { class: 'hint' }, 'Showing the first ' + rows.length + ' of ' + all.length.toLocaleString('en') + ' rows.') : null,
      extra.length ? el('pre', { class: 'value' }, shown(JSON.stringify(Object.fromEntries(extra.map((k) => [k, value[k]])), null, 2))) : null,
    );
  }
  return el('pre', { class: 'value' }, shown(typeof value === 'string' ? value : JSON.stringify(value, null, 2)));
}

function contentText(content = []) {
  return shown(content.map((c) => (c.type === 'text' ? c.text : c.type === 'resource' ? c.resource?.text || '' : '[' + c.type + ']')).join('\n'));
}

function addCall(name, args, outcome) {
  const failed = outcome.error !== undefined || outcome.result?.isError;
  const body = outcome.error !== undefined
    ? el('div', { class: 'errortext' }, shown(String(outcome.error)), outcome.data ? el('pre', { class: 'value' }, shown(JSON.stringify(outcome.data, null, 2))) : null)
    : outcome.result.isError
      ? el('div', { class: 'errortext' }, contentText(outcome.result.content))
      : valueView(outcome.result.structuredContent ?? contentText(outcome.result.content));
  const row = el(
    'li',
    { class: 'call' + (failed ? ' error' : '') },
    el(
      'header',
      {},
      el('span', { class: 'name' }, name),
      el('span', { class: 'status' }, failed ? 'error' : 'ok'),
      el('span', { class: 'meta' }, Math.round(outcome.ms) + ' ms'),
      el('span', { class: 'meta' }, new Date().toLocaleTimeString()),
      el('code', { class: 'meta' }, shown(JSON.stringify(args), SHOWN_CELL)),
    ),
    body,
  );
  const calls = $('calls');
  calls.prepend(row);
  while (calls.children.length > KEPT_CALLS) calls.lastElementChild.remove();
}

// ---------------------------------------------------------------- prompts

function renderPrompts() {
  $('count-prompts').textContent = state.prompts.length;
  renderList('prompt-list', state.prompts, 'prompts', (p) => p.name, (p) => firstLine(p.title || p.description), showPrompt);
  const current = state.prompts.find((p) => p.name === state.selected.prompts);
  if (current) showPrompt(current);
}

function showPrompt(prompt) {
  const formId = nextFormId();
  const readers = Object.create(null); // an input may be named __proto__
  const fields = (prompt.arguments || []).map((argument) => {
    const [field, read] = schemaField(formId, argument.name, { type: 'string', description: argument.description }, argument.required);
    readers[argument.name] = read;
    return field;
  });
  const button = el('button', { type: 'submit' }, 'Render');
  const form = el(
    'form',
    {
      id: formId,
      'aria-label': 'Arguments of ' + prompt.name,
      onsubmit: async (event) => {
        event.preventDefault();
        const args = Object.create(null);
        for (const [name, read] of Object.entries(readers)) {
          const value = read();
          if (value !== undefined) args[name] = value;
        }
        button.disabled = true;
        const output = $('prompt-output');
        try {
          const result = await mcp('prompts/get', { name: prompt.name, arguments: args });
          output.replaceChildren(
            el('h3', {}, 'Rendered ' + prompt.name),
            result.description ? markdown(result.description, 'description') : null,
            ...(result.messages || []).map((m) =>
              el('div', { class: 'message' }, el('div', { class: 'role' }, m.role), el('div', { class: 'value-text' }, contentText([m.content]))),
            ),
          );
        } catch (e) {
          if (e instanceof Unauthorized) askForToken();
          output.replaceChildren(el('p', { class: 'errortext' }, e.message));
        } finally {
          button.disabled = false;
        }
      },
    },
    fields.length ? fields : el('p', { class: 'hint' }, 'No arguments.'),
    button,
  );
  $('prompt-detail').replaceChildren(
    el('h3', {}, prompt.title || prompt.name),
    prompt.description ? markdown(prompt.description, 'description') : null,
    form,
  );
}

// ---------------------------------------------------------------- resources

function renderResources() {
  $('count-resources').textContent = state.resources.length + state.templates.length;
  renderList('resource-list', state.resources, 'resources', (r) => r.uri, (r) => r.name || r.title, (r) => {
    $('resource-detail').replaceChildren(
      el('h3', {}, r.title || r.name || r.uri),
      r.description ? markdown(r.description, 'description') : null,
      el('p', {}, el('code', {}, r.uri), r.mimeType ? ' · ' + r.mimeType : ''),
    );
    readResource(r.uri);
  });
  renderList('template-list', state.templates, 'resources', (t) => t.uriTemplate, (t) => t.name || t.title, showTemplate);
}

function showTemplate(template) {
  const names = [...template.uriTemplate.matchAll(/\{[+#./;?&]?([^}]+)\}/g)].flatMap((m) => m[1].split(',').map((n) => n.replace(/\*$|:\d+$/, '')));
  const readers = Object.create(null); // an input may be named __proto__
  const formId = nextFormId();
  const fields = names.map((name) => {
    const [field, read] = schemaField(formId, name, { type: 'string' }, true);
    readers[name] = read;
    return field;
  });
  const form = el(
    'form',
    {
      'aria-label': 'Variables of ' + template.uriTemplate,
      onsubmit: (event) => {
        event.preventDefault();
        const uri = template.uriTemplate.replace(/\{[+#./;?&]?([^}]+)\}/g, (_, list) =>
          list
            .split(',')
            .map((n) => encodeURIComponent(readers[n.replace(/\*$|:\d+$/, '')]() ?? ''))
            .join(','),
        );
        readResource(uri);
      },
    },
    fields,
    el('button', { type: 'submit' }, 'Read'),
  );
  $('resource-detail').replaceChildren(
    el('h3', {}, template.title || template.name),
    template.description ? markdown(template.description, 'description') : null,
    el('p', {}, el('code', {}, template.uriTemplate)),
    form,
  );
}

async function readResource(uri) {
  const output = $('resource-output');
  output.replaceChildren(el('p', { class: 'hint' }, 'Reading ' + uri + ' …'));
  try {
    const result = await mcp('resources/read', { uri });
    output.replaceChildren(
      ...(result.contents || []).map((c) =>
        el(
          'div',
          { class: 'message' },
          el('div', { class: 'role' }, c.uri + (c.mimeType ? ' · ' + c.mimeType : '')),
          c.text !== undefined ? el('pre', { class: 'value' }, shown(c.text)) : el('p', {}, '(binary, ' + Math.round((c.blob || '').length * 0.75) + ' bytes)'),
        ),
      ),
    );
  } catch (e) {
    if (e instanceof Unauthorized) askForToken();
    output.replaceChildren(el('p', { class: 'errortext' }, e.message));
  }
}

// ---------------------------------------------------------------- agents (A2A v1 over SSE)

function renderAgents() {
  $('count-agents').textContent = state.agents.length;
  if (!state.agents.some((a) => a.name === state.selected.agents)) {
    state.selected.agents = state.agents[0]?.name ?? null;
    state.chat.contextId = null;
  }
  renderList('agent-list', state.agents, 'agents', (a) => a.name, (a) => firstLine(a.description), (a) => {
    if (state.selected.agents !== a.name) state.chat.contextId = null;
    state.selected.agents = a.name;
    $('chat-title').textContent = 'Chat with ' + a.name;
    $('chat-input').focus();
  });
  $('chat-title').textContent = state.selected.agents ? 'Chat with ' + state.selected.agents : 'Chat (no agents)';
  $('chat-send').disabled = !state.selected.agents;
}

function bubble(kind, text) {
  const node = el('li', { class: 'bubble ' + kind }, el('span', { class: 'text' }, text));
  $('chat').append(node);
  node.scrollIntoView({ block: 'end' });
  return node;
}

function partsText(parts = []) {
  return parts.map((p) => (p.text !== undefined ? p.text : p.data !== undefined ? JSON.stringify(p.data) : '')).join('');
}

async function sendChat(text) {
  const agent = state.selected.agents;
  if (!agent || state.chat.busy) return;
  state.chat.busy = true;
  $('chat-send').disabled = true;
  bubble('user', text);
  const answer = bubble('agent', '');
  const textNode = answer.querySelector('.text');
  const stateNode = el('span', { class: 'state' }, 'working…');
  answer.append(stateNode);
  const message = {
    messageId: 'console-' + Date.now().toString(36) + '-' + Math.random().toString(36).slice(2),
    role: 'ROLE_USER',
    parts: [{ text, mediaType: 'text/plain' }],
  };
  if (state.chat.contextId) message.contextId = state.chat.contextId;
  const started = performance.now();
  let streamed = '';
  let final = '';
  let finished = false;
  let frame = 0;
  // at most one redraw a frame, however many pieces arrive
  const redraw = () => {
    frame = 0;
    if (finished) return;
    if (streamed.length > STREAMING_MARKDOWN_MAX) setPlain(textNode, streamed);
    else setMarkdown(textNode, streamed);
    answer.scrollIntoView({ block: 'end' });
  };
  try {
    const response = await fetch('/agent/' + encodeURIComponent(agent), {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'text/event-stream',
        'A2A-Version': '1.0',
        ...authHeaders(),
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: state.nextId++, method: 'SendStreamingMessage', params: { message, configuration: {} } }),
    });
    if (response.status === 401) {
      askForToken();
      throw new Error('the server asks for an access token');
    }
    if (!(response.headers.get('Content-Type') || '').startsWith('text/event-stream')) {
      const reply = await response.json().catch(() => ({}));
      throw new Error(reply.error?.message || 'HTTP ' + response.status);
    }
    await readSse(response, (event) => {
      if (event.error) throw new Error(event.error.message);
      const result = event.result || {};
      const task = result.task;
      if (task) {
        state.chat.contextId = task.contextId || state.chat.contextId;
        stateNode.textContent = stateLabel(task.status?.state);
      }
      if (result.message) {
        state.chat.contextId = result.message.contextId || state.chat.contextId;
        final = partsText(result.message.parts);
      }
      const artifact = result.artifactUpdate;
      if (artifact) {
        const chunk = partsText(artifact.artifact?.parts);
        streamed = artifact.append ? streamed + chunk : chunk;
        if (!frame) frame = requestAnimationFrame(redraw);
      }
      const status = result.statusUpdate;
      if (status) {
        state.chat.contextId = status.contextId || state.chat.contextId;
        stateNode.textContent = stateLabel(status.status?.state);
        if (status.status?.message) final = partsText(status.status.message.parts) || final;
      }
      return true;
    });
    finished = true;
    if (streamed || final) setMarkdown(textNode, streamed || final);
    answer.scrollIntoView({ block: 'end' });
    stateNode.textContent += ' · ' + Math.round(performance.now() - started) + ' ms';
  } catch (e) {
    answer.classList.add('error');
    textNode.textContent = textNode.textContent ? textNode.textContent + '\n' + e.message : e.message;
    stateNode.textContent = 'failed';
  } finally {
    finished = true;
    state.chat.busy = false;
    $('chat-send').disabled = !state.selected.agents;
  }
}

function stateLabel(value) {
  return value ? value.replace(/^TASK_STATE_/, '').toLowerCase().replace(/_/g, ' ') : '';
}

$('chat-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = $('chat-input');
  const text = input.value.trim();
  if (!text) return;
  input.value = '';
  sendChat(text);
});
$('chat-input').addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    $('chat-form').requestSubmit();
  }
});
$('chat-new').addEventListener('click', () => {
  state.chat.contextId = null;
  $('chat').replaceChildren();
  $('chat-input').focus();
});

// ---------------------------------------------------------------- log tail and reloads

const LOG_LIMIT = 2000;
const logLines = [];

function addLogLine(text) {
  const line = shown(String(text), SHOWN_LOG_LINE);
  logLines.push(line);
  if (logLines.length > LOG_LIMIT) logLines.splice(0, logLines.length - LOG_LIMIT);
  const filter = $('log-filter').value;
  if (!filter || line.includes(filter)) {
    const log = $('log');
    log.append(line + '\n');
    while (log.childNodes.length > LOG_LIMIT) log.firstChild.remove();
    scrollLog();
  }
}

function scrollLog() {
  if ($('log-follow').checked) $('log').scrollTop = $('log').scrollHeight;
}

function redrawLog() {
  const filter = $('log-filter').value;
  $('log').textContent = logLines.filter((l) => !filter || l.includes(filter)).join('\n') + (logLines.length ? '\n' : '');
  scrollLog();
}

$('log-filter').addEventListener('input', redrawLog);
$('log-clear').addEventListener('click', () => {
  logLines.length = 0;
  redrawLog();
});

let toastTimer;
function toast(text) {
  const node = $('toast');
  node.textContent = text;
  node.classList.add('shown');
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => node.classList.remove('shown'), 4000);
}

async function refresh() {
  const [tools, prompts, resources, templates] = await Promise.all([
    listAll('tools/list', 'tools'),
    listAll('prompts/list', 'prompts'),
    listAll('resources/list', 'resources'),
    listAll('resources/templates/list', 'resourceTemplates'),
  ]);
  Object.assign(state, { tools, prompts, resources, templates });
  renderTools();
  renderPrompts();
  renderResources();
}

function describe(event) {
  state.agents = event.agents || [];
  $('service').textContent = event.service + (event.version ? ' ' + event.version : '');
  document.title = 'svc dev console · ' + event.service;
  renderAgents();
}

/** GET /ui/events, with the token (hence fetch, not EventSource); reconnects when it ends. */
async function followEvents() {
  for (;;) {
    try {
      const response = await fetch('/ui/events', { headers: { Accept: 'text/event-stream', ...authHeaders() } });
      if (response.status === 401) {
        askForToken();
        return;
      }
      if (!response.ok) throw new Error('HTTP ' + response.status);
      await readSse(response, async (event) => {
        if (event.type === 'hello') {
          describe(event);
          setConnection('connected', true);
        } else if (event.type === 'reload') {
          $('problems').hidden = true;
          describe(event);
          await refresh();
          const changed = event.changedTools?.length ? ' (tools changed: ' + event.changedTools.join(', ') + ')' : '';
          toast('Reloaded' + changed);
        } else if (event.type === 'reloadFailed') {
          $('problems-list').textContent = (event.problems || []).join('\n');
          $('problems').hidden = false;
        } else if (event.type === 'log') {
          addLogLine(event.line);
        } else if (event.type === 'dropped') {
          addLogLine('… ' + event.lines + ' log lines dropped (the page fell behind)');
        }
        return true;
      });
    } catch (e) {
      // the server stopped or restarts: say so, then try again
    }
    setConnection('disconnected, retrying…', false);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    state.session = null;
    try {
      await refresh();
    } catch {
      // not back yet
    }
  }
}

let following = false;
async function start() {
  setConnection('connecting…');
  try {
    await refresh();
    setConnection('connected', true);
    if (!following) {
      following = true;
      followEvents().finally(() => {
        following = false;
      });
    }
  } catch (e) {
    if (e instanceof Unauthorized) askForToken(state.token ? 'The server refused this token: enter another.' : undefined);
    else setConnection('cannot reach /mcp: ' + e.message, false);
  }
}

start();
