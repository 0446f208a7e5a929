package dev.svc.script;

import com.caoccao.javet.exceptions.JavetException;
import com.caoccao.javet.interop.V8Runtime;
import com.caoccao.javet.interop.callback.IJavetDirectCallable;
import com.caoccao.javet.interop.callback.JavetCallbackContext;
import com.caoccao.javet.interop.callback.JavetCallbackType;
import com.caoccao.javet.values.V8Value;
import com.caoccao.javet.values.primitive.V8ValueInteger;
import com.caoccao.javet.values.primitive.V8ValueString;
import com.caoccao.javet.values.reference.V8ValueFunction;
import com.caoccao.javet.values.reference.V8ValueObject;
import dev.svc.log.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The functions through which {@code sandbox.js} reaches the host: {@code log} (the console),
 * {@code fetch}, {@code ask} (elicitation and sampling) and {@code declares} (whether the client
 * declared a capability). Each acts for the call running on the isolate at that moment and does
 * nothing between calls, so a script that keeps a reference to one cannot reach a later caller.
 */
final class HostFunctions implements AutoCloseable {
  private final V8Runtime runtime;
  private final List<JavetCallbackContext> callbacks = new ArrayList<>();
  private final List<V8ValueFunction> functions = new ArrayList<>();
  private volatile RunningCall running;

  HostFunctions(V8Runtime runtime) {
    this.runtime = runtime;
  }

  /** Sets the functions on the object the sandbox's bootstrap receives as {@code host}. */
  void addTo(V8ValueObject host) throws JavetException {
    JavetCallbackType noResult = JavetCallbackType.DirectCallNoThisAndNoResult;
    host.set("log", function("log", noResult, new LogCall()));
    host.set("fetch", function("fetch", noResult, new FetchCall()));
    host.set("ask", function("ask", noResult, new AskCall()));
    host.set(
        "declares",
        function("declares", JavetCallbackType.DirectCallNoThisAndResult, new DeclaresQuery()));
  }

  /** The call the functions act for, or null between calls. */
  RunningCall running() {
    return running;
  }

  void running(RunningCall call) {
    running = call;
  }

  /**
   * The host functions as classes, not method references: Javet's callback interfaces extend a
   * marker interface, so javac makes their method references with {@code altMetafactory}, whose
   * classes the start-up cache cannot hold: each start of a project with scripts generated them
   * (StartPathClassesIT).
   */
  private final class LogCall implements IJavetDirectCallable.NoThisAndNoResult<Exception> {
    @Override
    public void call(V8Value... args) {
      log(args);
    }
  }

  /** {@code fetch} as a class, for the reason {@link LogCall} gives. */
  private final class FetchCall implements IJavetDirectCallable.NoThisAndNoResult<Exception> {
    @Override
    public void call(V8Value... args) {
      fetch(args);
    }
  }

  /** {@code ask} as a class, for the reason {@link LogCall} gives. */
  private final class AskCall implements IJavetDirectCallable.NoThisAndNoResult<Exception> {
    @Override
    public void call(V8Value... args) {
      ask(args);
    }
  }

  /** {@code declares} as a class, for the reason {@link LogCall} gives. */
  private final class DeclaresQuery implements IJavetDirectCallable.NoThisAndResult<Exception> {
    @Override
    public V8Value call(V8Value... args) throws JavetException {
      return declares(args);
    }
  }

  /**
   * A JavaScript function that calls {@code body} on the isolate's thread: {@code type} says
   * whether it answers the script ({@code DirectCallNoThisAndResult}) or not.
   */
  private V8ValueFunction function(
      String name, JavetCallbackType type, IJavetDirectCallable.DirectCall body)
      throws JavetException {
    JavetCallbackContext context = new JavetCallbackContext(name, type, body);
    callbacks.add(context);
    return keep(runtime.createV8ValueFunction(context));
  }

  private void log(V8Value... args) {
    RunningCall current = running;
    if (current == null || args.length < 2) {
      return;
    }
    int level = args[0] instanceof V8ValueInteger n ? n.getValue() : Level.INFO.number();
    String text = args[1] instanceof V8ValueString s ? s.getValue() : String.valueOf(args[1]);
    current.call().host().console(Level.of(Math.clamp(level, 1, 4)), text);
  }

  private void fetch(V8Value... args) {
    RunningCall current = running;
    if (current == null || args.length < 2 || !(args[0] instanceof V8ValueInteger id)) {
      return;
    }
    current.fetch(id.getValue(), args[1] instanceof V8ValueString s ? s.getValue() : "{}");
  }

  private void ask(V8Value... args) {
    RunningCall current = running;
    if (current == null
        || args.length < 3
        || !(args[0] instanceof V8ValueInteger id)
        || !(args[1] instanceof V8ValueString kind)) {
      return;
    }
    current.ask(
        id.getValue(),
        kind.getValue(),
        args[2] instanceof V8ValueString s ? s.getValue() : "{}",
        args.length > 3 && args[3] instanceof V8ValueString key
            ? Optional.of(key.getValue())
            : Optional.empty());
  }

  /** Whether the running call's client declared the capability ({@code mcp.canAsk}). */
  private V8Value declares(V8Value... args) throws JavetException {
    RunningCall current = running;
    boolean declared =
        current != null
            && args.length > 0
            && args[0] instanceof V8ValueString capability
            && current.call().host().declares(capability.getValue());
    return runtime.createV8ValueBoolean(declared);
  }

  private V8ValueFunction keep(V8ValueFunction function) {
    functions.add(function);
    return function;
  }

  /** Releases the functions and their callbacks; the isolate's runtime is closed after this. */
  @Override
  public void close() {
    for (V8ValueFunction function : functions) {
      try {
        function.close();
      } catch (JavetException | RuntimeException e) {
        // closing the runtime frees it anyway
      }
    }
    functions.clear();
    for (JavetCallbackContext context : callbacks) {
      runtime.removeCallbackContext(context.getHandle());
    }
    callbacks.clear();
  }
}
