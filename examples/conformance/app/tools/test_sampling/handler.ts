export default async ({ inputs }: { inputs: { prompt: string } }) => {
  const result = await mcp.sample({
    messages: [{ role: "user", content: { type: "text", text: inputs.prompt } }],
    maxTokens: 100,
  });
  const text = result.content?.type === "text" ? result.content.text : JSON.stringify(result.content);
  return mcp.content(mcp.text(`LLM response: ${text}`));
};
