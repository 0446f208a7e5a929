export default async () => {
  const name = await mcp.elicit({
    key: "step1",
    message: "Step 1: What is your name?",
    schema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
  });
  const color = await mcp.elicit({
    key: "step2",
    message: "Step 2: What is your favorite color?",
    schema: { type: "object", properties: { color: { type: "string" } }, required: ["color"] },
  });
  return mcp.content(mcp.text(`${name.content?.name} likes ${color.content?.color}`));
};
