package dev.svc.protocol.a2a;

import dev.svc.connector.ConnectorUnavailableException;
import dev.svc.connector.ResolvedAdapter;
import dev.svc.diagnostic.Diagnostic;
import dev.svc.diagnostic.Origin;
import dev.svc.model.Adapter;
import dev.svc.model.ConnectorKind;
import dev.svc.model.MissingVariableException;
import dev.svc.model.Model;
import dev.svc.model.Service;
import dev.svc.project.Environment;
import dev.svc.runtime.StartupException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/** Opens the task store {@code agents.tasks} names: one place that knows every kind. */
public final class TaskStores {
  private TaskStores() {}

  /**
   * The shared store {@code agents.tasks.store} names, or, without one, an in-memory store when
   * {@code retention_hours} differs from the default; empty keeps the store the caller has.
   *
   * @throws StartupException when the store's database cannot be reached, or holds a newer schema
   */
  public static Optional<TaskStore> open(
      Model model, Environment environment, Path projectDirectory) {
    Service.Tasks tasks = model.service().tasks();
    if (tasks.store().isEmpty()) {
      return tasks.retention().equals(Service.Tasks.DEFAULT_RETENTION)
          ? Optional.empty()
          : Optional.of(
              new InMemoryTaskStore(
                  InMemoryTaskStore.DEFAULT_MAX_TASKS, tasks.retention(), Clock.systemUTC()));
    }
    String name = tasks.store().get();
    Adapter adapter =
        model.adapters().stream()
            .filter(a -> a.name().equals(name))
            .findFirst()
            .orElseThrow(() -> problem("adapter `" + name + "` is not in the model"));
    ResolvedAdapter resolved;
    try {
      resolved = resolve(adapter, environment, projectDirectory);
    } catch (MissingVariableException e) {
      throw new StartupException(
          List.of(
              Diagnostic.error(
                      "missing-env",
                      e.origin(),
                      "environment variable " + e.variable() + " is not set")
                  .withHint("set it in the environment or in .env")));
    }
    SharedTasks.Settings settings = new SharedTasks.Settings(tasks.lease(), tasks.retention());
    try {
      return Optional.of(open(resolved, settings));
    } catch (TaskStoreException | ConnectorUnavailableException e) {
      throw problem(e.getMessage());
    }
  }

  /** A shared store on a resolved adapter: postgres or redis. */
  public static TaskStore open(ResolvedAdapter adapter, SharedTasks.Settings settings) {
    if (adapter.connector() == ConnectorKind.POSTGRES) {
      return new PostgresTaskStore(adapter, settings);
    }
    if (adapter.connector() == ConnectorKind.REDIS) {
      return new RedisTaskStore(adapter, settings);
    }
    throw new TaskStoreException(
        "adapter `"
            + adapter.name()
            + "` is "
            + adapter.connector().wireName()
            + "; a task store is postgres or redis");
  }

  private static ResolvedAdapter resolve(
      Adapter adapter, Environment environment, Path projectDirectory) {
    return ResolvedAdapter.of(adapter, environment::get, projectDirectory, projectDirectory);
  }

  private static StartupException problem(String reason) {
    return new StartupException(
        List.of(
            Diagnostic.error("task-store-unavailable", Origin.ofFile("agents.tasks.store"), reason)
                .withHint(
                    "check the adapter's connection_string and that the database is running")));
  }
}
