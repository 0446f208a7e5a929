package dev.svc.script;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.call.Caller;
import dev.svc.call.Deadline;
import dev.svc.connector.ResultMemory;
import dev.svc.json.JsonFootprint;
import dev.svc.model.ScriptRef;
import dev.svc.model.Scripts;
import dev.svc.testing.ProjectFixture;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The sandbox itself, on real V8 isolates and real bundles: payloads, exports, promises, errors,
 * and everything a script must not reach.
 */
class ScriptSandboxTest {
  static final JsonMapper JSON = JsonMapper.builder().build();
  static final Duration TIMEOUT = Duration.ofSeconds(10);

  @TempDir Path dir;
  PooledScriptRunner runner;
  Scripts scripts;

  @AfterEach
  void close() {
    if (runner != null) {
      runner.close();
    }
  }

  /** Compiles a one-tool project whose handler.ts is {@code source}, and starts a runner. */
  PooledScriptRunner sandbox(String source) {
    return sandbox(source, new PooledScriptRunner.Settings(2, Duration.ofSeconds(30), false));
  }

  /** The same with one isolate and no caller slots: every call runs on the same isolate. */
  PooledScriptRunner oneIsolate(String source) {
    return sandbox(source, new PooledScriptRunner.Settings(1, 1, 0, Duration.ofSeconds(30), false));
  }

  PooledScriptRunner sandbox(String source, PooledScriptRunner.Settings settings) {
    scripts =
        ProjectFixture.model(
                dir,
                """
                == .svc
                name: sandbox
                == app/tools/t/config.terse
                description: A script under test.
                == app/tools/t/handler.ts
                """
                    + source)
            .scripts();
    runner = new PooledScriptRunner(new V8Engine(V8Engine.DEFAULT_HEAP_MB), scripts, settings);
    return runner;
  }

  JsonNode call(String export, String payload) {
    return runner.call(
        new ScriptRef("app/tools/t/handler.ts", export),
        JSON.readTree(payload),
        "t",
        Deadline.after(TIMEOUT),
        Caller.internal("test"));
  }

  JsonNode call(String payload) {
    return call("default", payload);
  }

  @Test
  void aHandlerGetsThePayloadAndItsReturnValueIsTheResult() {
    sandbox(
        """
        interface Payload { inputs: { name: string; n: number }; tool: string }
        export default ({ inputs, tool }: Payload) => ({ greeting: `Hello ${inputs.name}`, tool, twice: inputs.n * 2 });
        """);

    assertThat(call("{\"inputs\":{\"name\":\"Ada\",\"n\":21},\"tool\":\"t\"}"))
        .isEqualTo(JSON.readTree("{\"greeting\":\"Hello Ada\",\"tool\":\"t\",\"twice\":42}"));
  }

  @Test
  void returnValuesAreUsedAsTheyAre_arraysScalarsAndUndefinedAsNull() {
    sandbox(
        """
        export const list = () => [1, "two", { three: 3 }];
        export const text = () => "plain";
        export const number = () => 4.5;
        export const nothing = () => undefined;
        export default () => null;
        """);

    assertThat(call("list", "{}")).isEqualTo(JSON.readTree("[1,\"two\",{\"three\":3}]"));
    assertThat(call("text", "{}").asString()).isEqualTo("plain");
    assertThat(call("number", "{}").asDouble()).isEqualTo(4.5);
    assertThat(call("nothing", "{}").isNull()).isTrue();
    assertThat(call("{}").isNull()).isTrue();
  }

  @Test
  void bundlesHandTheirOwnExportsObjectToCommonJs_noCopyPerCall() {
    sandbox(
        """
        export let calls = 0;
        export function named({ inputs }: { inputs: { n: number } }) {
          calls++;
          return { n: inputs.n, calls };
        }
        export default named;
        """);
    String code = bundleOf("app/tools/t/handler.ts");

    assertThat(code)
        .contains(CommonJsExports.LIGHT_TO_COMMON_JS)
        .doesNotContain(CommonJsExports.ESBUILD_TO_COMMON_JS);
    assertThat(call("{\"inputs\":{\"n\":1}}")).isEqualTo(JSON.readTree("{\"n\":1,\"calls\":1}"));
    assertThat(call("named", "{\"inputs\":{\"n\":2}}"))
        .as("module state is still fresh for every call")
        .isEqualTo(JSON.readTree("{\"n\":2,\"calls\":1}"));
  }

