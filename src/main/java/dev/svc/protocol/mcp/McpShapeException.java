package dev.svc.protocol.mcp;

import dev.svc.SvcException;

/**
 * A JSON value read as an MCP type it is not (see {@link McpWire}); the message names the field by
 * its path, e.g. {@code `content[0].text` is required}.
 */
public final class McpShapeException extends SvcException {
  private final boolean missing;

  private McpShapeException(String message, boolean missing) {
    super(message);
    this.missing = missing;
  }

  /** A required field is absent, {@code null} or not of its type. */
  static McpShapeException missing(String path) {
    return new McpShapeException("`" + path + "` is required", true);
  }

  /** A field that is there is not what the type allows. */
  static McpShapeException invalid(String path, String expected) {
    return new McpShapeException("`" + path + "` must be " + expected, false);
  }

  /** Whether a required field is missing, rather than a field present with a wrong value. */
  public boolean missing() {
    return missing;
  }
}
