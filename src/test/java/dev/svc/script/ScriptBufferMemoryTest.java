package dev.svc.script;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.call.Caller;
import dev.svc.call.Deadline;
import dev.svc.model.ScriptRef;
import dev.svc.testing.ProjectFixture;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * ArrayBuffer memory, which V8 allocates outside the heap its cap counts, on real V8: every way a
 * script makes it counts against the call's budget (as many bytes as the heap cap, 128 MiB here),
 * and a call past it fails with a RangeError before the memory is taken.
 */
class ScriptBufferMemoryTest {
  static final JsonMapper JSON = JsonMapper.builder().build();
  static final String LIMIT_MESSAGE =
      "bytes a call may allocate outside the script heap (SVC_SCRIPT_HEAP_MB)";

  @TempDir Path dir;
  PooledScriptRunner runner;

  @AfterEach
  void close() {
    if (runner != null) {
      runner.close();
    }
  }

  void sandbox(String source, int isolates) {
    var scripts =
        ProjectFixture.model(
                dir,
                """
                == .svc
                name: buffers
                == app/tools/t/config.terse
                description: A script under test.
                == app/tools/t/handler.ts
                """
                    + source)
            .scripts();
    runner =
        new PooledScriptRunner(
            new V8Engine(V8Engine.DEFAULT_HEAP_MB),
            scripts,
            new PooledScriptRunner.Settings(isolates, Duration.ofSeconds(30), false));
  }

  JsonNode call(String export) {
    return runner.call(
        new ScriptRef("app/tools/t/handler.ts", export),
        JSON.readTree("{}"),
        "t",
        Deadline.after(Duration.ofSeconds(30)),
        Caller.internal("test"));
  }

  @Test
  void eachWayOfMakingABigBufferFailsWithARangeError() {
    String gib = "2 ** 30";
    List<String> ways =
        List.of(
            "new Uint8Array(" + gib + ")",
            "new Float64Array(2 ** 27)",
            "new ArrayBuffer(" + gib + ")",
            "new ArrayBuffer(8, { maxByteLength: " + gib + " })",
            "new ArrayBuffer(8).transfer(" + gib + ")",
            "new ArrayBuffer(8).transferToFixedLength(" + gib + ")",
            "new Uint8Array({ length: 2 ** 28 })",
            "new Uint8Array(new Proxy([], { get: (t, k) => (k === 'length' ? 2 ** 30 : undefined) }))",
            "new BigInt64Array(2 ** 27)",
            "Uint8Array.from({ length: 2 ** 28 })",
            "new (new Uint8Array(1).constructor)(" + gib + ")",
            "new (new ArrayBuffer(1).constructor)(" + gib + ")",
            "new ArrayBuffer({ valueOf: () => " + gib + " } as any)",
            "(() => { class Big extends Uint8Array {} return new Big(" + gib + "); })()");
    StringBuilder source = new StringBuilder("export default () => null;\n");
    for (int i = 0; i < ways.size(); i++) {
      source.append("export const w").append(i).append(" = () => { ").append(ways.get(i));
      source.append("; return 'allocated'; };\n");
    }
    sandbox(source.toString(), 1);
    for (int i = 0; i < ways.size(); i++) {
      String export = "w" + i;
      assertThatThrownBy(() -> call(export))
          .as(ways.get(i))
          .isInstanceOf(ScriptFailedException.class)
          .hasMessageContaining(LIMIT_MESSAGE);
    }
  }

  @Test
  void copiesCountToo_soALoopOfCopiesStopsAtTheBudget() {
    List<String> copies =
        List.of(
            "a.slice()",
            "a.map((x) => x)",
            "a.filter(() => true)",
            "a.toReversed()",
            "a.toSorted()",
            "a.with(0, 1)",
            "new Uint8Array(a)",
            "a.buffer.slice(0)",
            "Uint8Array.from(a)",
            "Uint8Array.fromBase64(s)");
    StringBuilder source = new StringBuilder("export default () => null;\n");
    for (int i = 0; i < copies.size(); i++) {
      source.append("export const c").append(i).append(" = () => {\n");
      source.append("  const a = new Uint8Array(2 ** 22); const s = 'AAAA'.repeat(2 ** 20);\n");
      source.append("  const kept: unknown[] = [];\n");
      source.append("  for (let i = 0; i < 64; i++) kept.push(").append(copies.get(i));
      source.append(");\n  return kept.length;\n};\n");
    }
    sandbox(source.toString(), 1);
    for (int i = 0; i < copies.size(); i++) {
      String export = "c" + i;
      assertThatThrownBy(() -> call(export))
          .as(copies.get(i))
          .isInstanceOf(ScriptFailedException.class)
          .hasMessageContaining(LIMIT_MESSAGE);
    }
  }

