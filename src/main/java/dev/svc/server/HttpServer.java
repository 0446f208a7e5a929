package dev.svc.server;

import dev.svc.log.Log;
import dev.svc.log.StartupTrace;
import dev.svc.protocol.EndpointAuth;
import dev.svc.protocol.console.DevConsole;
import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.VirtualThreadPool;

/**
 * The embedded HTTP server (Jetty 12 core API on virtual threads): the only class that starts or
 * stops Jetty. {@code /heartbeat} answers 200 only once {@link #markReady()} was called, and until
 * the server stops accepting; {@code /ready} answers 200 only between {@link #markReady()} and
 * {@link #withdraw()}, and while the {@link ReadinessProbe} finds every adapter reachable.
 */
public final class HttpServer implements AutoCloseable {
  private static final Log LOG = Log.tagged("http");

  private final Server server;
  private final ServerConnector connector;
  private final ServerSettings settings;
  private final AtomicBoolean ready = new AtomicBoolean();
  private final Drain drain = new Drain();
  private volatile ReadinessProbe readiness = ReadinessProbe.NONE;
  private Optional<ServerConnector> metricsConnector = Optional.empty();
  private Optional<HeaderDeadline> headerDeadline = Optional.empty();

  private HttpServer(Server server, ServerConnector connector, ServerSettings settings) {
    this.server = server;
    this.connector = connector;
    this.settings = settings;
  }

  /** Binds and starts serving; {@code /heartbeat} stays 503 until {@link #markReady()}. */
  public static HttpServer start(ServerSettings settings, Route mcp, Route agents) {
    HttpServer http = prepare(settings, mcp, agents);
    http.open();
    return http;
  }

  /**
   * Starts initialising, on a background thread, the HTTP classes whose static set-up is costly
   * (Jetty's version lookup, MIME and header tables, the service scan for header encoders), so that
   * it overlaps with reading the model and opening adapters. Call it as early as possible when a
   * server will start; {@link #prepare} needs no call to it.
   */
  public static void preloadInBackground() {
    Thread.ofPlatform()
        .daemon()
        .name("svc-http-preload")
        .start(() -> {
          ClassLoader loader = HttpServer.class.getClassLoader();
          for (String name :
              new String[] {
                "org.eclipse.jetty.server.Server",
                "org.eclipse.jetty.http.MimeTypes",
                "org.eclipse.jetty.http.PreEncodedHttpField",
                "org.eclipse.jetty.http.HttpGenerator",
                "org.eclipse.jetty.http.HttpParser",
                "org.eclipse.jetty.util.thread.VirtualThreadPool",
                "org.eclipse.jetty.server.ServerConnector",
                "org.eclipse.jetty.server.internal.HttpConnection"
              }) {
            try {
              Class.forName(name, true, loader);
            } catch (ClassNotFoundException | LinkageError e) {
              return; // only a head start: prepare() reports real problems
            }
          }
        });
  }

  /**
   * Starts the server's threads and handlers without listening yet, so that this (a good part of
   * start-up) can run while adapters open; {@link #open()} then binds the port.
   */
  public static HttpServer prepare(ServerSettings settings, Route mcp, Route agents) {
    return prepare(settings, mcp, agents, Optional.empty());
  }

  /**
   * {@link #prepare(ServerSettings, Route, Route)}, with {@code auth} (when present) guarding
   * {@code /mcp} and {@code /agent/*} and serving the protected-resource metadata.
   */
  public static HttpServer prepare(
      ServerSettings settings, Route mcp, Route agents, Optional<EndpointAuth> auth) {
    return prepare(settings, mcp, agents, auth, Optional.empty());
  }

