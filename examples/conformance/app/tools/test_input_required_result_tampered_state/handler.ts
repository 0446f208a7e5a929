export default async () => {
  const answer = await mcp.elicit({
    key: "confirm",
    message: "Please confirm",
    schema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
  });
  return mcp.content(mcp.text(`confirmed: ${answer.action === "accept"}`));
};
