package dev.svc.cache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.json.Json;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ArrayNode;

class InMemoryResultCacheTest {
  @Test
  void aResultWeighsTheHeapItsTreeTakesNotTheLengthOfItsJson() {
    // 100,000 empty arrays: 300 KB of JSON, ~7 MB of tree. Weighed by the JSON, a 64 MiB cache
    // held ~1.5 GB of such trees, and a handler returning them ended the process
    ArrayNode rows = Json.NODES.arrayNode();
    for (int i = 0; i < 100_000; i++) {
      rows.addArray();
    }
    int jsonLength = Json.MAPPER.writeValueAsString(rows).length();
    InMemoryResultCache cache = new InMemoryResultCache(ResultCache.DEFAULT_MAX_BYTES);

    cache.put(
        new ResultCache.CacheKey("nest", "{}", ""),
        new ResultCache.Cached(rows, Optional.empty()),
        Duration.ofMinutes(1),
        jsonLength);

    assertThat(cache.weight()).isGreaterThan(20L * jsonLength).isGreaterThan(7_000_000L);
  }
}
