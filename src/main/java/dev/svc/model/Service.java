package dev.svc.model;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Service-wide settings from the root configuration.
 *
 * @param port {@code server.port}, when set
 * @param logLevel {@code server.log_level}, when set
 * @param defaultCache {@code tools.cache}: what tools without their own settings use
 * @param searchLimit {@code tools.search.limit}
 * @param agentToolAccess {@code agents.tool_access}: what agents with mode {@code inherit} get
 * @param buildOut {@code build.out} / {@code build.out_dir}, relative to the project
 * @param metrics {@code server.metrics}
 * @param audit {@code server.audit}
 * @param limits {@code server.limits}
 * @param pushNotifications {@code agents.push_notifications}
 * @param defaultCaps {@code tools.max_rows} and {@code tools.max_bytes}: what tools without their
 *     own caps use
 * @param auth {@code server.auth}: whole-endpoint authentication, when configured
 * @param tasks {@code agents.tasks}: where A2A tasks live
 * @param rateLimitStore {@code tools.rate_limit.store}: the redis adapter whose database holds the
 *     rate-limit counters every instance shares; empty counts in this process's memory
 * @param cacheStore {@code tools.cache.store}: the redis adapter whose database holds the result
 *     cache every instance shares; empty caches in this process's memory
 * @param scriptFetch {@code scripts.fetch}: which addresses beyond public ones scripts' {@code
 *     fetch} may reach
 */
