package dev.svc.definition;

import dev.svc.diagnostic.Origin;
import java.util.Optional;

/**
 * A {@code rate_limit} block: global ({@code tools.rate_limit}) or per tool.
 *
 * @param origin where {@code rate_limit:} was written
 * @param enabled {@code enabled}; {@code false} on a tool exempts it from the global limit
 * @param requests {@code requests}: the most calls in one window
 * @param per {@code per}: the window, an integer of seconds or a duration such as {@code 60s}
 * @param store {@code store}: the redis adapter whose database holds the counters, shared by every
 *     instance (only in {@code tools.rate_limit}; a tool's block has no such key)
 */
public record RateLimitDefinition(
    Origin origin,
    Optional<Located<Boolean>> enabled,
    Optional<Located<Long>> requests,
    Optional<Located<String>> per,
    Optional<Located<String>> store) {}
