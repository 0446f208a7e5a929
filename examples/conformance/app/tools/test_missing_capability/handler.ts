// svc answers -32021 (HTTP 400, data.requiredCapabilities.sampling) when the request's _meta did not
// declare sampling, whatever the handler does with the rejected promise.
export default async () => {
  const answer = await mcp.sample({
    messages: [{ role: "user", content: { type: "text", text: "Say hello" } }],
    maxTokens: 20,
  });
  return mcp.content(mcp.text(`LLM response: ${JSON.stringify(answer.content)}`));
};