  @Test
  void anEsModuleRequiredFromCommonJsInsideABundleReadsItsExports() {
    commonJs(
        """
        const shapes = require("./shapes.ts");
        module.exports = ({ inputs }) => ({
          area: shapes.area(inputs.side),
          keys: Object.keys(shapes).sort(),
          esModule: shapes.__esModule === true,
        });
        == app/tools/t/shapes.ts
        export const area = (side: number) => side * side;
        export const unit = "m2";
        """);

    assertThat(callCommonJs("{\"inputs\":{\"side\":3}}"))
        .isEqualTo(JSON.readTree("{\"area\":9,\"keys\":[\"area\",\"unit\"],\"esModule\":true}"));
  }

  private String bundleOf(String path) {
    return scripts.bundles().stream()
        .filter(bundle -> bundle.path().equals(path))
        .findFirst()
        .orElseThrow()
        .code();
  }

  @Test
  void aCommonJsScriptWhoseModuleExportsIsTheFunctionIsItsDefaultExport() {
    commonJs(
        """
        const double = (n) => n * 2;
        module.exports = ({ inputs }) => ({ doubled: double(inputs.n) });
        """);

    assertThat(callCommonJs("{\"inputs\":{\"n\":21}}"))
        .isEqualTo(JSON.readTree("{\"doubled\":42}"));
  }

  /**
   * Compiles a one-tool project whose handler is {@code handler.js} with {@code source} (which may
   * go on with more {@code == file} sections), and starts a runner.
   */
  private void commonJs(String source) {
    scripts =
        ProjectFixture.model(
                dir,
                """
                == .svc
                name: cjs
                == app/tools/t/config.terse
                description: A CommonJS handler.
                handler: handler.js
                == app/tools/t/handler.js
                """
                    + source)
            .scripts();
    runner =
        new PooledScriptRunner(
            new V8Engine(V8Engine.DEFAULT_HEAP_MB),
            scripts,
            new PooledScriptRunner.Settings(1, Duration.ofSeconds(30), false));
  }

  private JsonNode callCommonJs(String payload) {
    return runner.call(
        new ScriptRef("app/tools/t/handler.js", "default"),
        JSON.readTree(payload),
        "t",
        Deadline.after(TIMEOUT),
        Caller.internal("test"));
  }

  @Test
  void aNamedExportIsCalledWhenTheReferenceNamesIt() {
    sandbox(
        """
        export const normalise = ({ inputs }) => ({ name: inputs.name.trim().toLowerCase() });
        export default () => "default";
        """);

    assertThat(call("normalise", "{\"inputs\":{\"name\":\"  ADA \"}}"))
        .isEqualTo(JSON.readTree("{\"name\":\"ada\"}"));
    assertThat(call("{}").asString()).isEqualTo("default");
  }

  @Test
  void asyncHandlersAndPromiseChainsSettleBeforeTheResultIsTaken() {
    sandbox(
        """
        const later = async (v: number) => { await null; return v + 1; };
        export default async ({ inputs }) => {
          const values = await Promise.all([later(inputs.n), later(inputs.n + 10)]);
          return { values };
        };
        """);

    assertThat(call("{\"inputs\":{\"n\":1}}")).isEqualTo(JSON.readTree("{\"values\":[2,12]}"));
  }

  @Test
  void aThrownErrorBecomesItsMessageOnOneLine_theStackStaysForTheDebugLog() {
    sandbox(
        """
        function check(name: string) {
          if (!name) throw new Error("name must not be empty\\n(got an empty string)");
        }
        export default ({ inputs }) => { check(inputs.name); return "ok"; };
        export const rejects = async () => { throw new RangeError("too far"); };
        export const throwsText = () => { throw "plain text"; };
        """);

    assertThatThrownBy(() -> call("{\"inputs\":{\"name\":\"\"}}"))
        .isInstanceOf(ScriptFailedException.class)
        .hasMessage("name must not be empty (got an empty string)")
        .satisfies(e ->
            assertThat(((ScriptFailedException) e).scriptStack().orElseThrow())
                .contains("at check"));
    assertThatThrownBy(() -> call("rejects", "{}")).hasMessage("too far");
    assertThatThrownBy(() -> call("throwsText", "{}")).hasMessage("plain text");
  }

