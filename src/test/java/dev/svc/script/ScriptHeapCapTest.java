package dev.svc.script;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.call.Caller;
import dev.svc.call.Deadline;
import dev.svc.log.Level;
import dev.svc.model.ScriptRef;
import dev.svc.testing.CapturedLog;
import dev.svc.testing.ProjectFixture;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The heap cap on real V8 against single allocations larger than the room left under it: each ends
 * its call as "the script exceeded its memory limit" instead of V8 ending the process
 * (HeapOverdrafts), and the pool goes on serving. These calls take a GiB or two for a moment and
 * seconds of CPU each.
 */
class ScriptHeapCapTest {
  static final JsonMapper JSON = JsonMapper.builder().build();
  static final String OUT_OF_MEMORY = "the script exceeded its memory limit";

  static final String HANDLERS =
      """
      export default () => "ok";
      export const fill = ({ inputs }) => new Array(inputs.n).fill(0).length;
      export const fillCall = ({ inputs }) => Array(inputs.n).fill(1.5).length;
      export const lengthThenFill = ({ inputs }) => {
        const a: number[] = [];
        a.length = inputs.n;
        return a.fill(0).length;
      };
      export const sized = ({ inputs }) => new Array(inputs.n).length;
      export const from = ({ inputs }) => Array.from({ length: inputs.n }).length;
      export const split = ({ inputs }) => "x".repeat(inputs.n).split("").length;
      export const parseLong = ({ inputs }) => JSON.parse("[" + "0,".repeat(inputs.n) + "0]").length;
      export const sortLike = ({ inputs }) =>
        (Array.prototype.sort.call({ length: inputs.n }) as any).length;
      export const sortString = ({ inputs }) =>
        (Array.prototype.sort.call(new String("x".repeat(inputs.n))) as any).length;
      export const sortProxy = ({ inputs }) => {
        const a: number[] = [];
        a.length = inputs.n;
        return new Proxy(a, {}).sort().length;
      };
      export const sliceString = ({ inputs }) =>
        Array.prototype.slice.call("x".repeat(inputs.n)).length;
      export const sliceOfString = ({ inputs }) =>
        Array.prototype.slice.call("x".repeat(inputs.n), 0, 2).join("");
      export const regexp = ({ inputs }) => new RegExp("a|".repeat(inputs.n) + "b").test("b");
      export const regexpCalled = ({ inputs }) => RegExp("a|".repeat(inputs.n) + "b").test("b");
      export const regexpOfLiteral = ({ inputs }) =>
        new (/x/.constructor as RegExpConstructor)("a|".repeat(inputs.n) + "b").test("b");
      export const compile = ({ inputs }) =>
        (/x/ as any).compile("a|".repeat(inputs.n) + "b").test("b");
      export const match = ({ inputs }) => "b".match("a|".repeat(inputs.n) + "b")!.length;
      export const search = ({ inputs }) => "b".search("a|".repeat(inputs.n) + "b");
      export const matchAll = ({ inputs }) => [..."b".matchAll("a|".repeat(inputs.n) + "b")].length;
      export const patterns = () => {
        class Words extends RegExp {}
        const words = new Words("a|b", "g");
        return [
          new RegExp("a|b").test("b"), RegExp("c").test("c"), /x/ instanceof RegExp,
          words instanceof Words, words instanceof RegExp, "abc".match("b")!.index,
          "abcb".search("c"), [..."abab".matchAll("b")].length, "a,b".split(/,/).length,
          /y/.constructor === RegExp, (/(z)/.exec("z"), RegExp.$1),
        ].join(" ");
      };
      export const caught = ({ inputs }) => {
        try { return new Array(inputs.n).fill(0).length; } catch (e) { return (e as Error).name; }
      };
      export const parse = ({ inputs }) =>
        JSON.parse("[" + "0,".repeat(inputs.n) + "0]").length;
      export const entries = ({ inputs }) => {
        const pairs: [string, number][] = [];
        for (let i = 0; i < inputs.n; i++) pairs.push(["k" + i, i]);
        return Object.keys(Object.fromEntries(pairs)).length;
      };
      export const forIn = ({ inputs }) => {
        let count = 0;
        for (const key in new Uint8Array(inputs.n)) count++;
        return count;
      };
      export const map = ({ inputs }) => {
        const m = new Map<number, number>();
        for (let i = 0; i < inputs.n; i++) m.set(i, i);
        return m.size;
      };
      """;

  @TempDir Path dir;
  PooledScriptRunner runner;

  @AfterEach
  void close() {
    if (runner != null) {
      runner.close();
    }
  }

  void pool(int isolates) {
    var scripts =
        ProjectFixture.model(
                dir,
                """
                == .svc
                name: heapcap
                == app/tools/t/config.terse
                description: A script under test.
                == app/tools/t/handler.ts
                """
                    + HANDLERS)
            .scripts();
    runner =
        new PooledScriptRunner(
            new V8Engine(V8Engine.DEFAULT_HEAP_MB),
            scripts,
            new PooledScriptRunner.Settings(isolates, Duration.ofSeconds(120), false));
  }

  JsonNode call(String export, long n) {
    return runner.call(
        new ScriptRef("app/tools/t/handler.ts", export),
        JSON.readTree("{\"inputs\":{\"n\":" + n + "}}"),
        "t",
        Deadline.after(Duration.ofSeconds(120)),
        Caller.internal("test"));
  }

