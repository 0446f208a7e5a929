package dev.svc.server;

import dev.svc.json.Json;
import dev.svc.protocol.EventSink;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.locks.ReentrantLock;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Blocker;
import tools.jackson.databind.JsonNode;

/** An SSE stream over a Jetty response: each event is written and flushed at once. */
final class SseSink implements EventSink {
  private final Response response;
  private final ReentrantLock lock = new ReentrantLock();
  private volatile boolean open = true;

  SseSink(Response response) {
    this.response = response;
  }

  @Override
  public boolean send(JsonNode message) {
    return write("event: message\ndata: " + Json.MAPPER.writeValueAsString(message) + "\n\n");
  }

  @Override
  public boolean data(JsonNode message) {
    return write("data: " + Json.MAPPER.writeValueAsString(message) + "\n\n");
  }

  @Override
  public boolean comment(String text) {
    return write(": " + text + "\n\n");
  }

  @Override
  public boolean isOpen() {
    return open;
  }

  private boolean write(String frame) {
    if (!open) {
      return false;
    }
    lock.lock();
    try (Blocker.Callback callback = Blocker.callback()) {
      response.write(false, ByteBuffer.wrap(frame.getBytes(StandardCharsets.UTF_8)), callback);
      callback.block();
      return true;
    } catch (Exception e) {
      open = false;
      return false;
    } finally {
      lock.unlock();
    }
  }

  void close() {
    open = false;
  }
}
