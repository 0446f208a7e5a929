package dev.svc.agent;

import tools.jackson.databind.node.ObjectNode;

/**
 * A tool as offered to a model: a function declaration.
 *
 * @param name a name every provider accepts (see {@link FunctionNames})
 * @param parameters the JSON Schema of the arguments (an object schema)
 */
public record FunctionSpec(String name, String description, ObjectNode parameters) {}
