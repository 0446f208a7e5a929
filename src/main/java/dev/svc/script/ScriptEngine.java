package dev.svc.script;

import dev.svc.model.Scripts;

/**
 * A JavaScript engine: makes sandboxed isolates. The one seam between svc and an engine, so that V8
 * ({@link V8Engine}) could be swapped for another (GraalJS, …) without touching the pool or the
 * runtime.
 */
public interface ScriptEngine {

  /**
   * The engine of a project without scripts: it makes no isolate, and keeps V8's classes unloaded
   * (a built artifact of such a project does not ship them).
   */
  ScriptEngine NONE =
      new ScriptEngine() {
        @Override
        public ScriptIsolate newIsolate(Scripts scripts) {
          throw new IllegalStateException("this project has no scripts, and no isolate to make");
        }
      };

  /**
   * A new isolate, sandboxed, with the vendor bundle of {@code scripts} loaded. Called on the
   * thread that will use the isolate.
   */
  ScriptIsolate newIsolate(Scripts scripts);

  /**
   * What the engine's live isolates in this process hold in memory, in bytes, as last measured (for
   * the {@code svc.script.memory.used} metric); 0 when the engine does not measure it.
   */
  default long memoryUsedBytes() {
    return 0;
  }
}
