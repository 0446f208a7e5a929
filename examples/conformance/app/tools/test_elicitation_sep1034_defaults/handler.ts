export default async () => {
  const answer = await mcp.elicit({
    message: "Please confirm your details",
    schema: {
      type: "object",
      properties: {
        name: { type: "string", description: "User name", default: "John Doe" },
        age: { type: "integer", description: "User age", default: 30 },
        score: { type: "number", description: "User score", default: 95.5 },
        status: {
          type: "string",
          description: "User status",
          enum: ["active", "inactive", "pending"],
          default: "active",
        },
        verified: { type: "boolean", description: "Verification status", default: true },
      },
    },
  });
  return mcp.content(
    mcp.text(`Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`),
  );
};
