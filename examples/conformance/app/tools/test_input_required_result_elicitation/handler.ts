// Under 2026-07-28 the first call ends with an input_required result; the retry carries the answer.
export default async () => {
  const answer = await mcp.elicit({
    key: "user_name",
    message: "What is your name?",
    schema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
  });
  const name = answer.action === "accept" ? answer.content?.name : "stranger";
  return mcp.content(mcp.text(`Hello, ${name}!`));
};
