/**
 * Rate limits of tool calls ({@code rate_limit}): how often one principal may call one tool. {@link
 * dev.svc.ratelimit.InMemoryRateLimiter} counts per instance; {@link
 * dev.svc.ratelimit.RedisRateLimiter} counts in Redis, shared by every instance ({@code
 * tools.rate_limit.store}); {@link dev.svc.ratelimit.RateLimiters} picks one for a model.
 */
package dev.svc.ratelimit;
