package dev.svc.cli;

import dev.svc.diagnostic.Diagnostic;
import dev.svc.runtime.ProjectRuntime;
import dev.svc.runtime.StartupException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The start-up's steps that run side by side (the runtime's adapters and scripts, the servers'
 * preparation): what each gave, and what the start reports when more than one failed.
 */
final class StartSteps {
  private StartSteps() {}

  /**
   * What the start reports when the servers' part failed with {@code failure}: the runtime's start
   * is awaited (and closed if it succeeded), and the problems of both are said at once.
   */
  static RuntimeException alongside(
      RuntimeException failure, CompletableFuture<ProjectRuntime> starting) {
    try {
      await(starting).close();
      return failure;
    } catch (StartupException runtimeProblems) {
      if (failure instanceof StartupException serverProblems) {
        List<Diagnostic> all = new ArrayList<>(runtimeProblems.problems());
        all.addAll(serverProblems.problems());
        return new StartupException(all);
      }
      failure.addSuppressed(runtimeProblems);
      return failure;
    } catch (RuntimeException other) {
      failure.addSuppressed(other);
      return failure;
    }
  }

  /** What a start-up step on another thread gave, its failure thrown as it was thrown there. */
  static <T> T await(CompletableFuture<T> step) {
    try {
      return step.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException cause) {
        throw cause;
      }
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw e;
    }
  }
}
