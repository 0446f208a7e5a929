package dev.svc.model;

import java.util.Optional;

/**
 * MCP tool annotations as svc sends them in {@code tools/list}: what the compiler derived from the
 * tool (its {@code read_only} field, its statement), each overridden by the tool's {@code
 * annotations} block. Hints for clients, never enforcement (docs/decisions.md "Read-only tools and
 * annotations"); an empty hint is left out, so the client assumes MCP's default.
 */
public record ToolAnnotations(
    Optional<String> title,
    Optional<Boolean> readOnly,
    Optional<Boolean> destructive,
    Optional<Boolean> idempotent,
    Optional<Boolean> openWorld) {
  public static final ToolAnnotations NONE =
      new ToolAnnotations(
          Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());

  /** A tool that only reads a closed domain: read-only, not destructive, idempotent. */
  public static final ToolAnnotations READS =
      new ToolAnnotations(
          Optional.empty(),
          Optional.of(true),
          Optional.of(false),
          Optional.of(true),
          Optional.of(false));

  public boolean isEmpty() {
    return equals(NONE);
  }
}
