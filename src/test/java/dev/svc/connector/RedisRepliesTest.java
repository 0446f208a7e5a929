package dev.svc.connector;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.util.KeyValue;

/** RESP3 replies, as Jedis decodes them, turned into JSON. */
class RedisRepliesTest {
  private static byte[] b(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void scalarsMapToJsonScalars() {
    assertThat(RedisReplies.json(b("héllo"))).hasToString("\"héllo\"");
    assertThat(RedisReplies.json(42L)).hasToString("42");
    assertThat(RedisReplies.json(1.5)).hasToString("1.5");
    assertThat(RedisReplies.json(Double.POSITIVE_INFINITY)).hasToString("\"Infinity\"");
    assertThat(RedisReplies.json(true)).hasToString("true");
    assertThat(RedisReplies.json((Object) null)).hasToString("null");
    assertThat(RedisReplies.json(new byte[] {(byte) 0xff, 0x00})).hasToString("\"/wA=\"");
  }

  @Test
  void mapsAreObjectsAndArraysArrays() {
    Object hash = List.of(KeyValue.of(b("a"), b("1")), KeyValue.of(b("b"), List.of(b("x"), 2L)));

    assertThat(RedisReplies.json(hash)).hasToString("{\"a\":\"1\",\"b\":[\"x\",2]}");
    assertThat(RedisReplies.json(List.of(b("x"), List.of()))).hasToString("[\"x\",[]]");
  }

  @Test
  void anEmptyReplyOfAMapCommandIsAnEmptyObject() {
    assertThat(RedisReplies.json(List.of(), List.of("HGETALL", "K"))).hasToString("{}");
    assertThat(RedisReplies.json(List.of(), List.of("CONFIG", "GET"))).hasToString("{}");
    assertThat(RedisReplies.json(List.of(), List.of("LRANGE", "K"))).hasToString("[]");
  }

  @Test
  void errorsLoseTheArgumentsRedisQuotes() {
    assertThat(
            RedisReplies.message("ERR unknown command 'FOO', with args beginning with: 'secret' "))
        .isEqualTo("ERR unknown command 'FOO'");
    assertThat(RedisReplies.json(List.of(new JedisDataException("WRONGTYPE x"))))
        .hasToString("[{\"error\":\"WRONGTYPE x\"}]");
  }
}
