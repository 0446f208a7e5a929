package dev.svc.cli;

import dev.svc.diagnostic.Diagnostic;
import dev.svc.diagnostic.Origin;
import dev.svc.model.Model;
import dev.svc.net.AddressPolicy;
import dev.svc.project.Environment;
import dev.svc.runtime.StartupException;
import dev.svc.script.PooledScriptRunner;
import dev.svc.script.ScriptEngine;
import dev.svc.script.ScriptMemory;
import dev.svc.script.V8Engine;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The script sandbox as the environment sets it ({@code SVC_SCRIPT_*}, docs/scripts.md "Limits"):
 * its runner and its memory ceiling. A value that is not a whole number in range stops the start
 * with {@code invalid-env}.
 */
final class ScriptSandbox {
  private ScriptSandbox() {}

  /** {@link #runner(Model, Environment, ScriptMemory)} with a memory ceiling of its own. */
  static PooledScriptRunner runner(Model model, Environment environment) {
    return runner(model, environment, memory(environment));
  }

  /**
   * The script runner of a model: V8 isolates made on demand, so a project without scripts never
   * loads V8 (and {@link PooledScriptRunner#warmUp} readies the first one in the background once
   * serving starts). {@code SVC_SCRIPT_HEAP_MB} caps each isolate's heap, {@code
   * SVC_SCRIPT_ISOLATES} the isolates idle or running short calls, {@code SVC_SCRIPT_TOOL_CALLS}
   * one tool's script calls at once, {@code SVC_SCRIPT_CALLER_SLOTS} the calls run on their
   * callers' threads at once, {@code SVC_SCRIPT_IDLE_SECONDS} how long an unused isolate is kept;
   * {@code memory} bounds them all.
   */
  static PooledScriptRunner runner(Model model, Environment environment, ScriptMemory memory) {
    PooledScriptRunner.Settings defaults = PooledScriptRunner.Settings.defaults();
    int callerSlots = positive(environment, "SVC_SCRIPT_CALLER_SLOTS", defaults.callerSlots(), 0);
    int isolates = positive(environment, "SVC_SCRIPT_ISOLATES", defaults.maxIsolates(), 1);
    int toolShare = positive(environment, "SVC_SCRIPT_TOOL_CALLS", defaults.toolShare(), 1);
    int idleSeconds =
        positive(
            environment,
            "SVC_SCRIPT_IDLE_SECONDS",
            (int) PooledScriptRunner.Settings.DEFAULT_IDLE_TIMEOUT.toSeconds(),
            1);
    // a project without scripts never makes an isolate, and must not load V8's classes: its built
    // artifact does not ship them (docs/cli.md, "What an artifact ships")
    ScriptEngine engine =
        model.scripts().isEmpty() ? ScriptEngine.NONE : new V8Engine(memory.heapMb());
    return new PooledScriptRunner(
        engine,
        model.scripts(),
        new PooledScriptRunner.Settings(
            isolates,
            defaults.cpuSlots(),
            callerSlots,
            Duration.ofSeconds(idleSeconds),
            defaults.warmUp(),
            toolShare,
            new AddressPolicy(
                model.service().scriptFetch().allowPrivateNetworks(),
                model.service().scriptFetch().allowedNetworks())),
        memory);
  }

  /**
   * The memory ceiling of the scripts: {@code SVC_SCRIPT_MEMORY_MB} (at least one heap of {@code
   * SVC_SCRIPT_HEAP_MB}), by default sized from the machine ({@link ScriptMemory#defaultLimitMb}).
   */
  static ScriptMemory memory(Environment environment) {
    int heapMb = positive(environment, "SVC_SCRIPT_HEAP_MB", V8Engine.DEFAULT_HEAP_MB, 8);
    int limitMb =
        positive(environment, "SVC_SCRIPT_MEMORY_MB", ScriptMemory.defaultLimitMb(heapMb), heapMb);
    return new ScriptMemory(limitMb, heapMb);
  }

  private static int positive(Environment environment, String name, int fallback, int minimum) {
    Optional<String> value = environment.get(name);
    if (value.isEmpty() || value.get().isBlank()) {
      return fallback;
    }
    try {
      int parsed = Integer.parseInt(value.get().strip());
      if (parsed >= minimum) {
        return parsed;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new StartupException(
        List.of(
            Diagnostic.error(
                    "invalid-env",
                    Origin.ofFile("environment " + name),
                    name + " must be a whole number of at least " + minimum)
                .withHint("unset it to use the default, " + fallback)));
  }
}
