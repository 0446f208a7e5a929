package dev.svc.net;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * An HTTP response body read into memory up to a limit: past it the exchange is cancelled (the rest
 * is never read, nor kept) and the body is empty, while the status and headers stay for the caller
 * to say what the server answered.
 */
public final class LimitedBody implements HttpResponse.BodySubscriber<Optional<byte[]>> {
  private final long limit;
  private final CompletableFuture<Optional<byte[]>> body = new CompletableFuture<>();
  private final List<ByteBuffer> received = new ArrayList<>();
  private long size;
  private Flow.Subscription subscription;

  private LimitedBody(long limit) {
    this.limit = limit;
  }

  /** The longest body one array holds. */
  private static final long MOST = Integer.MAX_VALUE - 8;

  /** Bodies of at most {@code limit} bytes (and at most 2 GiB); a longer one is empty. */
  public static HttpResponse.BodyHandler<Optional<byte[]>> upTo(long limit) {
    long bound = Math.clamp(limit, 0, MOST);
    return response -> new LimitedBody(bound);
  }

  @Override
  public CompletionStage<Optional<byte[]>> getBody() {
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
        body.complete(Optional.empty());
        return;
      }
      received.add(item);
    }
  }

  @Override
  public void onError(Throwable failure) {
    received.clear();
    body.completeExceptionally(failure);
  }

  @Override
  public void onComplete() {
    if (body.isDone()) {
      return;
    }
    byte[] all = new byte[(int) size];
    int at = 0;
    for (ByteBuffer item : received) {
      int length = item.remaining();
      item.get(all, at, length);
      at += length;
    }
    received.clear();
    body.complete(Optional.of(all));
  }
}
