// mcp.canAsk tells whether the request declared the capability; asking without it would end the
// call with -32021 (missing client capability).
export default async () => {
  const asked: Promise<string>[] = [];
  if (mcp.canAsk("elicitation")) {
    asked.push(
      mcp
        .elicit({
          key: "user_name",
          message: "What is your name?",
          schema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
        })
        .then((answer) => `name: ${answer.content?.name ?? answer.action}`),
    );
  }
  if (mcp.canAsk("sampling")) {
    asked.push(
      mcp
        .sample(
          { messages: [{ role: "user", content: { type: "text", text: "Generate a greeting" } }], maxTokens: 50 },
          { key: "greeting" },
        )
        .then((answer) => `greeting: ${answer.content?.text ?? ""}`),
    );
  }
  const answers = await Promise.all(asked);
  return mcp.content(mcp.text(answers.length === 0 ? "nothing to ask this client" : answers.join("; ")));
};