  @Test
  void aHugeThrownMessageIsCutInsideTheSandbox_beforeItReachesTheJvm() {
    // 60 MB messages (and their stacks, which repeat them) ended the process: OutOfMemoryError
    sandbox(
        """
        export default () => { throw new Error("e".repeat(20_000_000)); };
        export const text = () => { throw "t".repeat(20_000_000); };
        """);

    assertThatThrownBy(() -> call("{}"))
        .isInstanceOf(ScriptFailedException.class)
        .satisfies(e -> {
          assertThat(e.getMessage()).startsWith("eeee").hasSizeLessThanOrEqualTo(2001);
          assertThat(((ScriptFailedException) e).scriptStack().orElseThrow())
              .startsWith("Error: eeee")
              .hasSizeLessThanOrEqualTo(4 * 8192 + 1);
        });
    assertThatThrownBy(() -> call("text", "{}"))
        .hasMessageStartingWith("tttt")
        .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThanOrEqualTo(2001));
  }

  @Test
  void aPromiseThatNeverSettlesFailsAtOnceInsteadOfWaitingForTheDeadline() {
    sandbox("export default () => new Promise(() => {});\n");

    assertThatThrownBy(() -> call("{}"))
        .isInstanceOf(ScriptFailedException.class)
        .isNotInstanceOf(ScriptTimeoutException.class)
        .hasMessageContaining("never settled");
  }

  @Test
  void aResultThatIsNotJsonIsAnError() {
    sandbox("export default () => ({ big: 10n });\n");

    assertThatThrownBy(() -> call("{}"))
        .isInstanceOf(ScriptFailedException.class)
        .hasMessageStartingWith("the script returned a value that is not JSON");
  }

  @Test
  void aResultIsCountedAgainstTheCallsResultMemory_oneTooLargeIsAToolError() throws Exception {
    // 800 KB of JSON, ~25 MB as a tree: five million such objects ended the process
    sandbox(
        """
        export default ({ inputs }) => new Array(inputs.n).fill({ a: 1 });
        """);
    ResultMemory memory = new ResultMemory(4 * 1024 * 1024, 1024 * 1024);

    try (ResultMemory.Account account = memory.open()) {
      JsonNode small =
          ScopedValue.where(ResultMemory.CALL, account).call(() -> call("{\"inputs\":{\"n\":2}}"));
      assertThat(small).isEqualTo(JSON.readTree("[{\"a\":1},{\"a\":1}]"));
      assertThat(account.usedBytes()).isEqualTo(JsonFootprint.of(small));
      assertThatThrownBy(() ->
              ScopedValue.where(ResultMemory.CALL, account)
                  .call(() -> call("{\"inputs\":{\"n\":100000}}")))
          .isInstanceOf(ScriptFailedException.class)
          .hasMessage(
              "the script returned a value that would take more than 1 MiB, svc's ceiling for one"
                  + " result; return less (fewer rows, fewer fields, or a summary)");
    }
  }

  @Test
  void aResultJacksonCannotReadIsAToolError_notAFaultOfTheServer() {
    sandbox(
        """
        export const deep = () => { let v: any = 1; for (let i = 0; i < 2000; i++) v = [v]; return v; };
        export const loneSurrogateKey = () => ({ ["key\\uD800"]: 1 });
        export default () => 0;
        """);

    assertThatThrownBy(() -> call("deep", "{}"))
        .isInstanceOf(ScriptFailedException.class)
        .hasMessage("the script returned a value nested deeper than 500 levels, svc's limit");
    assertThatThrownBy(() -> call("loneSurrogateKey", "{}"))
        .isInstanceOf(ScriptFailedException.class)
        .hasMessageContaining("an object key holding a lone surrogate");
  }

  @Test
  void anExportThatIsNotAFunctionIsAnError() {
    sandbox("export const value = 42;\nexport default () => 1;\n");

    assertThatThrownBy(() -> call("value", "{}"))
        .hasMessage("the script's export `value` is not a function");
  }

  @Test
  void aCallWithoutAnMcpClientCanAskNothing_andCanAskTakesOnlyTheThreeNames() {
    sandbox(
        """
        export default () => ["elicitation", "sampling", "roots"].map((c) => mcp.canAsk(c));
        export const wrong = () => mcp.canAsk({ toString: () => "sampling" });
        """);

    assertThat(call("{}")).isEqualTo(JSON.readTree("[false,false,false]"));
    assertThatThrownBy(() -> call("wrong", "{}"))
        .hasMessageContaining("mcp.canAsk: pass \"elicitation\", \"sampling\" or \"roots\"");
  }

  @Test
  void theGlobalObjectHoldsTheLanguageAndSvcsGlobalsOnly() {
    sandbox("export default () => Object.getOwnPropertyNames(globalThis).sort();\n");

    List<String> globals =
        JSON.convertValue(
            call("{}"), JSON.getTypeFactory().constructCollectionType(List.class, String.class));

    assertThat(globals)
        .contains("fetch", "console", "Headers", "Response", "JSON", "Promise")
        .doesNotContain(
            "require",
            "process",
            "module",
            "exports",
            "global",
            "setTimeout",
            "setInterval",
            "setImmediate",
            "queueMicrotask",
            "WebAssembly",
            "SharedArrayBuffer",
            "Atomics",
            "FinalizationRegistry",
            "Deno",
            "Bun",
            "java",
            "Java",
            "Packages",
            "javet",
            "Polyglot",
            "load",
            "print",
            "XMLHttpRequest",
            "WebSocket");
    assertThat(globals)
        .allSatisfy(
            name -> assertThat(name).doesNotContainIgnoringCase("javet").doesNotStartWith("__"));
  }

  @Test
  void theEscapeListFailsInsideTheSandbox() {
    sandbox(
        """
        const attempts: Record<string, () => unknown> = {
          require: () => (globalThis as any).require("fs"),
          process: () => (globalThis as any).process.env,
          setTimeout: () => (globalThis as any).setTimeout(() => {}, 1),
          setInterval: () => (globalThis as any).setInterval(() => {}, 1),
          eval: () => eval("1 + 1"),
          indirectEval: () => (0, eval)("1 + 1"),
          Function: () => new Function("return 1")(),
          functionConstructor: () => (() => {}).constructor("return 1")(),
          asyncFunctionConstructor: () => (async () => {}).constructor("return 1")(),
          generatorConstructor: () => (function* () {}).constructor("yield 1")(),
          webAssembly: () => (globalThis as any).WebAssembly.Module,
          javaBridge: () => (globalThis as any).java.lang.System.exit(1),
          packages: () => (globalThis as any).Packages.java,
        };
        export default async () => {
          const outcome: Record<string, string> = {};
          for (const [name, attempt] of Object.entries(attempts)) {
            try {
              attempt();
              outcome[name] = "allowed";
            } catch (e) {
              outcome[name] = (e as Error).constructor.name;
            }
          }
          for (const module of ["fs", "node:fs", "child_process", "net", "http", "./handler.ts"]) {
            try {
              await import(/* computed */ [module][0]);
              outcome["import " + module] = "allowed";
            } catch (e) {
              outcome["import " + module] = "refused";
            }
          }
          return outcome;
        };
        """);

    JsonNode outcome = call("{}");

    assertThat(outcome.properties())
        .isNotEmpty()
        .allSatisfy(entry ->
            assertThat(entry.getValue().asString())
                .as(entry.getKey())
                .isIn("TypeError", "EvalError", "ReferenceError", "refused"));
    assertThat(outcome.path("eval").asString()).isEqualTo("EvalError");
    assertThat(outcome.path("Function").asString()).isEqualTo("EvalError");
    assertThat(outcome.path("asyncFunctionConstructor").asString()).isEqualTo("EvalError");
  }

  @Test
  void aGlobalSetInOneCallIsNotVisibleInTheNext_theGlobalObjectIsFrozen() {
    sandbox(
        """
        let calls = 0;
        export default () => {
          calls++;
          const seen = { leak: typeof (globalThis as any).leak, calls, fetch: typeof fetch, console: typeof console };
          const attempts: string[] = [];
          for (const attempt of [
            () => { (globalThis as any).leak = "secret of the previous caller"; },
            () => { (globalThis as any).fetch = () => "hijacked"; },
            () => { delete (globalThis as any).console; },
            () => { Object.defineProperty(globalThis, "leak", { value: 1 }); },
          ]) {
            try { attempt(); attempts.push("changed"); } catch (e) { attempts.push((e as Error).constructor.name); }
          }
          return { ...seen, attempts };
        };
        """);

    JsonNode first = call("{}");
    JsonNode second = call("{}");

    assertThat(second).isEqualTo(first);
    assertThat(second)
        .isEqualTo(
            JSON.readTree(
                "{\"leak\":\"undefined\",\"calls\":1,\"fetch\":\"function\",\"console\":\"object\","
                    + "\"attempts\":[\"TypeError\",\"TypeError\",\"TypeError\",\"TypeError\"]}"));
  }

  @Test
  void builtInsAreFrozen_soPrototypePollutionCannotReachTheNextCall() {
    sandbox(
        """
        export const pollute = () => {
          const attempts: string[] = [];
          for (const attempt of [
            () => { (Object.prototype as any).isAdmin = true; },
            () => { JSON.parse = () => ({ isAdmin: true }); },
            () => { (Array.prototype as any).push = () => 0; },
            () => { Object.assign(Object.prototype, JSON.parse('{"isAdmin": true}')); },
            () => { (Promise.prototype as any).then = null; },
          ]) {
            try { attempt(); attempts.push("changed"); } catch (e) { attempts.push((e as Error).constructor.name); }
          }
          return attempts;
        };
        export const check = () => ({
          isAdmin: ({} as any).isAdmin ?? false,
          parse: JSON.parse('{"a":1}'),
          push: [1].concat([2]).length,
        });
        export default () => 0;
        """);

    assertThat(call("pollute", "{}"))
        .isEqualTo(
            JSON.readTree(
                "[\"TypeError\",\"TypeError\",\"TypeError\",\"TypeError\",\"TypeError\"]"));
    assertThat(call("check", "{}"))
        .isEqualTo(JSON.readTree("{\"isAdmin\":false,\"parse\":{\"a\":1},\"push\":2}"));
  }

  @Test
  void aCallThatLocksErrorsResettablePropertiesLeavesThemToNoLaterCall() {
    // before: a read-only Error.prepareStackTrace made the next call on the isolate (another
    // caller's, perhaps) fail with "the script engine failed", and an accessor in place of
    // Error.stackTraceLimit swallowed the reset, so that no later call had a stack trace
    oneIsolate(
        """
        export const readOnly = () => {
          const mine = (e: Error) => "formatted by the previous call: " + e.message;
          Object.defineProperty(Error, "prepareStackTrace", { value: mine, writable: false });
          return new Error("x").stack;
        };
        export const accessor = () => {
          Object.defineProperty(Error, "stackTraceLimit", { get: () => 0, set: () => {}, configurable: true });
          return typeof new Error("x").stack;
        };
        export const later = ({ inputs }) => {
          try { throw new Error("secret of " + inputs.who); } catch (e) { return (e as Error).stack.split("\\n")[0]; }
        };
        export default () => 0;
        """);

    assertThat(call("readOnly", "{}").asString()).isEqualTo("formatted by the previous call: x");
    assertThat(call("later", "{\"inputs\":{\"who\":\"ada\"}}").asString())
        .isEqualTo("Error: secret of ada");
    assertThat(call("accessor", "{}").asString()).isEqualTo("undefined");
    assertThat(call("later", "{\"inputs\":{\"who\":\"bob\"}}").asString())
        .isEqualTo("Error: secret of bob");
    assertThat(call("later", "{\"inputs\":{\"who\":\"eve\"}}").asString())
        .isEqualTo("Error: secret of eve");
  }

  @Test
  void everythingReachableFromTheGlobalsIsFrozen_soNoCallLeavesAGlobalOrAValueForTheNext() {
    // before: the global object's prototype, the built-ins behind the overridable accessors
    // (Object.prototype.toString, …) and Error's own functions but captureStackTrace
    // (Error.isError)
    // were not frozen: a name defined on the global's prototype was a global of every later call
    oneIsolate(
        """
        export const leave = () => {
          const attempts: string[] = [];
          for (const attempt of [
            () => { (Object.getPrototypeOf(globalThis) as any).leak = "left by the previous call"; },
            () => { (Object.getPrototypeOf(globalThis) as any).setTimeout = () => 0; },
            () => { (Object.prototype.toString as any).stash = "left on toString"; },
            () => { ((Error as any).isError as any).stash = "left on Error.isError"; },
          ]) {
            try { attempt(); attempts.push("changed"); } catch (e) { attempts.push((e as Error).constructor.name); }
          }
          return attempts;
        };
        export const look = () => [
          typeof (globalThis as any).leak,
          typeof (globalThis as any).setTimeout,
          (Object.prototype.toString as any).stash ?? null,
          ((Error as any).isError as any)?.stash ?? null,
        ];
        export const unfrozen = () => {
          const found: string[] = [];
          const seen = new Set<any>();
          const todo: [any, string][] = [[globalThis, "globalThis"]];
          while (todo.length > 0) {
            const [value, path] = todo.pop()!;
            if ((typeof value !== "object" && typeof value !== "function") || value === null) continue;
            if (seen.has(value)) continue;
            seen.add(value);
            if (!Object.isFrozen(value) && value !== Error) found.push(path);
            todo.push([Object.getPrototypeOf(value), path + ".__proto__"]);
            for (const key of Reflect.ownKeys(value)) {
              const desc = Object.getOwnPropertyDescriptor(value, key)!;
              const name = path + "." + String(key);
              if ("value" in desc) {
                todo.push([desc.value, name]);
              } else {
                todo.push([desc.get, name + ".get"], [desc.set, name + ".set"]);
                if (typeof value !== "function") {
                  try { todo.push([(value as any)[key], name]); } catch { /* a getter for instances */ }
                }
              }
            }
          }
          return found;
        };
        export default () => 0;
        """);

    assertThat(call("leave", "{}"))
        .isEqualTo(JSON.readTree("[\"TypeError\",\"TypeError\",\"TypeError\",\"TypeError\"]"));
    assertThat(call("look", "{}"))
        .isEqualTo(JSON.readTree("[\"undefined\",\"undefined\",null,null]"));
    assertThat(call("unfrozen", "{}")).as("objects a call could change for the next").isEmpty();
  }

  @Test
  void theRequireEveryBundleReceivesIsFrozen_noCallLeavesAValueOnItForTheNext() {
    // before: `require`, the same function for every call of every script, took any property
    oneIsolate(
        """
        declare const require: any;
        export const leave = () => {
          try { require.stash = "left by the previous call"; return "changed"; } catch (e) { return (e as Error).constructor.name; }
        };
        export const look = () => [typeof require, require.stash ?? null, Object.isFrozen(require)];
        export default () => 0;
        """);

    assertThat(call("leave", "{}").asString()).isEqualTo("TypeError");
    assertThat(call("look", "{}")).isEqualTo(JSON.readTree("[\"function\",null,true]"));
  }

  @Test
  void theLastRegExpMatchOfOneCallIsNotVisibleInTheNext() {
    oneIsolate(
        """
        export const match = ({ inputs }) => /token=(\\w+)/.test(inputs.query) ? "found" : "none";
        export const peek = () => {
          const r = RegExp as any;
          return [r.input, r.$1, r.lastMatch, r.lastParen, r.leftContext, r.rightContext];
        };
        export default () => 0;
        """);

    assertThat(call("match", "{\"inputs\":{\"query\":\"user=ada&token=s3cret&x=1\"}}").asString())
        .isEqualTo("found");
    assertThat(call("peek", "{}"))
        .as("the previous caller's query, token and match")
        .isEqualTo(JSON.readTree("[\"\",\"\",\"\",\"\",\"\",\"\"]"));
  }

  @Test
  void commonCodeStillWorksWithFrozenBuiltIns_errorSubclassesAndOverriddenToString() {
    sandbox(
        """
        class ValidationError extends Error {
          constructor(message: string, readonly field: string) {
            super(message);
            this.name = "ValidationError";
          }
        }
        function Point(this: any, x: number) { this.x = x; }
        Point.prototype.toString = function () { return "Point(" + this.x + ")"; };
        export default () => {
          const e = new ValidationError("bad", "name");
          const p = new (Point as any)(3);
          const o: any = {};
          o.toString = () => "custom";
          Error.stackTraceLimit = 5;
          return { name: e.name, message: e.message, field: e.field, text: String(e), point: `${p}`, custom: `${o}` };
        };
        """);

    assertThat(call("{}"))
        .isEqualTo(
            JSON.readTree(
                "{\"name\":\"ValidationError\",\"message\":\"bad\",\"field\":\"name\","
                    + "\"text\":\"ValidationError: bad\",\"point\":\"Point(3)\",\"custom\":\"custom\"}"));
  }

  @Test
  void v8GuardsNoMemoryWithProtectionKeysWhichThreadsMadeBeforeItCouldNotUse() throws Exception {
    // a PKU fault (SEGV_PKUERR) in V8 ends the whole JVM; on a CPU without PKU there are no keys
    sandbox("export default () => ({ ok: true });");
    assertThat(call("{}").path("ok").asBoolean()).isTrue();
    Path smaps = Path.of("/proc/self/smaps");
    List<String> keys =
        java.nio.file.Files.readAllLines(smaps).stream()
            .filter(line -> line.startsWith("ProtectionKey:"))
            .map(line -> line.substring("ProtectionKey:".length()).strip())
            .distinct()
            .toList();
    assertThat(keys).as("protection keys of this process's mappings").allMatch("0"::equals);
  }
}
