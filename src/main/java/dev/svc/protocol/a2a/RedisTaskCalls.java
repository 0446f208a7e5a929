package dev.svc.protocol.a2a;

import java.util.function.Supplier;

/**
 * Runs a command against {@link RedisTaskStore}'s Redis, a failure a {@link TaskStoreException}
 * naming what was being done: how the store's parts ({@link RedisPushConfigs}, {@link
 * RedisTaskEvents}) reach it.
 */
@FunctionalInterface
interface RedisTaskCalls {
  <T> T call(String what, Supplier<T> work);
}
