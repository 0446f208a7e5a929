export default async ({ inputs }: { inputs: { message: string } }) => {
  const answer = await mcp.elicit({
    message: inputs.message,
    schema: {
      type: "object",
      properties: {
        username: { type: "string", description: "User's response" },
        email: { type: "string", description: "User's email address" },
      },
      required: ["username", "email"],
    },
  });
  return mcp.content(
    mcp.text(`User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`),
  );
};