  @Test
  void anArrayTooBigForTheRoomLeftEndsItsCallOnly() {
    pool(1);
    record Case(String export, long n) {}
    List<Case> cases =
        List.of(
            new Case("fill", (1L << 27) - 2048),
            new Case("fillCall", 1L << 26),
            new Case("lengthThenFill", 1L << 26),
            new Case("parse", 1L << 26),
            new Case("entries", 30_000_000),
            new Case("map", 50_000_000));
    for (Case c : cases) {
      assertThatThrownBy(() -> call(c.export(), c.n()))
          .as(c.export() + " of " + c.n())
          .isInstanceOf(ScriptFailedException.class)
          .hasMessage(OUT_OF_MEMORY);
      assertThat(call("default", 0).asString()).as("after " + c.export()).isEqualTo("ok");
    }
  }

  @Test
  void anArrayOfMoreElementsThanV8HoldsIsARangeErrorOfTheScript_notTheEndOfTheProcess() {
    // V8 ends the process ("Fatal JavaScript invalid size error") when one built-in step is asked
    // for more than 2^27 elements, with no callback svc could answer: lengths.js refuses first
    pool(1);
    record Case(String export, long n) {}
    for (Case c :
        List.of(
            new Case("fill", 1L << 28),
            new Case("from", 1L << 28),
            new Case("split", 1L << 28),
            new Case("parseLong", (1L << 27) + 1))) {
      assertThatThrownBy(() -> call(c.export(), c.n()))
          .as(c.export() + " of " + c.n())
          .isInstanceOf(ScriptFailedException.class)
          .hasMessageContaining("than one array may hold here");
      assertThat(call("default", 0).asString()).as("after " + c.export()).isEqualTo("ok");
    }
    assertThat(call("caught", 1L << 28).asString()).isEqualTo("RangeError");
  }

  @Test
  void aSortOfMoreElementsThanV8HoldsIsARangeError_notTheEndOfTheProcess() {
    // sort copies this.length elements into a work array first: of an array-like, a string or a
    // proxy of an array of 2^28, V8 ended the process ("... process out of memory")
    pool(1);
    for (String export : List.of("sortLike", "sortString", "sortProxy")) {
      assertThatThrownBy(() -> call(export, 1L << 28))
          .as(export)
          .isInstanceOf(ScriptFailedException.class)
          .hasMessageContaining("Array.prototype.sort: 268435456 elements are more");
      assertThat(call("default", 0).asString()).as("after " + export).isEqualTo("ok");
    }
  }

  @Test
  void aSliceOfAStringOfMoreCharactersThanAnArrayHoldsIsARangeError() {
    // Array.prototype.slice.call(s) of 2^28 characters ended the process after 15 s
    pool(1);
    assertThatThrownBy(() -> call("sliceString", 1L << 28))
        .isInstanceOf(ScriptFailedException.class)
        .hasMessageContaining(
            "Array.prototype.slice of a string: 268435456 elements are more than one array");
    assertThat(call("sliceOfString", 1L << 28).asString()).isEqualTo("xx");
  }

  @Test
  void aPatternOfMillionsOfCharactersIsARangeError_notTheEndOfTheProcess() {
    // a regular expression of 4 million alternatives (8 MiB characters) ended the process when
    // compiled ("... process out of memory"), however it was compiled from a string
    pool(1);
    record Case(String export, String what) {}
    for (Case c :
        List.of(
            new Case("regexp", "RegExp"),
            new Case("regexpCalled", "RegExp"),
            new Case("regexpOfLiteral", "RegExp"),
            new Case("compile", "RegExp.prototype.compile"),
            new Case("match", "String.prototype.match"),
            new Case("search", "String.prototype.search"),
            new Case("matchAll", "String.prototype.matchAll"))) {
      assertThatThrownBy(() -> call(c.export(), 1L << 22))
          .as(c.export())
          .isInstanceOf(ScriptFailedException.class)
          .hasMessageContaining(c.what() + ": a pattern of 8388609 characters is longer than");
      assertThat(call("default", 0).asString()).as("after " + c.export()).isEqualTo("ok");
    }
    // a million alternatives still compile
    assertThat(call("regexp", 1_000_000).asBoolean()).isTrue();
    assertThat(call("patterns", 0).asString()).isEqualTo("true true true true true 1 2 2 2 true z");
  }

  @Test
  void aStepOfV8ThatIgnoresTheTerminationGetsRoomUntilItEnds_andTheOperatorIsToldWhichTool() {
    // for…in makes a key string of each index of a typed array in one step that never looks for
    // the termination: past the cap V8 asks for room again and again (refusing would end the
    // process); the call still ends at the cap once the step is done, and a warning names it
    String log;
    try (CapturedLog captured = CapturedLog.at(Level.INFO)) {
      pool(1);
      assertThatThrownBy(() -> call("forIn", 1L << 26))
          .isInstanceOf(ScriptFailedException.class)
          .hasMessage(OUT_OF_MEMORY);
      assertThat(call("default", 0).asString()).isEqualTo("ok");
      log = captured.text();
    }
    assertThat(log)
        .containsOnlyOnce("past its heap cap goes on inside one step of V8")
        .contains("tool=t");
  }

  @Test
  void anArrayOfALengthButNoElementsTakesNoMemory() {
    pool(1);
    assertThat(call("sized", 1L << 26).asLong()).isEqualTo(1L << 26);
  }

  @Test
  void eightSuchCallsAtOnceEachEndAndTheProcessGoesOn() throws Exception {
    pool(8);
    try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      List<Future<JsonNode>> calls = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        calls.add(threads.submit(() -> call("parse", 1L << 26)));
      }
      for (Future<JsonNode> each : calls) {
        assertThatThrownBy(each::get)
            .isInstanceOf(ExecutionException.class)
            .cause()
            .isInstanceOf(ScriptFailedException.class)
            .hasMessage(OUT_OF_MEMORY);
      }
    }
    assertThat(call("default", 0).asString()).isEqualTo("ok");
  }
}
