/**
 * MCP over Streamable HTTP at {@code /mcp}: {@link dev.svc.protocol.mcp.McpServer} is the transport
 * of the session revisions (status codes, headers, sessions, {@code Accept} and {@code
 * Content-Type}, SSE) and hands requests that claim 2026-07-28 to {@link
 * dev.svc.protocol.mcp.StatelessMcp} (per-request {@code _meta}, mirrored headers, {@code
 * server/discover}, {@code subscriptions/listen}); {@link dev.svc.protocol.mcp.McpRequests} runs
 * one request of either (dispatch, cancellation, telemetry, failure mapping), and the method
 * classes answer {@code tools/*}, {@code prompts/*}, {@code resources/*}, {@code
 * completion/complete} and {@code logging/setLevel}. Asking the client goes through {@link
 * dev.svc.protocol.mcp.SessionClientRequests} (a request on the call's stream) or {@link
 * dev.svc.protocol.mcp.InputRounds} (an {@code input_required} result). Results are wire records
 * ({@link dev.svc.protocol.mcp.CallToolResult}, {@link dev.svc.protocol.mcp.Content}, {@link
 * dev.svc.protocol.mcp.InitializeResult}, …) written with the one shared JSON mapper.
 *
 * <p>Normative source: the MCP specification, revisions 2026-07-28 (stateless) and 2025-11-25
 * (older revisions 2025-06-18, 2025-03-26 and 2024-11-05 negotiated), "Basic" and "Server
 * features"; how svc applies them is in {@code docs/serving.md}.
 */
package dev.svc.protocol.mcp;
