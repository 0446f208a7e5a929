/**
 * The dev console ({@code svc start --ui}): a web page at {@code /ui} that calls the server's own
 * protocols (MCP at {@code /mcp}, A2A at {@code /agent/{name}}) from the browser, plus the one
 * stream those protocols lack, {@code /ui/events} (log lines and reloads).
 */
package dev.svc.protocol.console;
