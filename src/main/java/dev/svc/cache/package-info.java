/**
 * The result cache of tool calls ({@code cache}): {@link dev.svc.cache.InMemoryResultCache} per
 * instance, size-bounded; {@link dev.svc.cache.RedisResultCache} shared by every instance through
 * Redis ({@code tools.cache.store}). {@link dev.svc.cache.ResultCache} is what the tool pipeline
 * sees.
 */
package dev.svc.cache;
