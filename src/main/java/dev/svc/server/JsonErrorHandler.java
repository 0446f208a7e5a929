package dev.svc.server;

import dev.svc.protocol.HttpReply;
import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * The answers Jetty gives itself, before a request reaches svc (a malformed request line or chunk,
 * {@code HTTP/9.9}, headers too large, a request after shutdown began): the same short JSON body as
 * svc's own errors, {@code {"error": "…"}}, never Jetty's HTML page.
 */
final class JsonErrorHandler extends ErrorHandler {

  static String message(int status, String reason) {
    String standard = HttpStatus.getMessage(status);
    return reason == null || reason.isBlank() || reason.equals(standard)
        ? standard
        : standard + ": " + reason;
  }

  @Override
  protected void generateResponse(
      Request request,
      Response response,
      int code,
      String message,
      Throwable cause,
      Callback callback) {
    byte[] body = HttpReply.errorJson(message(code, message));
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
    response.write(true, ByteBuffer.wrap(body), callback);
  }
}