  /**
   * {@link #prepare(ServerSettings, Route, Route, Optional)}, with the dev console (when present)
   * at {@code /ui}; without it {@code /ui} is 404.
   */
  public static HttpServer prepare(
      ServerSettings settings,
      Route mcp,
      Route agents,
      Optional<EndpointAuth> auth,
      Optional<DevConsole> console) {
    StartupTrace.mark("http prepare begins");
    VirtualThreadPool threads = new VirtualThreadPool();
    threads.setName("svc-http");
    // our own executor: Jetty's default finds Thread.ofVirtual() by reflection (~12 ms at start).
    // One name for all, not a numbered name each: a request's thread would make a name string
    // (two objects) that a thread dump does not need (it shows each virtual thread's id).
    ThreadFactory virtualThreads = Thread.ofVirtual().name("svc-http").factory();
    threads.setVirtualThreadsExecutor(task -> virtualThreads.newThread(task).start());
    // No cap on the requests handled at once: Jetty's default (200) makes the 201st wait for a
    // permit, so 200 requests whose bodies trickle in (or 200 open SSE streams) stalled every
    // other request, /heartbeat included. What bounds them instead: the connections (per client
    // and in all), the body and result memory, and the per-tool and per-task limits.
    threads.setMaxConcurrentTasks(0);
    Server server = new Server(threads);
    HttpConfiguration config = new HttpConfiguration();
    config.setSendServerVersion(false);
    config.setSendXPoweredBy(false);
    // No per-connection header cache: Jetty's default is a 1024-entry trie per connection (~100
    // KB) that outlives young collections and is promoted as garbage when clients reconnect
    // often; without it the parser allocates a few small header fields per request instead, at
    // the same throughput (bench/RESULTS.md, "Memory").
    config.setHeaderCacheSize(0);
    // no acceptor thread: the selector accepts, so closing the listening socket on drain takes
    // effect at once (a channel closed while a thread is blocked in accept() closes only once that
    // thread wakes, and the kernel meanwhile queues connections it then resets)
    ServerConnector connector =
        new ServerConnector(server, 0, 1, new HttpConnectionFactory(config));
    connector.setHost(settings.address());
    connector.setPort(settings.port());
    connector.setAcceptQueueSize(1024);
    if (settings.limits().connectionsPerClient() > 0) {
      connector.addBean(new ConnectionsPerClient(settings.limits().connectionsPerClient()));
    }
    settings
        .limits()
        .maxConnections()
        .ifPresent(cap -> server.addBean(new ConnectionCeiling(cap, connector)));
    server.setErrorHandler(new JsonErrorHandler());
    StartupTrace.mark("http connector made");
    HttpServer http = new HttpServer(server, connector, settings);
    if (settings.metrics().enabled() && settings.metrics().port().isPresent()) {
      ServerConnector metrics = new ServerConnector(server, 1, 1);
      metrics.setName(HttpTelemetry.METRICS_CONNECTOR);
      metrics.setHost(settings.address());
      metrics.setPort(settings.metrics().port().get());
      http.metricsConnector = Optional.of(metrics);
    }
    OriginPolicy policy =
        new OriginPolicy(
            isLoopback(settings.address()), settings.allowedHosts(), settings.allowedOrigins());
    // no Jetty GracefulHandler: it answers requests that arrive while draining with its own 503;
    // Drain serves them (closing their connections) and refuses only after the drain limit
    server.setHandler(
        new RequestHandler(
            settings,
            policy,
            mcp,
            agents,
            http.ready::get,
            () -> http.readiness,
            http.drain,
            auth,
            console));
    StartupTrace.mark("http handlers made");
    server.setStopTimeout(Duration.ofSeconds(10).toMillis());
    try {
      server.start();
      StartupTrace.mark("http server started");
    } catch (Exception e) {
      http.stopQuietly();
      throw new ServerStartException("cannot start the HTTP server: " + rootMessage(e), e);
    }
    return http;
  }

  /**
   * Fails at once when the port is taken by another process, before svc opens any adapter: the port
   * is bound only once every adapter is connected, which can take seconds. A port taken after this
   * check still fails in {@link #open}, with the same message.
   */
  public static void checkPortFree(String address, int port) {
    Optional<String> unusable = unusableAddress(address, port);
    if (unusable.isPresent()) {
      throw new ServerStartException(unusable.get(), null);
    }
    if (port == 0) {
      return;
    }
    try (ServerSocket probe = new ServerSocket()) {
      probe.setReuseAddress(true); // as Jetty binds: a port in TIME_WAIT is free
      probe.bind(new InetSocketAddress(address, port));
    } catch (BindException e) {
      throw new ServerStartException(portTaken(address, port), e);
    } catch (IOException | RuntimeException e) {
      // another problem (an address that is not this machine's, …): open() reports it
    }
  }

  /**
   * Why {@code address} cannot be listened on, whatever the port, or empty when it may be tried: a
   * name that does not resolve ({@code --address 999.1.1.1}), or an address of another machine
   * ({@code --address 8.8.8.8}). The first was said once every adapter had opened, as {@code cannot
   * listen on 999.1.1.1:8080: null}; the second fails to bind with a {@link BindException} as a
   * port in use does, and was said as "port 8080 on 8.8.8.8 is already in use".
   */
  static Optional<String> unusableAddress(String address, int port) {
    InetSocketAddress socket = new InetSocketAddress(address, port);
    String problem;
    if (socket.isUnresolved()) {
      problem = "the name does not resolve";
    } else {
      InetAddress ip = socket.getAddress();
      try {
        if (ip.isAnyLocalAddress()
            || ip.isLoopbackAddress()
            || NetworkInterface.getByInetAddress(ip) != null) {
          return Optional.empty();
        }
      } catch (SocketException e) {
        return Optional.empty(); // the bind says what is wrong, if anything is
      }
      problem = "no network interface of this machine has it";
    }
    return Optional.of(
        "cannot listen on "
            + address
            + ":"
            + port
            + ": `"
            + address
            + "` is not an address of this machine ("
            + problem
            + "); use one of its addresses with --address, 127.0.0.1 (the default) or 0.0.0.0"
            + " for every interface");
  }

  private static String portTaken(String address, int port) {
    return "port "
        + port
        + " on "
        + address
        + " is already in use (another svc, or another program, listens there): stop it, or"
        + " choose another port with -p, e.g. -p "
        + (port == 65535 ? port - 1 : port + 1);
  }

