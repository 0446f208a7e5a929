package dev.svc.protocol.a2a;

import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The streams of this instance that follow a task another instance runs ({@link
 * TaskStream#shared}), so that a draining instance can end them: it has nothing of theirs to
 * finish, and a client that subscribes again reaches an instance that is not stopping (the task as
 * saved, then its events). Before, such a stream held the drain to its limit and was then cut 3 s
 * later without a word.
 */
final class TaskFollowers {
  private final Set<BlockingQueue<Boolean>> wakers = ConcurrentHashMap.newKeySet();
  private volatile boolean ending;

  /** Registers a stream's wake-up queue; {@link #end} offers to it. */
  void add(BlockingQueue<Boolean> waker) {
    wakers.add(waker);
  }

  void remove(BlockingQueue<Boolean> waker) {
    wakers.remove(waker);
  }

  /** Whether the streams are to end (the instance drains). */
  boolean ending() {
    return ending;
  }

  /** Ends every stream following a task: each returns at its next wake-up, which this sends. */
  void end() {
    ending = true;
    for (BlockingQueue<Boolean> waker : wakers) {
      waker.offer(true);
    }
  }
}
