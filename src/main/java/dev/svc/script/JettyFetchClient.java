package dev.svc.script;

import dev.svc.net.AddressPolicy;
import dev.svc.net.HostResolver;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.InputStreamResponseListener;
import org.eclipse.jetty.client.RedirectCache;
import org.eclipse.jetty.client.RedirectProtocolHandler;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.http.HttpCookieStore;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The HTTP client behind scripts' {@code fetch}: Jetty's, because its {@link CheckedAddresses
 * address resolver} can be replaced (the JDK's resolves names itself, and may connect elsewhere
 * than svc checked). Set up like the JDK client it replaced: redirects followed (at most 5, never
 * from https to http), no cookies kept (they would travel from one call to the next), bodies not
 * decompressed, no content type added. The only class of {@code script} that imports Jetty, loaded
 * on the first fetch.
 */
final class JettyFetchClient implements AutoCloseable {
  /** Redirects followed, as the JDK's client follows by default. */
  static final int MAX_REDIRECTS = 5;

  /** A request as {@link HttpFetch} read it from the sandbox. */
  record Outgoing(
      URI uri, String method, List<Map.Entry<String, String>> headers, Optional<byte[]> body) {}

  /**
   * The answer's head and its body, to be read.
   *
   * @param url where the answer came from, after redirects
   * @param headers each name (lower case) once, its values joined with {@code ", "}
   */
  record Reply(int status, String url, List<Map.Entry<String, String>> headers, InputStream body) {}

  private final HttpClient client;

  JettyFetchClient(AddressPolicy policy, HostResolver resolver) {
    QueuedThreadPool threads = new QueuedThreadPool(32, 1);
    threads.setName("svc-fetch");
    threads.setDaemon(true);
    client = new HttpClient();
    client.setExecutor(threads);
    client.setSocketAddressResolver(new CheckedAddresses(policy, resolver));
    client.setConnectTimeout(10_000);
    client.setFollowRedirects(true);
    client.setMaxRedirects(MAX_REDIRECTS);
    client.setHttpCookieStore(new HttpCookieStore.Empty());
    client.setRedirectCache(NO_REDIRECT_CACHE);
    client.getContentDecoderFactories().clear();
    client.setDefaultRequestContentType(null);
    client.setUserAgentField(new HttpField("User-Agent", "svc-fetch"));
    client.getProtocolHandlers().remove(RedirectProtocolHandler.NAME);
    client.getProtocolHandlers().put(new NoDowngrade(client));
    try {
      client.start();
    } catch (Exception e) {
      throw new IllegalStateException("the fetch client did not start", e);
    }
  }

  /**
   * Sends {@code outgoing} and waits for the answer's head.
   *
   * @param aborts receives what aborts the exchange (when its call gave up on it)
   * @throws FetchRefusedException when it, or a redirect it followed, would reach a refused address
   * @throws TimeoutException when no answer came within {@code timeoutMillis}
   */
  Reply send(Outgoing outgoing, long timeoutMillis, Consumer<Runnable> aborts)
      throws IOException, TimeoutException, InterruptedException {
    Request request =
        client
            .newRequest(outgoing.uri())
            .method(outgoing.method())
            .timeout(timeoutMillis, TimeUnit.MILLISECONDS);
    request.headers(headers -> {
      for (Map.Entry<String, String> header : outgoing.headers()) {
        headers.add(header.getKey(), header.getValue());
      }
    });
    outgoing.body().ifPresent(bytes -> request.body(new BytesRequestContent((String) null, bytes)));
    InputStreamResponseListener listener = new InputStreamResponseListener();
    aborts.accept(() -> request.abort(new IOException("the call no longer waits for the fetch")));
    request.send(listener);
    Response response;
    try {
      response = listener.get(timeoutMillis, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw failure(e.getCause());
    } catch (TimeoutException e) {
      request.abort(e);
      throw e;
    }
    Map<String, List<String>> grouped = new LinkedHashMap<>();
    for (HttpField field : response.getHeaders()) {
      grouped
          .computeIfAbsent(field.getLowerCaseName(), k -> new ArrayList<>())
          .add(field.getValue());
    }
    List<Map.Entry<String, String>> headers = new ArrayList<>();
    grouped.forEach((name, values) -> headers.add(Map.entry(name, String.join(", ", values))));
    return new Reply(
        response.getStatus(),
        response.getRequest().getURI().toString(),
        headers,
        listener.getInputStream());
  }

  /** How many hosts (scheme, name and port) this client keeps a connection pool for. */
  int hosts() {
    return client.getDestinations().size();
  }

  /** The cause as what {@link #send} throws. */
  private static IOException failure(Throwable cause) throws TimeoutException {
    for (Throwable t = cause; t != null; t = t.getCause()) {
      if (t instanceof FetchRefusedException refused) {
        return refused;
      }
      if (t instanceof TimeoutException timeout) {
        throw timeout;
      }
    }
    return cause instanceof IOException io
        ? io
        : new IOException(cause == null ? "unknown error" : cause.getMessage(), cause);
  }

  @Override
  public void close() {
    try {
      client.stop();
    } catch (Exception e) {
      // stopping frees what it can; nothing else to do
    }
  }

  /** Redirects as the JDK's client follows them: never from an https URL to an http one. */
  private static final class NoDowngrade extends RedirectProtocolHandler {
    NoDowngrade(HttpClient client) {
      super(client);
    }

    @Override
    public boolean accept(Request request, Response response) {
      if (!super.accept(request, response)) {
        return false;
      }
      if (!"https".equals(request.getScheme())) {
        return true;
      }
      String location = response.getHeaders().get("Location");
      if (location == null) {
        return true;
      }
      try {
        URI target = request.getURI().resolve(location.strip());
        return target.getScheme() == null
            || !target.getScheme().toLowerCase(Locale.ROOT).equals("http");
      } catch (IllegalArgumentException e) {
        return true; // the redirector reports the bad location
      }
    }
  }

  /** Permanent redirects are not remembered from one fetch to the next (the JDK's did not). */
  private static final RedirectCache NO_REDIRECT_CACHE =
      new RedirectCache() {
        @Override
        public MethodOriginTarget get(MethodOriginTarget key) {
          return null;
        }

        @Override
        public void put(MethodOriginTarget key, int status, MethodOriginTarget target) {}

        @Override
        public int size() {
          return 0;
        }

        @Override
        public void clear() {}
      };
}
