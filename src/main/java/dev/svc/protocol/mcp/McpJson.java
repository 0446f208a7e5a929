package dev.svc.protocol.mcp;

import tools.jackson.databind.node.ObjectNode;

/**
 * An MCP wire record: written as a JSON object (absent optional fields left out), which the shared
 * mapper serializes; read back by the record's {@code fromJson}.
 */
public interface McpJson {
  ObjectNode toJson();
}
