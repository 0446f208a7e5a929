// Drives an svc agent with the official A2A JavaScript SDK client (@a2a-js/sdk 1.3.0).
// Usage: node client.mjs <agent card URL>
// Prints one JSON object per line on stdout. Two lines ask the test for a move and wait for
// "go" on stdin: {"step":"cancel-ready"} (the model call has to be running before the cancel) and
// {"step":"subscribed"} (the test then lets the model answer).
import { ClientFactory } from '@a2a-js/sdk/client';
import { Role, TaskState } from '@a2a-js/sdk';
import { randomUUID } from 'node:crypto';
import readline from 'node:readline';

const cardUrl = process.argv[2];
const stdin = readline.createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const out = (value) => console.log(JSON.stringify(value));
const waitForGo = async () => {
  const line = await stdin.next();
  if (line.done || line.value.trim() !== 'go') throw new Error('the test did not say go');
};
const state = (task) => TaskState[task.status?.state];
const text = (parts) =>
  (parts ?? []).map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');
const message = (value) => ({
  messageId: randomUUID(),
  contextId: '',
  taskId: '',
  role: Role.ROLE_USER,
  parts: [{ content: { $case: 'text', value }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});
const send = (value, configuration) => ({
  tenant: '',
  message: message(value),
  configuration: configuration && {
    acceptedOutputModes: ['text/plain'],
    taskPushNotificationConfig: undefined,
    historyLength: undefined,
    returnImmediately: false,
    ...configuration,
  },
  metadata: undefined,
});
const describe = (event) => {
  const { $case, value } = event.payload;
  switch ($case) {
    case 'task':
      return { kind: 'task', state: state(value), id: value.id };
    case 'statusUpdate':
      return { kind: 'statusUpdate', state: TaskState[value.status?.state], text: text(value.status?.message?.parts) };
    case 'artifactUpdate':
      return { kind: 'artifactUpdate', text: text(value.artifact?.parts), append: value.append, lastChunk: value.lastChunk };
    default:
      return { kind: $case };
  }
};

const factory = new ClientFactory();
const client = await factory.createFromUrl(cardUrl, '');
out({ step: 'card', name: client.agentCard.name, url: client.agentCard.supportedInterfaces[0].url, streaming: client.agentCard.capabilities?.streaming });

// 1. sendMessage: blocking, the model calls a tool and answers
const result = await client.sendMessage(send('Weather in Paris?'));
out({ step: 'sendMessage', isTask: !('messageId' in result), state: state(result), id: result.id, contextId: result.contextId,
  artifact: text(result.artifacts?.[0]?.parts), status: text(result.status?.message?.parts), history: result.history.length });

// 2. sendMessageStream
const events = [];
for await (const event of client.sendMessageStream(send('Stream please'))) events.push(describe(event));
out({ step: 'sendMessageStream', events });

// 3. getTask with historyLength, listTasks with paging
const fetched = await client.getTask({ tenant: '', id: result.id, historyLength: 1 });
out({ step: 'getTask', state: state(fetched), history: fetched.history.length, role: Role[fetched.history[0]?.role], artifact: text(fetched.artifacts?.[0]?.parts) });
const page = await client.listTasks({ tenant: '', contextId: '', status: TaskState.TASK_STATE_UNSPECIFIED, pageSize: 1, pageToken: '',
  historyLength: undefined, statusTimestampAfter: undefined, includeArtifacts: undefined });
const next = await client.listTasks({ tenant: '', contextId: '', status: TaskState.TASK_STATE_COMPLETED, pageSize: 1, pageToken: page.nextPageToken,
  historyLength: undefined, statusTimestampAfter: undefined, includeArtifacts: undefined });
out({ step: 'listTasks', size: page.tasks.length, totalSize: page.totalSize, hasNext: page.nextPageToken !== '', nextSize: next.tasks.length, nextState: state(next.tasks[0]) });

// 4. cancelTask on a running task
const submitted = await client.sendMessage(send('Take your time', { returnImmediately: true }));
out({ step: 'cancel-ready', state: state(submitted) });
await waitForGo();
const canceled = await client.cancelTask({ tenant: '', id: submitted.id, metadata: undefined });
out({ step: 'cancelTask', state: state(canceled) });
let again;
try {
  await client.cancelTask({ tenant: '', id: submitted.id, metadata: undefined });
} catch (e) {
  again = e.constructor.name;
}
out({ step: 'cancelAgain', error: again });

// 5. subscribe to a running task after leaving its first stream
let id;
for await (const event of client.sendMessageStream(send('Resubscribe me'))) {
  id = event.payload.value.id;
  break;
}
const subscribed = [];
for await (const event of client.resubscribeTask({ tenant: '', id })) {
  subscribed.push(describe(event));
  if (subscribed.length === 1) {
    out({ step: 'subscribed' });
    await waitForGo();
  }
}
out({ step: 'resubscribe', events: subscribed });

// 6. the extended card, and an error
const extended = await client.getAgentCard();
out({ step: 'extendedCard', skills: extended.skills.map((s) => s.id) });
try {
  await client.getTask({ tenant: '', id: 'nope', historyLength: undefined });
} catch (e) {
  out({ step: 'notFound', error: e.constructor.name, message: e.message });
}
process.exit(0);
