// The arguments arrive as sent, already checked against the tool's input_schema.
export default ({ inputs }: { inputs: { name?: string; contactMethod?: string } }) =>
  `ok: ${inputs.name ?? "anonymous"} by ${inputs.contactMethod ?? "email"}`;
