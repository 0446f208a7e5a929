export default async () => {
  const { roots } = await mcp.listRoots({ key: "client_roots" });
  return mcp.content(mcp.text(`Client roots: ${roots.map((root) => root.uri).join(", ")}`));
};
