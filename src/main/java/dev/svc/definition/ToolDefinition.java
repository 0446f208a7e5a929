package dev.svc.definition;

import dev.svc.diagnostic.Origin;
import dev.svc.project.YamlNode;
import java.util.List;
import java.util.Optional;

/**
 * What the user wrote in a tool's {@code config.terse}.
 *
 * @param origin start of the file
 * @param directory the tool directory relative to the project, where script paths start
 * @param directoryName the last segment of {@code directory}, the default name
 * @param maxRows {@code max_rows}, overriding {@code tools.max_rows}
 * @param maxBytes {@code max_bytes}, overriding {@code tools.max_bytes}
 * @param rateLimit {@code rate_limit}, overriding {@code tools.rate_limit}
 * @param outputSchema the {@code output_schema} mapping as written, checked by the compiler
 * @param confirm the {@code confirm} message template
 * @param confirmFallback {@code confirm_fallback}: {@code allow} or {@code refuse}
 * @param inputSchema the {@code input_schema} mapping as written, checked by the compiler
 * @param session the {@code session} block: per-call PostgreSQL settings and role
 */
public record ToolDefinition(
    Origin origin,
    String directory,
    String directoryName,
    Optional<Located<String>> name,
    Optional<Located<String>> description,
    Optional<Located<String>> use,
    Optional<Located<String>> statement,
    Optional<Located<String>> handler,
    Optional<Located<String>> inputMapper,
    Optional<Located<String>> outputMapper,
    List<InputDefinition> inputs,
    Optional<AuthDefinition> auth,
    Optional<CacheDefinition> cache,
    Optional<Located<Long>> timeout,
    Optional<Located<Long>> maxRows,
    Optional<Located<Long>> maxBytes,
    Optional<Located<Boolean>> readOnly,
    Optional<RateLimitDefinition> rateLimit,
    Optional<AnnotationsDefinition> annotations,
    Optional<YamlNode> outputSchema,
    Optional<Located<String>> confirm,
    Optional<Located<String>> confirmFallback,
    Optional<YamlNode> inputSchema,
    Optional<SessionDefinition> session) {
  public ToolDefinition {
    inputs = List.copyOf(inputs);
  }

  /** The {@code annotations} block: hints the user sets, each overriding the derived one. */
  public record AnnotationsDefinition(
      Origin origin,
      Optional<Located<String>> title,
      Optional<Located<Boolean>> readOnlyHint,
      Optional<Located<Boolean>> destructiveHint,
      Optional<Located<Boolean>> idempotentHint,
      Optional<Located<Boolean>> openWorldHint) {}

  /** One entry of {@code inputs}. */
  public record InputDefinition(
      Located<String> name,
      Optional<Located<String>> type,
      Optional<Located<String>> description,
      Optional<Located<Boolean>> optional,
      Optional<Located<Boolean>> required,
      Optional<Located<String>> defaultValue,
      Optional<Located<Boolean>> redact,
      Optional<Located<String>> header) {}

  /** The {@code auth} block. */
  public record AuthDefinition(
      Origin origin, Optional<Located<String>> plugin, List<NamedValue> policy) {
    public AuthDefinition {
      policy = List.copyOf(policy);
    }
  }
}
