package dev.svc.cli;

import dev.svc.compile.Compilation;
import dev.svc.compile.Compiler;
import dev.svc.diagnostic.Diagnostic;
import dev.svc.log.Log;
import dev.svc.model.Model;
import dev.svc.model.Resource;
import dev.svc.model.ResourceTemplate;
import dev.svc.project.Environment;
import dev.svc.project.Project;
import dev.svc.runtime.ModelChanges;
import dev.svc.runtime.StartupException;
import java.time.Duration;
import java.util.Set;

/**
 * {@code svc start --watch}: recompiles when definition or script files change and swaps the new
 * model in. A project with errors is reported and the old one keeps serving.
 */
final class Reloader implements AutoCloseable {
  private static final Log LOG = Log.tagged("reload");
  static final Duration QUIET = Duration.ofMillis(300);

  private final Project project;
  private final Environment environment;
  private final Instance instance;
  private final CliContext context;
  private final ProjectWatcher watcher;
  private volatile boolean closed;

  Reloader(Project project, Environment environment, Instance instance, CliContext context) {
    this.project = project;
    this.environment = environment;
    this.instance = instance;
    this.context = context;
    this.watcher = new ProjectWatcher(project.directory(), this::relevant, this::reload, QUIET);
  }

  /** Definition files, scripts, and content files of resources. */
  private boolean relevant(String path) {
    if (path.endsWith(".terse")
        || path.equals(".svc")
        || path.endsWith(".ts")
        || path.endsWith(".mts")
        || path.endsWith(".js")
        || path.endsWith(".mjs")
        || path.endsWith(".svc")) {
      return true;
    }
    Model model = instance.model();
    return model.resources().stream()
            .anyMatch(r -> r.content() instanceof Resource.ContentFile f && f.path().equals(path))
        || model.resourceTemplates().stream()
            .anyMatch(t ->
                t.content() instanceof ResourceTemplate.FileTemplate f
                    && path.startsWith(f.directory()));
  }

  private void reload(Set<String> changed) {
    long started = System.nanoTime();
    LOG.info("files changed, recompiling", "files", String.join(",", changed));
    Compilation compilation = Compiler.compile(project, environment);
    if (closed) {
      // svc is stopping: the compilation was cut short (esbuild interrupted) or comes too late;
      // neither its errors nor its model are the project's
      LOG.info("stopping: the changed project is not loaded");
      return;
    }
    switch (compilation) {
      case Compilation.Failure failure -> {
        ProjectCompiler.print(failure.diagnostics(), context.err());
        instance.reloadRefused(failure.diagnostics().stream().filter(Diagnostic::isError).toList());
        LOG.error(
            "the changed project has errors; still serving the previous version",
            "errors",
            failure.diagnostics().stream().filter(Diagnostic::isError).count());
      }
      case Compilation.Success success -> {
        ProjectCompiler.print(success.diagnostics(), context.err());
        ProjectCompiler.writeTypes(project.directory(), success.model());
        try {
          ModelChanges changes = instance.reload(success.model(), changed);
          LOG.info(
              "reloaded",
              "ms",
              (System.nanoTime() - started) / 1_000_000,
              "changed_tools",
              String.join(",", changes.tools()),
              "prompts_changed",
              changes.promptsChanged(),
              "resources_changed",
              changes.resourcesChanged());
        } catch (StartupException e) {
          ProjectCompiler.print(e.problems(), context.err());
          LOG.error("the changed project cannot be served; still serving the previous version");
        }
      }
    }
  }

  @Override
  public void close() {
    closed = true;
    watcher.close();
  }
}
