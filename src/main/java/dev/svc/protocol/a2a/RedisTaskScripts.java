package dev.svc.protocol.a2a;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The Lua scripts of the Redis task store, one file each under {@code dev/svc/protocol/a2a/redis/}:
 * the changes that must not race with another instance's (saving over an ended task, ending a task,
 * reading a task with its lease) run in Redis as one script. Each script's header says what its
 * {@code KEYS} and {@code ARGV} are; the header is not sent.
 */
final class RedisTaskScripts {
  static final String SAVE = load("save.lua");
  static final String SNAPSHOT = load("snapshot.lua");
  static final String BODIES = load("bodies.lua");
  static final String PAGE = load("page.lua");
  static final String SAVE_PUSH = load("save-push.lua");
  static final String PUSH_CONFIGS = load("push-configs.lua");
  static final String DELETE_PUSH = load("delete-push.lua");
  static final String APPEND = load("append.lua");
  static final String END = load("end.lua");

  private RedisTaskScripts() {}

  private static String load(String file) {
    try (InputStream in = RedisTaskScripts.class.getResourceAsStream("redis/" + file)) {
      if (in == null) {
        throw new IllegalStateException("the jar lacks the Redis script " + file);
      }
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      while (text.startsWith("--")) { // the header: read here, not sent with every call
        text = text.substring(text.indexOf('\n') + 1);
      }
      return text;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