  /** Binds the port: from now on clients connect. */
  public void open() {
    try {
      server.addConnector(connector);
      connector.start();
      for (ServerConnector metrics : metricsConnector.stream().toList()) {
        server.addConnector(metrics);
        metrics.start();
      }
      headerDeadline =
          Optional.of(new HeaderDeadline(connectors(), settings.limits().headerTimeout()));
    } catch (Exception e) {
      stopQuietly();
      Optional<String> unusable = unusableAddress(settings.address(), settings.port());
      if (unusable.isPresent()) {
        throw new ServerStartException(unusable.get(), e);
      }
      if (rootCause(e) instanceof BindException && settings.port() != 0) {
        throw new ServerStartException(portTaken(settings.address(), settings.port()), e);
      }
      throw new ServerStartException(
          "cannot listen on " + settings.address() + ":" + settings.port() + ": " + rootMessage(e),
          e);
    }
  }

  private void stopQuietly() {
    try {
      server.stop();
    } catch (Exception ignored) {
      // already failing
    }
  }

  public void markReady() {
    ready.set(true);
  }

  /** What {@code /ready} checks besides this server's own state (the adapters). */
  public void readinessProbe(ReadinessProbe probe) {
    this.readiness = probe;
  }

  /**
   * The first step of a graceful stop: {@code /ready} answers 503 from now on, so that load
   * balancers stop sending requests here, while everything else goes on as before: new connections
   * are accepted, requests served, {@code /heartbeat} answers 200. Each answer closes its
   * connection, so that clients holding persistent connections (or an L4 balancer's) reconnect, and
   * their next request can go to another instance.
   */
  public void withdraw() {
    drain.withdraw();
  }

  public int port() {
    return connector.getLocalPort();
  }

  /** The port of {@code /metrics} when it has its own. */
  public Optional<Integer> metricsPort() {
    return metricsConnector.map(ServerConnector::getLocalPort);
  }

  /**
   * Begins the drain: {@code /heartbeat} answers 503, the listening sockets close (new connections
   * are refused, so clients and load balancers go to another instance), and every answer from now
   * on closes its connection. Requests on connections already open are still served.
   */
  public void startDraining() {
    ready.set(false);
    drain.startDraining();
    for (ServerConnector open : connectors()) {
      open.shutdown(); // Jetty: answers are no longer persistent, idle connections close soon
      open.close(); // the listening socket
      if (open.getTransport() instanceof java.nio.channels.ServerSocketChannel listening) {
        try {
          listening.close(); // without an acceptor thread, close() above leaves it to stop()
        } catch (java.io.IOException e) {
          LOG.debug("closing the listening socket failed", "error", String.valueOf(e));
        }
      }
    }
  }

  /**
   * Waits, at most {@code limit}, until no request is in flight and, once draining, until every
   * connection has closed: each closes after its next answer, or after a second without a request.
   * Waiting for the connections too (not only for the requests) keeps a request that a client sent
   * just after the previous answer, and that is not read yet, from being cut off when the server
   * stops.
   *
   * @return true when no request is left in flight
   */
  public boolean awaitIdle(Duration limit) {
    long end = System.nanoTime() + limit.toNanos();
    while ((drain.inFlight() > 0 || (isDraining() && hasOpenConnections()))
        && System.nanoTime() - end < 0) {
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    return drain.inFlight() == 0;
  }

  /** Past the drain limit: requests still arriving on open connections are refused. */
  boolean isRefusing() {
    return drain.phase() == Drain.Phase.REFUSING;
  }

  private boolean isDraining() {
    return drain.phase().compareTo(Drain.Phase.DRAINING) >= 0;
  }

  private boolean hasOpenConnections() {
    for (ServerConnector open : connectors()) {
      if (!open.getConnectedEndPoints().isEmpty()) {
        return true;
      }
    }
    return false;
  }

  /** Requests being served now. */
  public int inFlight() {
    return drain.inFlight();
  }

  /**
   * Stops: requests still arriving on open connections get 503 with {@code Retry-After} and a
   * JSON-RPC error, requests still in flight get {@code grace} to write their answers, then every
   * connection closes.
   */
  public void stop(Duration grace) {
    startDraining();
    drain.refuseNew();
    awaitIdle(grace);
    headerDeadline.ifPresent(HeaderDeadline::close);
    server.setStopTimeout(0);
    try {
      server.stop();
    } catch (Exception e) {
      LOG.warn("the HTTP server did not stop cleanly", "error", String.valueOf(e.getMessage()));
    }
  }

  private List<ServerConnector> connectors() {
    List<ServerConnector> all = new ArrayList<>();
    all.add(connector);
    metricsConnector.ifPresent(all::add);
    return all;
  }

  @Override
  public void close() {
    stop(Duration.ofSeconds(2));
  }

  static boolean isLoopback(String address) {
    try {
      return InetAddress.getByName(address).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  private static String rootMessage(Throwable e) {
    return String.valueOf(rootCause(e).getMessage());
  }

  private static Throwable rootCause(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    return root;
  }
}
