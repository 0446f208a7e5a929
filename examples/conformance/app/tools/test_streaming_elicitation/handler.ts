export default async () => {
  const answer = await mcp.elicit({
    message: "Anything to add?",
    schema: { type: "object", properties: { note: { type: "string" } } },
  });
  return mcp.content(mcp.text(`action=${answer.action}`));
};
