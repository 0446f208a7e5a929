// The handler receives the validated inputs and returns the tool's result (any JSON value).
// `Svc.HandlerPayload<"hello-world">` is this tool's payload, declared in .svc-types/svc.d.ts from
// config.terse (svc validate and svc start rewrite it): a misspelt input is a type error.
// Scripts run in a sandbox: no filesystem, processes or sockets; `fetch` and `console` are provided.
export default async function handler({ inputs }: Svc.HandlerPayload<"hello-world">) {
  return { greeting: `Hello, ${inputs.name}!` };
}
