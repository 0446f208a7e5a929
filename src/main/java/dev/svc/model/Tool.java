package dev.svc.model;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A compiled tool.
 *
 * @param inputs typed inputs in the order written
 * @param timeout the deadline of one call
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
    Duration timeout) {
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

  public Tool {
    inputs = List.copyOf(inputs);
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
