package dev.svc.connector;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * An HTTP response body read into memory up to a limit: past it the exchange is cancelled (the rest
 * is never read) and the response fails with {@link TooLarge}.
 */
final class LimitedBody implements HttpResponse.BodySubscriber<byte[]> {
  /** The body passed the limit; the exchange was cancelled. */
  static final class TooLarge extends IOException {
    TooLarge(long limit) {
      super("the response body passed " + limit + " bytes");
    }
  }

  private final long limit;
  private final CompletableFuture<byte[]> body = new CompletableFuture<>();
  private final List<ByteBuffer> received = new ArrayList<>();
  private long size;
  private Flow.Subscription subscription;

  private LimitedBody(long limit) {
    this.limit = limit;
  }

  /** Bodies of at most {@code limit} bytes. */
  static HttpResponse.BodyHandler<byte[]> atMost(long limit) {
    return response -> new LimitedBody(limit);
  }

  @Override
  public CompletionStage<byte[]> getBody() {
    return body;
  }

  @Override
  public void onSubscribe(Flow.Subscription subscription) {
    this.subscription = subscription;
    subscription.request(Long.MAX_VALUE);
  }

  @Override
  public void onNext(List<ByteBuffer> items) {
    if (body.isDone()) {
      return;
    }
    for (ByteBuffer item : items) {
      size += item.remaining();
      if (size > limit) {
        received.clear();
        subscription.cancel();
        body.completeExceptionally(new TooLarge(limit));
        return;
      }
      received.add(item);
    }
  }

  @Override
  public void onError(Throwable failure) {
    body.completeExceptionally(failure);
  }

  @Override
  public void onComplete() {
    byte[] all = new byte[(int) size];
    int at = 0;
    for (ByteBuffer item : received) {
      int length = item.remaining();
      item.get(all, at, length);
      at += length;
    }
    received.clear();
    body.complete(all);
  }
}
