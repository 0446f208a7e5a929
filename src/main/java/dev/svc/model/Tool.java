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
    ResultCaps caps) {
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

  public Tool {
    inputs = List.copyOf(inputs);
  }

  /** A tool with the default caps. */
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
        ResultCaps.DEFAULTS);
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
