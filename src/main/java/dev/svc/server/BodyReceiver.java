package dev.svc.server;

import dev.svc.log.Log;
import dev.svc.protocol.HttpReply;
import dev.svc.telemetry.SvcMetrics;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Optional;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.EofException;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Blocker;
import org.eclipse.jetty.util.Callback;

/**
 * Receives a request's body for the handler, within the size cap, the body deadline and the memory
 * all bodies share, and answers the refusal itself when it cannot: 413, 408, 400, or 503 with
 * {@code Retry-After} when the bodies being received fill their memory ({@link BodyMemory}).
 */
final class BodyReceiver {
  private static final Log LOG = Log.tagged("http");

  private BodyReceiver() {}

  /** The body, or empty once the refusal has been answered (or the client has gone). */
  static Optional<byte[]> receive(
      Request request,
      Response response,
      Callback callback,
      ServerSettings settings,
      BodyMemory.Hold hold,
      String path) {
    switch (RequestBody.read(
        request, settings.maxBodyBytes(), settings.limits().bodyTimeout(), hold)) {
      case RequestBody.Outcome.Received received -> {
        return Optional.of(received.bytes());
      }
      case RequestBody.Outcome.NoMemory noMemory -> {
        SvcMetrics.HTTP_REFUSALS.increment("body_memory");
        hold.close(); // what it read so far is dropped: the others may use the room
        response.getHeaders().put(HttpHeader.RETRY_AFTER, "1");
        refuse(
            request,
            response,
            callback,
            503,
            "Service Unavailable: the request bodies being received fill the memory set aside"
                + " for them; retry in a moment");
      }
      case RequestBody.Outcome.TooLarge tooLarge -> {
        SvcMetrics.HTTP_REFUSALS.increment("body_too_large");
        hold.close();
        refuse(
            request,
            response,
            callback,
            413,
            "Payload Too Large: requests are limited to "
                + settings.maxBodyBytes() / (1024 * 1024)
                + " MiB");
      }
      case RequestBody.Outcome.TooSlow tooSlow -> {
        SvcMetrics.HTTP_REFUSALS.increment("body_timeout");
        hold.close();
        LOG.debug("request body too slow", "path", path);
        refuse(
            request,
            response,
            callback,
            408,
            "Request Timeout: the body must arrive within "
                + settings.limits().bodyTimeout().toSeconds()
                + " s");
      }
      case RequestBody.Outcome.Malformed malformed -> {
        hold.close();
        LOG.debug("malformed request body", "path", path, "reason", malformed.reason());
        refuse(request, response, callback, 400, "Bad Request: " + malformed.reason());
      }
      case RequestBody.Outcome.Gone gone -> {
        LOG.debug("client closed the connection before sending its body", "path", path);
        callback.failed(new EofException("client went away"));
      }
    }
    return Optional.empty();
  }

  /**
   * Refuses a request whose body was not read in full: the answer goes out with {@code Connection:
   * close}, then what the client still sends is read and dropped for a short bounded time, so the
   * client reads the answer instead of a connection reset.
   */
  static void refuse(
      Request request, Response response, Callback callback, int status, String message) {
    response.getHeaders().put(HttpHeader.CONNECTION, "close");
    byte[] json = HttpReply.errorJson(message);
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, json.length);
    try (Blocker.Callback written = Blocker.callback()) {
      response.write(true, ByteBuffer.wrap(json), written);
      written.block();
    } catch (IOException | RuntimeException e) {
      callback.failed(e);
      return;
    }
    RequestBody.discard(request);
    callback.succeeded();
  }
}