public record Service(
    String name,
    Optional<String> version,
    Optional<Integer> port,
    Optional<Integer> logLevel,
    List<String> allowedHosts,
    List<String> allowedOrigins,
    CachePolicy defaultCache,
    int searchLimit,
    ToolAccess agentToolAccess,
    Optional<String> buildOut,
    boolean buildCleanDir,
    Metrics metrics,
    Audit audit,
    Limits limits,
    PushNotifications pushNotifications,
    ResultCaps defaultCaps,
    Optional<ServerAuth> auth,
    Tasks tasks,
    Optional<String> rateLimitStore,
    Optional<String> cacheStore,
    ScriptFetch scriptFetch) {
  public static final int DEFAULT_SEARCH_LIMIT = 10;

  public Service {
    allowedHosts = List.copyOf(allowedHosts);
    allowedOrigins = List.copyOf(allowedOrigins);
  }

  /**
   * This service with the fields later model formats added after the others (format 12: {@code
   * server.limits.drain_delay} within {@code limits}, {@code tools.rate_limit.store}, {@code
   * tools.cache.store}; format 13: the run limits within {@code tasks}): a model file holds them
   * after the rest of the service.
   */
  public Service withLaterFields(
      Limits limits, Optional<String> rateLimitStore, Optional<String> cacheStore, Tasks tasks) {
    return new Service(
        name,
        version,
        port,
        logLevel,
        allowedHosts,
        allowedOrigins,
        defaultCache,
        searchLimit,
        agentToolAccess,
        buildOut,
        buildCleanDir,
        metrics,
        audit,
        limits,
        pushNotifications,
        defaultCaps,
        auth,
        tasks,
        rateLimitStore,
        cacheStore,
        scriptFetch);
  }

  /** This service with other {@code scripts.fetch} settings (format 14 holds them last). */
  public Service withScriptFetch(ScriptFetch settings) {
    return new Service(
        name,
        version,
        port,
        logLevel,
        allowedHosts,
        allowedOrigins,
        defaultCache,
        searchLimit,
        agentToolAccess,
        buildOut,
        buildCleanDir,
        metrics,
        audit,
        limits,
        pushNotifications,
        defaultCaps,
        auth,
        tasks,
        rateLimitStore,
        cacheStore,
        settings);
  }

  /**
   * Settings with the defaults of {@code server.metrics}, {@code server.audit}, {@code
   * server.limits}, push notifications, scripts' fetch and result caps, no {@code server.auth},
   * tasks, rate limits and the result cache in memory.
   */
  public Service(
      String name,
      Optional<String> version,
      Optional<Integer> port,
      Optional<Integer> logLevel,
      List<String> allowedHosts,
      List<String> allowedOrigins,
      CachePolicy defaultCache,
      int searchLimit,
      ToolAccess agentToolAccess,
      Optional<String> buildOut,
      boolean buildCleanDir) {
    this(
        name,
        version,
        port,
        logLevel,
        allowedHosts,
        allowedOrigins,
        defaultCache,
        searchLimit,
        agentToolAccess,
        buildOut,
        buildCleanDir,
        Metrics.DEFAULT,
        Audit.OFF,
        Limits.DEFAULTS,
        PushNotifications.DEFAULT,
        ResultCaps.DEFAULTS,
        Optional.empty(),
        Tasks.IN_MEMORY,
        Optional.empty(),
        Optional.empty(),
        ScriptFetch.DEFAULT);
  }

  /**
   * {@code server.metrics}: whether {@code GET /metrics} is served, and on which port.
   *
   * @param port a port of its own; empty serves it on the main port
   */
  public record Metrics(boolean enabled, Optional<Integer> port) {
    public static final Metrics DEFAULT = new Metrics(true, Optional.empty());
  }

  /**
   * {@code server.audit}: whether tool calls and agent tasks are written to an audit file.
   *
   * @param path the file, relative to the project (artifact) directory; empty for {@link
   *     #DEFAULT_PATH}
   */
  public record Audit(boolean enabled, Optional<String> path) {
    public static final Audit OFF = new Audit(false, Optional.empty());
    public static final String DEFAULT_PATH = "audit.jsonl";
  }

  /**
   * {@code server.limits}: what protects the server from slow and greedy clients, and how long it
   * drains on shutdown.
   *
   * @param maxBodyBytes the largest request body
   * @param headerTimeout the most time from a request's first byte to the end of its headers
   * @param bodyTimeout the most time from the end of the headers to the end of the body
   * @param connectionsPerClient open connections one client address may hold; 0 for no cap
   * @param drainTimeout on shutdown, how long requests in flight may still run
   * @param drainDelay on shutdown, how long the server goes on accepting and serving after {@code
   *     /ready} turned 503, so that load balancers stop sending it requests first
   */
  public record Limits(
      int maxBodyBytes,
      Duration headerTimeout,
      Duration bodyTimeout,
      int connectionsPerClient,
      Duration drainTimeout,
      Duration drainDelay) {
    public static final Limits DEFAULTS =
        new Limits(
            4 * 1024 * 1024,
            Duration.ofSeconds(10),
            Duration.ofSeconds(60),
            256,
            Duration.ofSeconds(10),
            Duration.ZERO);

    /** Limits without a drain delay (as every model before format 12). */
    public Limits(
        int maxBodyBytes,
        Duration headerTimeout,
        Duration bodyTimeout,
        int connectionsPerClient,
        Duration drainTimeout) {
      this(
          maxBodyBytes,
          headerTimeout,
          bodyTimeout,
          connectionsPerClient,
          drainTimeout,
          Duration.ZERO);
    }

    /** These limits with {@code drainDelay}. */
    public Limits withDrainDelay(Duration delay) {
      return new Limits(
          maxBodyBytes, headerTimeout, bodyTimeout, connectionsPerClient, drainTimeout, delay);
    }
  }

  /**
   * {@code agents.push_notifications}: which addresses beyond public ones A2A push notifications
   * may be sent to.
   *
   * @param allowPrivateNetworks loopback, private (RFC 1918, ULA), CGNAT and link-local addresses
   *     (never cloud metadata addresses, which only {@code allowedNetworks} can allow)
   * @param allowedNetworks networks allowed besides public addresses, whatever kind they are
   */
  public record PushNotifications(boolean allowPrivateNetworks, List<IpNetwork> allowedNetworks) {
    public static final PushNotifications DEFAULT = new PushNotifications(false, List.of());

    public PushNotifications {
      allowedNetworks = List.copyOf(allowedNetworks);
    }
  }

  /**
   * {@code scripts.fetch}: which addresses beyond public ones a script's {@code fetch} may reach
   * (docs/scripts.md, "Where fetch may go"). The same kinds of addresses as {@link
   * PushNotifications}.
   *
   * @param allowPrivateNetworks loopback, private (RFC 1918, ULA), CGNAT and link-local addresses
   *     (never cloud metadata addresses, which only {@code allowedNetworks} can allow)
   * @param allowedNetworks networks allowed besides public addresses, whatever kind they are
   */
  public record ScriptFetch(boolean allowPrivateNetworks, List<IpNetwork> allowedNetworks) {
    public static final ScriptFetch DEFAULT = new ScriptFetch(false, List.of());

    public ScriptFetch {
      allowedNetworks = List.copyOf(allowedNetworks);
    }
  }

  /**
   * {@code agents.tasks}: where A2A tasks, their events and push configs live.
   *
   * @param store the adapter (postgres or redis) whose database several instances share; empty
   *     keeps tasks in this process's memory
   * @param lease how long a task stays owned by the instance running it without a renewal ({@code
   *     lease_seconds}); once it passes, any instance marks the task failed
   * @param retention how long finished tasks are kept ({@code retention_hours})
   * @param maxRunning how many tasks one instance runs at once ({@code max_running}): each holds a
   *     model call and its connection
   * @param maxWaiting how many more tasks may wait, submitted, for one of those turns ({@code
   *     max_waiting}); a task past both is refused
   */
  public record Tasks(
      Optional<String> store, Duration lease, Duration retention, int maxRunning, int maxWaiting) {
    public static final Duration DEFAULT_LEASE = Duration.ofSeconds(30);
    public static final Duration DEFAULT_RETENTION = Duration.ofHours(24);
    public static final int DEFAULT_MAX_RUNNING = 256;
    public static final int DEFAULT_MAX_WAITING = 1024;
    public static final Tasks IN_MEMORY =
        new Tasks(
            Optional.empty(),
            DEFAULT_LEASE,
            DEFAULT_RETENTION,
            DEFAULT_MAX_RUNNING,
            DEFAULT_MAX_WAITING);

    public Tasks(Optional<String> store, Duration lease, Duration retention) {
      this(store, lease, retention, DEFAULT_MAX_RUNNING, DEFAULT_MAX_WAITING);
    }

    /** These settings with other bounds on the tasks run and waiting at once. */
    public Tasks withRunLimits(int maxRunning, int maxWaiting) {
      return new Tasks(store, lease, retention, maxRunning, maxWaiting);
    }
  }
}
