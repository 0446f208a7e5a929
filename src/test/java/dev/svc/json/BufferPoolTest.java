package dev.svc.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import tools.jackson.core.util.BufferRecycler;
import tools.jackson.databind.JsonNode;

class BufferPoolTest {

  @Test
  void aReturnedRecyclerIsHandedOutAgain() {
    BufferPool pool = new BufferPool();
    BufferRecycler first = pool.acquireAndLinkPooled();
    first.releaseToPool();
    assertThat(pool.pooledCount()).isEqualTo(1);

    assertThat(pool.acquireAndLinkPooled()).isSameAs(first);
    assertThat(pool.pooledCount()).isZero();
  }

  @Test
  void anEmptyPoolMakesNewRecyclers_aFullOneDropsReturnedOnes() {
    BufferPool pool = new BufferPool();
    List<BufferRecycler> taken = new ArrayList<>();
    for (int i = 0; i < 3 * BufferPool.SLOTS; i++) {
      taken.add(pool.acquireAndLinkPooled());
    }
    assertThat(taken).doesNotHaveDuplicates();
    taken.forEach(BufferRecycler::releaseToPool);
    assertThat(pool.pooledCount()).isBetween(BufferPool.PROBES, BufferPool.SLOTS);

    assertThat(pool.clear()).isTrue();
    assertThat(pool.pooledCount()).isZero();
  }

  @Test
  void theSharedMapperReadsAndWritesFromManyVirtualThreadsAtOnce() throws Exception {
    try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      List<Future<String>> results = new ArrayList<>();
      for (int i = 0; i < 2000; i++) {
        int n = i;
        results.add(
            threads.submit(() -> {
              JsonNode node = Jackson.MAPPER.readTree("{\"n\":" + n + ",\"text\":\"é\\\"x\"}");
              return Jackson.MAPPER.writeValueAsString(node);
            }));
      }
      for (int i = 0; i < results.size(); i++) {
        assertThat(results.get(i).get()).isEqualTo("{\"n\":" + i + ",\"text\":\"é\\\"x\"}");
      }
    }
  }
}
