package dev.svc.agent;

import tools.jackson.databind.JsonNode;

/**
 * A tool call the model asked for.
 *
 * @param id the provider's call id (OpenAI {@code tool_calls[].id}, Gemini {@code
 *     functionCall.id}); empty when the provider gives none
 * @param name the function name the model used (see {@link FunctionNames})
 * @param arguments the arguments object; an empty object when the model sent none or bad JSON
 */
public record ToolCall(String id, String name, JsonNode arguments) {}
