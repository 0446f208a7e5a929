package dev.svc.model;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A compiled tool.
 *
 * @param inputs typed inputs in the order written
 * @param timeout the deadline of one call
 * @param caps how much of a result one call returns (the tool's own, else the global caps)
 * @param readOnly whether the statement runs so that the database refuses writes
 * @param annotations the MCP hints sent in {@code tools/list}, derived and overridden
 * @param outputSchema the JSON Schema (JSON text) the tool declares for its {@code
 *     structuredContent}; a statement tool without one gets a schema derived at start
 * @param confirm the question asked the user before the tool runs ({@code confirm})
 * @param inputSchema the JSON Schema 2020-12 (JSON text) the tool declares for its arguments
 *     ({@code input_schema}), sent as its {@code inputSchema} and checked on every call; a tool
 *     with one has no {@code inputs} (its arguments are passed on as they come)
 * @param rateLimit how often one principal may call the tool (its own {@code rate_limit}, else the
 *     global one); empty: no limit
 */
public record Tool(
    String name,
    String description,
    List<Input> inputs,
    Execution execution,
    Optional<ScriptRef> inputMapper,
    Optional<ScriptRef> outputMapper,
    Optional<AuthPolicy> auth,
    CachePolicy cache,
    Duration timeout,
    ResultCaps caps,
    boolean readOnly,
    ToolAnnotations annotations,
    Optional<String> outputSchema,
    Optional<Confirmation> confirm,
    Optional<String> inputSchema,
    Optional<RateLimit> rateLimit) {
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

  public Tool {
    inputs = List.copyOf(inputs);
  }

  /**
   * A tool with the default caps that may write, with no annotations, no output schema, no
   * confirmation, no declared input schema and no rate limit: what tools were before format 6.
   */
  public Tool(
      String name,
      String description,
      List<Input> inputs,
      Execution execution,
      Optional<ScriptRef> inputMapper,
      Optional<ScriptRef> outputMapper,
      Optional<AuthPolicy> auth,
      CachePolicy cache,
      Duration timeout) {
    this(
        name,
        description,
        inputs,
        execution,
        inputMapper,
        outputMapper,
        auth,
        cache,
        timeout,
        ResultCaps.DEFAULTS,
        false,
        ToolAnnotations.NONE,
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty());
  }

  /** This tool with its results cached as {@code policy} says ({@code svc test} turns it off). */
  public Tool withCache(CachePolicy policy) {
    return new Tool(
        name,
        description,
        inputs,
        execution,
        inputMapper,
        outputMapper,
        auth,
        policy,
        timeout,
        caps,
        readOnly,
        annotations,
        outputSchema,
        confirm,
        inputSchema,
        rateLimit);
  }

  public Optional<Input> input(String name) {
    for (Input input : inputs) { // a loop, not a stream: this runs on every call
      if (input.name().equals(name)) {
        return Optional.of(input);
      }
    }
    return Optional.empty();
  }
}
