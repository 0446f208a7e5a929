package dev.svc.connector;

import com.mongodb.event.ConnectionCheckOutFailedEvent;
import com.mongodb.event.ConnectionCheckOutStartedEvent;
import com.mongodb.event.ConnectionCheckedInEvent;
import com.mongodb.event.ConnectionCheckedOutEvent;
import com.mongodb.event.ConnectionClosedEvent;
import com.mongodb.event.ConnectionCreatedEvent;
import com.mongodb.event.ConnectionPoolListener;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The usage of the MongoDB driver's connection pool, counted from its events: the driver does not
 * expose its pool. The counters are read one after the other while events arrive, so a count may
 * dip below zero for a moment; it is read as zero.
 */
final class MongoPoolCounts implements ConnectionPoolListener {
  private final AtomicInteger open = new AtomicInteger();
  private final AtomicInteger used = new AtomicInteger();
  private final AtomicInteger waiting = new AtomicInteger();

  /** The usage now, of a pool of at most {@code max} connections. */
  PoolUsage usage(int max) {
    int inUse = Math.max(0, used.get());
    return new PoolUsage(inUse, Math.max(0, open.get() - inUse), max, Math.max(0, waiting.get()));
  }

  @Override
  public void connectionCreated(ConnectionCreatedEvent event) {
    open.incrementAndGet();
  }

  @Override
  public void connectionClosed(ConnectionClosedEvent event) {
    open.decrementAndGet();
  }

  @Override
  public void connectionCheckOutStarted(ConnectionCheckOutStartedEvent event) {
    waiting.incrementAndGet();
  }

  @Override
  public void connectionCheckedOut(ConnectionCheckedOutEvent event) {
    waiting.decrementAndGet();
    used.incrementAndGet();
  }

  @Override
  public void connectionCheckOutFailed(ConnectionCheckOutFailedEvent event) {
    waiting.decrementAndGet();
  }

  @Override
  public void connectionCheckedIn(ConnectionCheckedInEvent event) {
    used.decrementAndGet();
  }
}
