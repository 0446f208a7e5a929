package dev.svc.ratelimit;

import dev.svc.connector.ResolvedAdapter;
import dev.svc.diagnostic.Diagnostic;
import dev.svc.model.Adapter;
import dev.svc.model.MissingVariableException;
import dev.svc.model.Model;
import dev.svc.project.Environment;
import dev.svc.runtime.StartupException;
import java.nio.file.Path;
import java.util.List;

/** Picks the limiter {@code tools.rate_limit.store} asks for: one place that knows every kind. */
public final class RateLimiters {
  private RateLimiters() {}

  /**
   * A {@link RedisRateLimiter} on the adapter {@code tools.rate_limit.store} names, else an {@link
   * InMemoryRateLimiter}. An unreachable Redis does not stop the start: the limiter lets calls
   * through until it answers (see {@link RedisRateLimiter}).
   *
   * @throws StartupException when a variable of the adapter's settings is not set
   */
  public static RateLimiter open(Model model, Environment environment, Path projectDirectory) {
    if (model.service().rateLimitStore().isEmpty()) {
      return new InMemoryRateLimiter();
    }
    String name = model.service().rateLimitStore().get();
    Adapter adapter =
        model.adapters().stream()
            .filter(a -> a.name().equals(name))
            .findFirst()
            .orElseThrow(() -> new IllegalStateException("adapter `" + name + "` not in model"));
    try {
      return new RedisRateLimiter(resolve(adapter, environment, projectDirectory));
    } catch (MissingVariableException e) {
      throw new StartupException(
          List.of(
              Diagnostic.error(
                      "missing-env",
                      e.origin(),
                      "environment variable " + e.variable() + " is not set")
                  .withHint("set it in the environment or in .env")));
    }
  }

  private static ResolvedAdapter resolve(
      Adapter adapter, Environment environment, Path projectDirectory) {
    return ResolvedAdapter.of(adapter, environment::get, projectDirectory, projectDirectory);
  }
}
