/**
 * MCP over Streamable HTTP at {@code /mcp}: {@link dev.svc.protocol.mcp.McpServer} is the transport
 * (status codes, headers, sessions, {@code Accept} and {@code Content-Type}, SSE), {@link
 * dev.svc.protocol.mcp.McpRequests} runs one request (dispatch, cancellation, telemetry, failure
 * mapping), and the method classes answer {@code tools/*}, {@code prompts/*}, {@code resources/*},
 * {@code completion/complete} and {@code logging/setLevel}. Results are wire records ({@link
 * dev.svc.protocol.mcp.CallToolResult}, {@link dev.svc.protocol.mcp.Content}, {@link
 * dev.svc.protocol.mcp.InitializeResult}, …) written with the one shared JSON mapper.
 *
 * <p>Normative source: the MCP specification, revision 2025-11-25 (older revisions 2025-06-18,
 * 2025-03-26 and 2024-11-05 negotiated), "Basic" and "Server features"; how svc applies it is in
 * {@code docs/serving.md}.
 */
package dev.svc.protocol.mcp;
