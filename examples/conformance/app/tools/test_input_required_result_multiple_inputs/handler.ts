// Questions asked together (Promise.all) go out together in one input_required result.
export default async () => {
  const [name, greeting, roots] = await Promise.all([
    mcp.elicit({
      key: "user_name",
      message: "What is your name?",
      schema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    }),
    mcp.sample(
      { messages: [{ role: "user", content: { type: "text", text: "Generate a greeting" } }], maxTokens: 50 },
      { key: "greeting" },
    ),
    mcp.listRoots({ key: "client_roots" }),
  ]);
  const text = greeting.content?.type === "text" ? greeting.content.text : "";
  return mcp.content(
    mcp.text(`${text} ${name.content?.name ?? "stranger"} (${roots.roots.length} roots)`),
  );
};
