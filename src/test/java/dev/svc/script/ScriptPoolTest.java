package dev.svc.script;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.call.Caller;
import dev.svc.call.ClientLog;
import dev.svc.call.Headers;
import dev.svc.model.ScriptRef;
import dev.svc.model.Scripts;
import dev.svc.testing.ProjectFixture;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The isolate pool under stress: deadlines, the memory cap, more calls than isolates, growth and
 * cancellation. Real V8 isolates throughout; the engine is only wrapped to count the isolates it
 * makes.
 */
class ScriptPoolTest {
  static final JsonMapper JSON = JsonMapper.builder().build();
  static final String PROJECT =
      """
      == .svc
      name: pool
      == app/tools/t/config.terse
      description: Scripts for the pool tests.
      == app/tools/t/handler.ts
      export default ({ inputs }) => ({ hello: inputs?.name ?? "world" });
      export const spin = () => { console.info("spinning"); while (true) {} };
      export const busy = ({ inputs }) => { const end = Date.now() + inputs.ms; while (Date.now() < end) {} return "done"; };
      export const bomb = () => { const hoard: unknown[] = []; while (true) hoard.push({ index: hoard.length, text: "x".repeat(64) + hoard.length }); };
      export const deep = () => { const down = (n: number): number => (n === 0 ? 0 : 1 + down(n - 1)); return down(10_000_000); };
      export const chain = async ({ inputs }) => { let v = inputs.n; for (let i = 0; i < 10; i++) v = await Promise.resolve(v + 1); return v; };
      """;

  @TempDir Path dir;
  PooledScriptRunner runner;
  final AtomicInteger created = new AtomicInteger();
  final AtomicInteger alive = new AtomicInteger();
  final AtomicInteger mostAlive = new AtomicInteger();
  final java.util.Queue<String> callThreads = new java.util.concurrent.ConcurrentLinkedQueue<>();

  @AfterEach
  void close() {
    if (runner != null) {
      runner.close();
    }
  }

  PooledScriptRunner pool(int maxIsolates) {
    return pool(
        new PooledScriptRunner.Settings(maxIsolates, Duration.ofSeconds(30), false)
            .withCallerSlots(1));
  }

  PooledScriptRunner pool(PooledScriptRunner.Settings settings) {
    Scripts scripts = ProjectFixture.model(dir, PROJECT).scripts();
    V8Engine v8 = new V8Engine(V8Engine.DEFAULT_HEAP_MB);
    ScriptEngine counting =
        s -> {
          created.incrementAndGet();
          mostAlive.accumulateAndGet(alive.incrementAndGet(), Math::max);
          ScriptIsolate isolate = v8.newIsolate(s);
          return new ScriptIsolate() {
            @Override
            public String call(ScriptCall call) {
              Thread thread = Thread.currentThread();
              callThreads.add(thread.isVirtual() ? "virtual" : thread.getName());
              return isolate.call(call);
            }

            @Override
            public boolean isReusable() {
              return isolate.isReusable();
            }

            @Override
            public void interrupt(ScriptCall call) {
              isolate.interrupt(call);
            }

            @Override
            public void close() {
              alive.decrementAndGet();
              isolate.close();
            }
          };
        };
    runner = new PooledScriptRunner(counting, scripts, settings);
    return runner;
  }

  JsonNode call(String export, String payload, Duration timeout) {
    return runner.call(
        new ScriptRef("app/tools/t/handler.ts", export), JSON.readTree(payload), "t", timeout);
  }