  @Test
  void namingEachIndexOfABigTypedArrayIsRefusedBeforeV8TriesWhileSmallOnesAreNamedAsBefore() {
    // ~30 bytes of heap per key, in one step of V8 that no deadline or heap cap stops:
    // Object.keys of a buffer within the budget held 4.4 GB for minutes
    List<String> ways =
        List.of(
            "Object.keys(a)",
            "Object.entries(a)",
            "Object.getOwnPropertyNames(a)",
            "Object.getOwnPropertyDescriptors(a)",
            "Reflect.ownKeys(a)",
            "Object.assign({}, {}, a)",
            "JSON.stringify({ nested: [a] })",
            "JSON.stringify(new Float64Array(a.buffer, 0, 2 ** 23 + 8))");
    StringBuilder source =
        new StringBuilder(
            """
            export default () => {
              const a = new Uint8Array([1, 2]);
              return {
                keys: Object.keys(a), json: JSON.stringify({ a }), own: Reflect.ownKeys(a),
                assigned: Object.assign({}, a), entries: Object.entries(a),
                view: JSON.stringify(new DataView(a.buffer)), plain: Object.keys({ x: 1 }),
                native: [Object.keys.length, Object.assign.length, Object.keys.name,
                  Function.prototype.toString.call(Object.keys).includes("[native code]")],
              };
            };
            """);
    for (int i = 0; i < ways.size(); i++) {
      source.append("export const k").append(i).append(" = () => { ");
      source.append("const a = new Uint8Array(2 ** 27 - 1024); ");
      source.append("return String(").append(ways.get(i)).append(").length; };\n");
    }
    sandbox(source.toString(), 1);

    for (int i = 0; i < ways.size(); i++) {
      String export = "k" + i;
      assertThatThrownBy(() -> call(export))
          .as(ways.get(i))
          .isInstanceOf(ScriptFailedException.class)
          .hasMessageContaining("more indices than property keys of them fit in the script heap");
    }
    assertThat(call("default"))
        .isEqualTo(
            JSON.readTree(
                """
                {"keys":["0","1"],"json":"{\\"a\\":{\\"0\\":1,\\"1\\":2}}","own":["0","1"],
                 "assigned":{"0":1,"1":2},"entries":[["0",1],["1",2]],"view":"{}","plain":["x"],
                 "native":[1,2,"keys",true]}
                """));
  }

  @Test
  void concatOfABigTypedArrayMarkedSpreadableIsRefusedWhileASmallOneIsSpreadAsBefore() {
    // a 32 MiB Uint8Array spread by concat ended the whole process (V8's fatal out of memory)
    sandbox(
        """
        export default () => {
          const small: any = new Uint8Array([1, 2]);
          small[Symbol.isConcatSpreadable] = true;
          return { spread: [0].concat(small, [3]), whole: [0].concat(new Uint8Array(2) as any).length };
        };
        export const big = () => {
          const a: any = new Uint8Array(2 ** 25);
          a[Symbol.isConcatSpreadable] = true;
          return [].concat(a).length;
        };
        export const twoHalves = () => {
          const a: any = new Uint8Array(2 ** 22 + 1);
          a[Symbol.isConcatSpreadable] = true;
          return Array.prototype.concat.call(a, a).length;
        };
        """,
        1);

    assertThatThrownBy(() -> call("big"))
        .isInstanceOf(ScriptFailedException.class)
        .hasMessageContaining("Array.prototype.concat: spreading 33554432 typed-array elements");
    assertThatThrownBy(() -> call("twoHalves"))
        .isInstanceOf(ScriptFailedException.class)
        .hasMessageContaining("spreading 8388610 typed-array elements");
    assertThat(call("default")).isEqualTo(JSON.readTree("{\"spread\":[0,1,2,3],\"whole\":2}"));
  }

  @Test
  void buffersWithinTheBudgetWork_andEachCallHasItsOwnBudget() {
    sandbox(
        """
        export default () => {
          const a = new Uint8Array(2 ** 26).fill(7);
          const b = new Float64Array([1.5, 2.5]).map((x) => x * 2);
          const view = new DataView(a.buffer, 8, 8);
          const sub = a.subarray(0, 4);
          const grown = new ArrayBuffer(4, { maxByteLength: 1024 });
          grown.resize(1024);
          class Bytes extends Uint8Array {}
          return {
            sum: a[0] + a[a.length - 1], b: Array.from(b), view: view.byteLength,
            sub: Array.from(sub), grown: grown.byteLength, isUint8: a instanceof Uint8Array,
            sameCtor: a.constructor === Uint8Array, subclass: new Bytes(3) instanceof Bytes,
            fromBase64: Array.from(Uint8Array.fromBase64("AQID")),
          };
        };
        """,
        1);
    for (int i = 0; i < 3; i++) {
      assertThat(call("default"))
          .isEqualTo(
              JSON.readTree(
                  """
                  {"sum":14,"b":[3,5],"view":8,"sub":[7,7,7,7],"grown":1024,"isUint8":true,
                   "sameCtor":true,"subclass":true,"fromBase64":[1,2,3]}
                  """));
    }
  }

  @Test
  void eightCallsAtOnceEachAllocatingAGibibyteAllFailWithAToolError() throws Exception {
    sandbox(
        """
        export default () => new Uint8Array(2 ** 30).fill(1).length;
        export const small = () => new Uint8Array(16).fill(1).length;
        """,
        4);
    try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      List<Future<Throwable>> calls = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        calls.add(
            threads.submit(() -> {
              try {
                call("default");
                return null;
              } catch (RuntimeException e) {
                return e;
              }
            }));
      }
      for (Future<Throwable> call : calls) {
        assertThat(call.get())
            .isInstanceOf(ScriptFailedException.class)
            .hasMessageContaining("new Uint8Array: 1073741824 bytes of ArrayBuffer memory")
            .hasMessageContaining(LIMIT_MESSAGE);
      }
    }
    assertThat(call("small").asInt()).as("the isolates still serve calls").isEqualTo(16);
  }
}
