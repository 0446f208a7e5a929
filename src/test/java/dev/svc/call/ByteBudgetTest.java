package dev.svc.call;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ByteBudgetTest {
  @Test
  void takesWhatFitsAndRefusesWhatDoesNotWithoutTakingIt() {
    ByteBudget budget = new ByteBudget(100);

    assertThat(budget.take(60)).isTrue();
    assertThat(budget.take(41)).isFalse();
    assertThat(budget.takenBytes()).isEqualTo(60);
    assertThat(budget.take(40)).isTrue();
    assertThat(budget.takenBytes()).isEqualTo(100);
  }

  @Test
  void bytesGivenBackCanBeTakenAgain() {
    ByteBudget budget = new ByteBudget(100);
    budget.take(100);

    budget.give(30);

    assertThat(budget.take(30)).isTrue();
    assertThat(budget.take(1)).isFalse();
  }

  @Test
  void oneHolderAloneMayPassTheLimitWhenAskedSoButNotBesideAnother() {
    ByteBudget budget = new ByteBudget(100);

    assertThat(budget.take(500)).isFalse();
    assertThat(budget.takeOrAlone(500)).isTrue();
    assertThat(budget.takeOrAlone(1)).isFalse();
    budget.give(500);
    assertThat(budget.takeOrAlone(1)).isTrue();
  }

  @Test
  void threadsRacingForTheLastBytesNeverTakeMoreThanTheLimit() throws InterruptedException {
    ByteBudget budget = new ByteBudget(1_000);
    AtomicInteger granted = new AtomicInteger();
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < 64; i++) {
      threads.add(
          Thread.ofPlatform()
              .start(() -> {
                try {
                  start.await();
                } catch (InterruptedException e) {
                  return;
                }
                for (int j = 0; j < 100; j++) {
                  if (budget.take(7)) {
                    granted.incrementAndGet();
                  }
                }
              }));
    }
    start.countDown();
    for (Thread thread : threads) {
      thread.join();
    }

    assertThat(granted.get()).isEqualTo(1_000 / 7);
    assertThat(budget.takenBytes()).isEqualTo(granted.get() * 7L);
  }

  @Test
  void aBudgetOfNothingIsAMistake() {
    assertThatThrownBy(() -> new ByteBudget(0)).isInstanceOf(IllegalArgumentException.class);
  }
}
