package dev.svc.auth;

import dev.svc.net.LimitedBody;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One exchange with the authorization server (its discovery document, its keys, its introspection
 * endpoint) that ends within one deadline, body included, and keeps at most a size limit of the
 * body.
 *
 * <p>Why not {@link HttpRequest#timeout()} alone: it bounds the wait for the response's headers
 * only, and a socket read timeout bounds each read only. A server that sends its headers and then
 * one byte every few seconds held the request that asked (and, for introspection, one of the
 * permits of every question) for as long as it kept dribbling: a minute of dribble was a minute of
 * request, two for the keys (fetched twice). Here the whole exchange is abandoned at the deadline.
 */
final class IssuerHttp {
  private IssuerHttp() {}

  /**
   * What the server answered.
   *
   * @param body the body, or empty when it is longer than the limit (the rest is not read)
   */
  record Answer(int status, Optional<String> contentType, Optional<byte[]> body) {}

  /**
   * Sends {@code request} and reads the answer, all within {@code timeout}.
   *
   * @throws HttpTimeoutException when the answer (headers and body) is not all there in time
   * @throws IOException when the server cannot be reached or the exchange breaks off
   */
  static Answer exchange(HttpClient http, HttpRequest request, Duration timeout, int sizeLimit)
      throws IOException, InterruptedException {
    CompletableFuture<HttpResponse<Optional<byte[]>>> sent =
        http.sendAsync(request, LimitedBody.upTo(sizeLimit));
    HttpResponse<Optional<byte[]>> response;
    try {
      response = sent.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      sent.cancel(true); // closes the exchange: the server's dribble is no longer read
      throw new HttpTimeoutException("no whole answer within " + timeout.toMillis() + " ms");
    } catch (InterruptedException e) {
      sent.cancel(true);
      throw e;
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) {
        throw io;
      }
      throw new IOException(String.valueOf(cause), cause);
    }
    return new Answer(
        response.statusCode(), response.headers().firstValue("Content-Type"), response.body());
  }
}