  @Test
  void anEndlessLoopEndsAtItsDeadline_whileOtherCallsAreServed() throws Exception {
    pool(2);
    CountDownLatch spinning = new CountDownLatch(1);
    Caller caller =
        new Caller("r1", Headers.NONE, Optional.empty())
            .withClientLog((level, logger, message) -> spinning.countDown());
    try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      Future<Throwable> loop =
          threads.submit(() -> {
            try {
              ScopedValue.where(Caller.CURRENT, caller)
                  .call(() -> call("spin", "{}", Duration.ofSeconds(3)));
              return null;
            } catch (Throwable e) {
              return e;
            }
          });
      assertThat(spinning.await(20, TimeUnit.SECONDS)).isTrue();

      for (int i = 0; i < 5; i++) {
        assertThat(call("default", "{\"inputs\":{\"name\":\"b\"}}", Duration.ofSeconds(10)))
            .isEqualTo(JSON.readTree("{\"hello\":\"b\"}"));
      }

      assertThat(loop.get(20, TimeUnit.SECONDS))
          .isInstanceOf(ScriptTimeoutException.class)
          .hasMessage("the script ran longer than 3 s");
    }
    assertThat(call("default", "{}", Duration.ofSeconds(10)))
        .isEqualTo(JSON.readTree("{\"hello\":\"world\"}"));
  }

  @Test
  void aCallRunsOnItsCallersThreadWhileACallerSlotIsFree_otherwiseOnAWorker() throws Exception {
    pool(2);
    try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      assertThat(threads.submit(() -> call("default", "{}", Duration.ofSeconds(10))).get())
          .isEqualTo(JSON.readTree("{\"hello\":\"world\"}"));
      assertThat(callThreads).containsExactly("virtual");

      Future<JsonNode> busy =
          threads.submit(() -> call("busy", "{\"inputs\":{\"ms\":1500}}", Duration.ofSeconds(30)));
      while (callThreads.size() < 2) {
        Thread.sleep(5);
      }
      assertThat(threads.submit(() -> call("default", "{}", Duration.ofSeconds(10))).get())
          .isEqualTo(JSON.readTree("{\"hello\":\"world\"}"));
      assertThat(busy.get(30, TimeUnit.SECONDS).asString()).isEqualTo("done");
    }
    assertThat(callThreads).hasSize(3);
    assertThat(callThreads.toArray(String[]::new)[2]).startsWith("svc-script-");
    assertThat(runner.usage().orElseThrow().busy()).isZero();
  }

  @Test
  void withNoCallerSlotsEveryCallRunsOnAWorker() throws Exception {
    pool(new PooledScriptRunner.Settings(2, Duration.ofSeconds(30), false).withCallerSlots(0));
    try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < 3; i++) {
        assertThat(threads.submit(() -> call("default", "{}", Duration.ofSeconds(10))).get())
            .isEqualTo(JSON.readTree("{\"hello\":\"world\"}"));
      }
    }
    assertThat(callThreads).hasSize(3).allMatch(name -> name.startsWith("svc-script-"));
  }

  @Test
  void anAllocationBombEndsThatCallOnly_andItsIsolateIsReplaced() {
    pool(1);
    assertThat(call("default", "{}", Duration.ofSeconds(10)).path("hello").asString())
        .isEqualTo("world");
    assertThat(created).hasValue(1);

    assertThatThrownBy(() -> call("bomb", "{}", Duration.ofSeconds(60)))
        .isInstanceOf(ScriptFailedException.class)
        .hasMessage("the script exceeded its memory limit");

    assertThat(call("default", "{}", Duration.ofSeconds(10)).path("hello").asString())
        .isEqualTo("world");
    assertThat(created).hasValue(2);
  }

  @Test
  void moreCallsThanIsolatesWaitTheirTurnAndAllSucceed() throws Exception {
    pool(2);
    try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      List<Future<JsonNode>> calls = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        int n = i;
        calls.add(
            threads.submit(
                () -> call("chain", "{\"inputs\":{\"n\":" + n + "}}", Duration.ofSeconds(30))));
      }
      for (int i = 0; i < calls.size(); i++) {
        assertThat(calls.get(i).get(60, TimeUnit.SECONDS).asInt()).isEqualTo(i + 10);
      }
    }
    assertThat(mostAlive.get()).isBetween(1, 2);
  }

  @Test
  void thePoolGrowsWhenCallsWaitAndNoIsolateIsIdle() throws Exception {
    pool(4);
    try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      List<Future<JsonNode>> calls = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        calls.add(
            threads.submit(
                () -> call("busy", "{\"inputs\":{\"ms\":400}}", Duration.ofSeconds(30))));
      }
      for (Future<JsonNode> c : calls) {
        assertThat(c.get(60, TimeUnit.SECONDS).asString()).isEqualTo("done");
      }
    }
    assertThat(created.get()).isBetween(2, 3);
  }

  @Test
  void runawayRecursionIsAStackOverflowErrorOfTheScript_onVirtualAndPlatformThreads()
      throws Exception {
    pool(2);
    try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < 3; i++) {
        Future<Throwable> deep =
            threads.submit(() -> {
              try {
                call("deep", "{}", Duration.ofSeconds(10));
                return null;
              } catch (Throwable e) {
                return e;
              }
            });
        assertThat(deep.get(30, TimeUnit.SECONDS))
            .isInstanceOf(ScriptFailedException.class)
            .hasMessageContaining("Maximum call stack size exceeded");
      }
    }
    assertThatThrownBy(() -> call("deep", "{}", Duration.ofSeconds(10)))
        .isInstanceOf(ScriptFailedException.class)
        .hasMessageContaining("Maximum call stack size exceeded");
    assertThat(call("default", "{}", Duration.ofSeconds(10)).path("hello").asString())
        .isEqualTo("world");
  }

  @Test
  void aCallWaitingForAnIsolateGivesUpAtItsOwnDeadline() throws Exception {
    pool(1);
    try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      Future<JsonNode> busy =
          threads.submit(() -> call("busy", "{\"inputs\":{\"ms\":3000}}", Duration.ofSeconds(30)));
      // wait until the only isolate is taken
      while (created.get() == 0) {
        Thread.sleep(10);
      }
      assertThatThrownBy(() -> call("default", "{}", Duration.ofMillis(300)))
          .isInstanceOf(ScriptTimeoutException.class)
          .hasMessage("the script ran longer than 300 ms");
      assertThat(busy.get(60, TimeUnit.SECONDS).asString()).isEqualTo("done");
    }
  }

  @Test
  void aCancelledCallStopsItsScriptAndTheIsolateIsReplaced() throws Exception {
    pool(1);
    CountDownLatch spinning = new CountDownLatch(1);
    ClientLog log = (level, logger, message) -> spinning.countDown();
    Caller caller = new Caller("r2", Headers.NONE, Optional.empty()).withClientLog(log);
    Thread thread =
        Thread.ofVirtual()
            .start(() -> {
              try {
                ScopedValue.where(Caller.CURRENT, caller)
                    .call(() -> call("spin", "{}", Duration.ofSeconds(60)));
              } catch (ScriptFailedException e) {
                assertThat(e).hasMessage("the call was cancelled");
              }
            });
    assertThat(spinning.await(20, TimeUnit.SECONDS)).isTrue();

    thread.interrupt();
    thread.join(Duration.ofSeconds(20));

    assertThat(thread.isAlive()).isFalse();
    assertThat(call("default", "{}", Duration.ofSeconds(10)).path("hello").asString())
        .isEqualTo("world");
    assertThat(created).hasValue(2);
  }
}
