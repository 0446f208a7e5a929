package dev.svc.model;

/**
 * A tool's {@code confirm}: the question the server asks the user (MCP elicitation) before the tool
 * runs, and what happens when the client cannot be asked.
 *
 * @param message the message template as written; {@code {{ inputs.x }}} placeholders name declared
 *     inputs (the compiler checks them)
 * @param runWithoutAsking {@code confirm_fallback: allow}: a client without the elicitation
 *     capability gets the tool run without asking; {@code false} ({@code refuse}, the default)
 *     refuses the call
 */
public record Confirmation(String message, boolean runWithoutAsking) {}
