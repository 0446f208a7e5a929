export default async () => {
  const answer = await mcp.sample(
    {
      messages: [{ role: "user", content: { type: "text", text: "What is the capital of France?" } }],
      maxTokens: 100,
    },
    { key: "capital_question" },
  );
  const text = answer.content?.type === "text" ? answer.content.text : JSON.stringify(answer.content);
  return mcp.content(mcp.text(`LLM response: ${text}`));
};
