// svc checks the echoed requestState (signed, bound to this call) before the handler runs again, so
// reaching the end of the handler means the state was valid.
export default async () => {
  const answer = await mcp.elicit({
    key: "confirm",
    message: "Please confirm",
    schema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
  });
  return mcp.content(mcp.text(`state-ok: confirmed=${answer.action === "accept" && answer.content?.ok === true}`));
};
