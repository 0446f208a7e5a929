package dev.svc.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a Redis command becomes before it is sent, so that its reply stays within bounds. */
class RedisReadBoundsTest {
  static final long ALL = Long.MAX_VALUE;

  static RedisReadBounds.Plan plan(String command, long readLimit) {
    List<byte[]> arguments =
        Arrays.stream(command.split(" ")).map(a -> a.getBytes(StandardCharsets.UTF_8)).toList();
    return RedisReadBounds.plan(arguments, readLimit);
  }

  static String sent(RedisReadBounds.Plan plan) {
    return String.join(
        " ", plan.arguments().stream().map(a -> new String(a, StandardCharsets.UTF_8)).toList());
  }

  static String probe(RedisReadBounds.Plan plan) {
    return plan.probe()
        .map(p ->
            String.join(" ", p.stream().map(a -> new String(a, StandardCharsets.UTF_8)).toList()))
        .orElse("");
  }

  @Test
  void aRangeByIndexEndsWhereTheWindowDoes() {
    assertThat(sent(plan("LRANGE memories 0 -1", 1001))).isEqualTo("LRANGE memories 0 1000");
    assertThat(sent(plan("LRANGE memories 5 999999", 11))).isEqualTo("LRANGE memories 5 15");
    assertThat(sent(plan("ZRANGE board 0 -1 WITHSCORES", 101)))
        .isEqualTo("ZRANGE board 0 100 WITHSCORES");
    assertThat(sent(plan("ZREVRANGE board 0 -1", 101))).isEqualTo("ZREVRANGE board 0 100");
    assertThat(sent(plan("LRANGE memories 0 9", 1001))).isEqualTo("LRANGE memories 0 9");
    assertThat(sent(plan("LRANGE memories 9223372036854775000 -1", 1001)))
        .as("a start past any list is sent as written (the answer is empty)")
        .isEqualTo("LRANGE memories 9223372036854775000 -1");
    assertThat(probe(plan("LRANGE memories 0 -1", 1001))).isEmpty();
  }

  @Test
  void aScoreOrStreamRangeWithoutACountGetsTheWindowsCount() {
    assertThat(sent(plan("ZRANGEBYSCORE board 0 +inf", 1001)))
        .isEqualTo("ZRANGEBYSCORE board 0 +inf LIMIT 0 1001");
    assertThat(sent(plan("ZRANGE board 0 +inf BYSCORE", 1001)))
        .isEqualTo("ZRANGE board 0 +inf BYSCORE LIMIT 0 1001");
    assertThat(sent(plan("XRANGE events - +", 1001))).isEqualTo("XRANGE events - + COUNT 1001");
    assertThat(sent(plan("XRANGE events - + COUNT 5", 1001)))
        .isEqualTo("XRANGE events - + COUNT 5");
    assertThat(sent(plan("ZRANGEBYSCORE board 0 10 LIMIT 0 3", 1001)))
        .isEqualTo("ZRANGEBYSCORE board 0 10 LIMIT 0 3");
  }

  @Test
  void readsThatCannotBeBoundedAreSizedFirst() {
    assertThat(probe(plan("HGETALL profile", 1001))).isEqualTo("HLEN profile");
    assertThat(probe(plan("HVALS profile", 1001))).isEqualTo("HLEN profile");
    assertThat(probe(plan("SMEMBERS tags", 1001))).isEqualTo("SCARD tags");
    assertThat(probe(plan("KEYS user:*", 1001))).isEqualTo("DBSIZE");
    assertThat(probe(plan("LRANGE memories -50 -1", 1001))).isEqualTo("LLEN memories");
    assertThat(probe(plan("LRANGE memories 0 -1", ALL))).isEqualTo("LLEN memories");
    assertThat(probe(plan("XRANGE events - +", ALL))).isEqualTo("XLEN events");
    assertThat(probe(plan("GET name", 1001))).isEqualTo("STRLEN name");
    assertThat(probe(plan("HGET profile email", 1001))).isEqualTo("HSTRLEN profile email");
    assertThat(probe(plan("PING", 1001))).isEmpty();
    assertThat(sent(plan("HGETALL profile", 1001))).isEqualTo("HGETALL profile");
  }

  @Test
  void aRangeFromTheEndCountsOnlyWhatItReads() {
    RedisReadBounds.Plan last50 = plan("LRANGE memories -50 -1", 1001);
    RedisReadBounds.check(last50, 10_000_000L); // 50 of ten million: fine

    RedisReadBounds.Plan all = plan("LRANGE memories 0 -1", ALL);
    assertThatThrownBy(() -> RedisReadBounds.check(all, 100_001L))
        .isInstanceOf(StatementFailedException.class)
        .hasMessage(
            "`LRANGE` would read 100001 elements, more than the 100000 svc reads from one reply:"
                + " read the key in parts: HSCAN, SSCAN or SCAN with COUNT, or a bounded LRANGE,"
                + " ZRANGE or XRANGE (a tool's max_rows bounds those)");
    RedisReadBounds.check(all, 100_000L);
  }

  @Test
  void aCountPastTheBoundIsRefusedWithoutAsking() {
    assertThatThrownBy(() -> plan("SRANDMEMBER tags -200000", 1001))
        .isInstanceOf(StatementFailedException.class)
        .hasMessageStartingWith("`SRANDMEMBER` asks for 200000 elements, more than the 100000");
    assertThatThrownBy(() -> plan("HSCAN profile 0 COUNT 1000000", 1001))
        .hasMessageStartingWith("`HSCAN` asks for 1000000 elements at once");
    assertThat(sent(plan("LPOP queue 10", 1001))).isEqualTo("LPOP queue 10");
  }
}
