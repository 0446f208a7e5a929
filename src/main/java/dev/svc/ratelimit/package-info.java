/**
 * Rate limits of tool calls ({@code rate_limit}): how often one principal may call one tool. The
 * limiter is an interface so that a limit shared by several instances (Redis) can come later;
 * today's {@link dev.svc.ratelimit.InMemoryRateLimiter} counts per instance.
 */
package dev.svc.ratelimit;
