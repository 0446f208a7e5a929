package dev.svc.definition;

import dev.svc.diagnostic.Origin;
import java.util.Optional;

/** A {@code cache} block: global ({@code tools.cache}) or per tool. */
public record CacheDefinition(
    Origin origin, Optional<Located<Boolean>> enabled, Optional<Located<Long>> ttl) {}
