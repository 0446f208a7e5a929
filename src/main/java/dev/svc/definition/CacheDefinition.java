package dev.svc.definition;

import dev.svc.diagnostic.Origin;
import java.util.Optional;

/**
 * A {@code cache} block: global ({@code tools.cache}) or per tool.
 *
 * @param store {@code store}: the redis adapter whose database holds the results, shared by every
 *     instance (only in {@code tools.cache}; a tool's block has no such key)
 */
public record CacheDefinition(
    Origin origin,
    Optional<Located<Boolean>> enabled,
    Optional<Located<Long>> ttl,
    Optional<Located<String>> store) {}
