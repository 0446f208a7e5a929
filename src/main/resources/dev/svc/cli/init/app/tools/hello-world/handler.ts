// The handler receives the validated inputs and returns the tool's result (any JSON value).
// Scripts run in a sandbox: no filesystem, processes or sockets; `fetch` and `console` are provided.
interface Payload {
  inputs: { name: string };
  tool: string;
}

export default async function handler({ inputs }: Payload) {
  return { greeting: `Hello, ${inputs.name}!` };
}
