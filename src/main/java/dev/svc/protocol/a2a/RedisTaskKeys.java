package dev.svc.protocol.a2a;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The keys of the Redis task store, all under one prefix ({@link RedisTaskStore#PREFIX}; tests give
 * their own): a hash per task, a list of events and of push configs per task, a sorted set per
 * scope (newest status first) and a list per conversation, the leases and the finished tasks as
 * sorted sets by time, the layout's version, and the pub/sub channel.
 */
record RedisTaskKeys(String prefix) {
  String task(String id) {
    return prefix + "task:" + id;
  }

  /** What every task's key starts with (the Lua scripts add the id). */
  String taskPrefix() {
    return prefix + "task:";
  }

  String events(String id) {
    return prefix + "events:" + id;
  }

  String push(String id) {
    return prefix + "push:" + id;
  }

  String pushOrder(String id) {
    return prefix + "push_order:" + id;
  }

  /** The scope as a digest: principal ids can be long, and keys need not show them. */
  String scope(String agent, String principal) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256")
              .digest((agent + "\u0000" + principal).getBytes(StandardCharsets.UTF_8));
      return prefix + "scope:" + HexFormat.of().formatHex(digest, 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  String scope(TaskStore.Scope scope) {
    return scope(scope.agent(), scope.principal().id());
  }

  /** A conversation's task ids, under its scope's key. */
  static String context(String scopeKey, String contextId) {
    return scopeKey + ":context:" + contextId;
  }

  String leases() {
    return prefix + "leases";
  }

  String finished() {
    return prefix + "finished";
  }

  String version() {
    return prefix + "schema_version";
  }

  String channel() {
    return prefix + "notify";
  }
}
