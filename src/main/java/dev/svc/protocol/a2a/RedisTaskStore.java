package dev.svc.protocol.a2a;

import dev.svc.auth.Principal;
import dev.svc.connector.ResolvedAdapter;
import dev.svc.connector.StateConnections;
import dev.svc.log.Log;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Supplier;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.params.SetParams;
import redis.clients.jedis.params.ZAddParams;

/**
 * Tasks in Redis, shared by every instance that names the same adapter in {@code
 * agents.tasks.store}. Keys start with {@value #PREFIX}; {@code svc:a2a:schema_version} holds the
 * layout's version, set on first use. Live events travel by pub/sub on the channel {@code
 * svc:a2a:notify} ({@code e <id>}: the task has new events; {@code c <id>}: cancel it); the events
 * themselves are in a list per task, so a subscriber that reconnects reads what it missed.
 *
 * <p>A task is a hash ({@code task:<id>}); its scope's tasks a sorted set by status time (listing
 * order: newest status first, then id descending, as Redis orders equal scores); a conversation a
 * list of ids; leases and finished tasks sorted sets by time (keys: {@link RedisTaskKeys}). Changes
 * that must not race (saving over an ended task, ending a task) run as Lua scripts. Lease times
 * come from each instance's clock: keep the instances' clocks in sync (NTP), as any lease needs.
 */
public final class RedisTaskStore implements TaskStore, SharedTasks {
  private static final Log LOG = Log.tagged("a2a:tasks");

  public static final int SCHEMA_VERSION = 1;

  /** What every key starts with. */
  public static final String PREFIX = "svc:a2a:";

  /**
   * The most one reply of the store's Redis may take: an eighth of the heap (64 MiB at {@code
   * -Xmx512m}), at least 16 MiB. A page of tasks stops at {@link TaskStore#MAX_READ_BYTES} and a
   * task's events are read 1,000 at a time; a longer reply (a Redis that announces 2^31 bytes, or
   * answers with a hash of millions of fields) fails the request as an outage of the store would.
   */
  static final long MAX_REPLY_BYTES =
      Math.max(16L * 1024 * 1024, Runtime.getRuntime().maxMemory() / 8);

  /**
   * The most one message of the store's subscription may take: a message names one task (an id of
   * at most 512 characters); a longer one drops the subscription, which connects again.
   */
  static final long MAX_MESSAGE_BYTES = 64 * 1024;

  private final RedisTaskKeys keys;

  private final Settings settings;
  private final String description;
  private final UnifiedJedis redis;
  private final String instance = UUID.randomUUID().toString();
  private final Set<String> owned = ConcurrentHashMap.newKeySet();
  private final TaskSignals signals = new TaskSignals();
  private final RedisPushConfigs pushConfigs;
  private final RedisMessageClaims claims;
  private final RedisTaskEvents events;
  private final RedisTaskPages pages;
  private volatile boolean closed;
  private volatile JedisPubSub subscription;
  private final Thread listener;
  private final Thread housekeeper;

  /**
   * Connects, sets or checks the layout's version, and starts listening.
   *
   * @throws TaskStoreException when Redis cannot be reached or holds a newer layout
   */
  public RedisTaskStore(ResolvedAdapter adapter, Settings settings) {
    this(adapter, settings, PREFIX);
  }

  /**
   * @param prefix what every key starts with (tests give each their own)
   */
  RedisTaskStore(ResolvedAdapter adapter, Settings settings, String prefix) {
    this.keys = new RedisTaskKeys(prefix);
    this.settings = settings;
    this.description =
        "the task store (redis adapter `"
            + adapter.name()
            + "` at "
            + StateConnections.redisLocation(adapter)
            + ")";
    this.redis = StateConnections.redis(adapter, Duration.ofSeconds(5), MAX_REPLY_BYTES);
    this.pushConfigs = new RedisPushConfigs(redis, keys, this::call);
    this.claims = new RedisMessageClaims(redis, prefix, this::call, settings.retention());
    this.events = new RedisTaskEvents(redis, keys, this::call);
    this.pages = new RedisTaskPages(redis, keys, this::call);
    try {
      checkVersion();
    } catch (RuntimeException e) {
      redis.close();
      throw e;
    }
    this.listener = TaskStoreListener.start(description, () -> closed, this::listen);
    this.housekeeper =
        TaskHousekeeping.start(
            settings,
            description,
            () -> closed,
            new TaskHousekeeping.Chores(this::renew, this::failExpired, this::deleteFinished));
  }

  private void checkVersion() {
    String version =
        call(
            "check its schema version",
            () -> {
              redis.set(keys.version(), String.valueOf(SCHEMA_VERSION), SetParams.setParams().nx());
              return redis.get(keys.version());
            });
    if (version == null || !version.matches("[0-9]{1,6}")) {
      throw new TaskStoreException(
          description + " holds `" + keys.version() + "` = " + version + ", not a version number");
    }
    if (Integer.parseInt(version) > SCHEMA_VERSION) {
      throw new TaskStoreException(
          description
              + " holds tasks of schema version "
              + version
              + ", written by a newer svc; this one reads version "
              + SCHEMA_VERSION
              + ": upgrade every instance, or name another database");
    }
  }

  @Override
  public Optional<SharedTasks> shared() {
    return Optional.of(this);
  }

  @Override
  public String instance() {
    return instance;
  }

  // ---- tasks

  @Override
  public void save(Scope scope, Task task) {
    store(scope, task, 0, false);
  }

  @Override
  public boolean saveRun(Scope scope, Task task, long seq) {
    return store(scope, task, seq, true);
  }

  private boolean store(Scope scope, Task task, long seq, boolean run) {
    boolean terminal = task.status().state().isTerminal();
    // a final state that cannot be saved keeps its lease renewed (the task stays owned here)
    // while the run saves it again, so that no instance takes it for one whose instance died
    long now = System.currentTimeMillis();
    String scopeKey = keys.scope(scope);
    Object saved =
        call(
            "save task " + task.id(),
            () ->
                redis.eval(
                    RedisTaskScripts.SAVE,
                    List.of(
                        keys.task(task.id()),
                        scopeKey,
                        RedisTaskKeys.context(scopeKey, task.contextId()),
                        keys.leases(),
                        keys.finished()),
                    List.of(
                        task.id(),
                        scope.agent(),
                        scope.principal().id(),
                        task.contextId(),
                        task.status().state().name(),
                        terminal ? "1" : "0",
                        String.valueOf(task.status().timestamp().toEpochMilli()),
                        String.valueOf(seq),
                        StoredTasks.json(task.toJson()),
                        run ? instance : "",
                        run && !terminal ? String.valueOf(now + settings.lease().toMillis()) : "0",
                        String.valueOf(now))));
    boolean ok = Long.valueOf(1).equals(saved);
    if (run) {
      if (ok && !terminal) {
        owned.add(task.id());
      } else {
        owned.remove(task.id());
      }
    }
    return ok;
  }

  @Override
  public Optional<Task> find(Scope scope, String taskId) {
    return snapshot(scope, taskId).map(Snapshot::task);
  }

  @Override
  public Optional<Snapshot> snapshot(Scope scope, String taskId) {
    Object reply =
        call(
            "read task " + taskId,
            () ->
                redis.eval(
                    RedisTaskScripts.SNAPSHOT,
                    List.of(keys.task(taskId), keys.leases()),
                    List.of(scope.agent(), scope.principal().id(), taskId)));
    if (!(reply instanceof List<?> fields) || fields.size() < 3) {
      return Optional.empty();
    }
    long leaseUntil = (long) Double.parseDouble(String.valueOf(fields.get(2)));
    return Optional.of(
        new Snapshot(
            StoredTasks.task(String.valueOf(fields.get(0))),
            Long.parseLong(String.valueOf(fields.get(1))),
            leaseUntil > System.currentTimeMillis()));
  }

  @Override
  public List<Task> context(Scope scope, String contextId) {
    return pages.context(scope, contextId);
  }

  @Override
  public Page list(Scope scope, Query query) {
    return pages.list(scope, query);
  }

  // ---- push configs

  @Override
  public Optional<String> claimMessage(Scope scope, String messageId, String taskId) {
    return claims.claim(scope, messageId, taskId);
  }

  @Override
  public void releaseMessage(Scope scope, String messageId, String taskId) {
    claims.release(scope, messageId, taskId);
  }

  @Override
  public void savePushConfig(Scope scope, PushConfig config) {
    pushConfigs.save(scope, config);
  }

  @Override
  public List<PushConfig> pushConfigs(Scope scope, String taskId) {
    return pushConfigs.of(scope, taskId);
  }

  @Override
  public boolean deletePushConfig(Scope scope, String taskId, String configId) {
    return pushConfigs.delete(scope, taskId, configId);
  }

  // ---- events

  @Override
  public void append(String taskId, long seq, StreamResponse event) {
    events.append(taskId, event);
  }

  @Override
  public List<Event> events(String taskId, long after) {
    return events.after(taskId, after);
  }

  @Override
  public Listening listen(String taskId, Runnable changed) {
    return signals.listen(taskId, changed);
  }

  @Override
  public void requestCancel(String taskId) {
    call("send a cancel request", () -> redis.publish(keys.channel(), TaskSignals.cancel(taskId)));
  }

  @Override
  public void onCancelRequest(Consumer<String> handler) {
    signals.onCancelRequest(handler);
  }

  /** One subscription on a connection of its own; each subscription wakes every listener. */
  private void listen(Runnable connected) {
    JedisPubSub pubsub =
        new JedisPubSub() {
          @Override
          public void onSubscribe(String channel, int count) {
            if (closed) {
              // closed while this subscribed: close() found nothing subscribed to end, and the
              // pool it closed does not close a borrowed connection, so this would listen forever
              unsubscribe();
              return;
            }
            connected.run();
            signals.wakeAll(); // anything sent while no connection listened is read again
          }

          @Override
          public void onMessage(String channel, String message) {
            signals.dispatch(message);
          }
        };
    subscription = pubsub;
    ScopedValue.where(StateConnections.REDIS_REPLY_CEILING, MAX_MESSAGE_BYTES)
        .run(() -> redis.subscribe(pubsub, keys.channel()));
  }

  // ---- leases and retention

  @Override
  public Optional<Task> end(Scope scope, String taskId, TaskStatus status, boolean onlyUnleased) {
    Optional<Snapshot> current = snapshot(scope, taskId);
    if (current.isEmpty() || current.get().task().status().state().isTerminal()) {
      return Optional.empty();
    }
    Task ended = StoredTasks.ended(current.get().task(), status);
    String event =
        "1"
            + StoredTasks.json(
                new StreamResponse.StatusUpdate(taskId, ended.contextId(), status).toJson());
    Object reply =
        call(
            "end task " + taskId,
            () ->
                redis.eval(
                    RedisTaskScripts.END,
                    List.of(
                        keys.task(taskId),
                        keys.leases(),
                        keys.finished(),
                        keys.events(taskId),
                        keys.scope(scope)),
                    List.of(
                        scope.agent(),
                        scope.principal().id(),
                        status.state().name(),
                        String.valueOf(status.timestamp().toEpochMilli()),
                        StoredTasks.json(ended.toJson()),
                        event,
                        String.valueOf(System.currentTimeMillis()),
                        onlyUnleased ? "1" : "0",
                        taskId,
                        keys.channel())));
    owned.remove(taskId);
    return reply instanceof Long seq && seq > 0 ? Optional.of(ended) : Optional.empty();
  }

  @Override
  public int failExpired() {
    List<String> expired =
        call("find expired leases", () -> upTo(keys.leases(), System.currentTimeMillis(), 100));
    int failed = 0;
    for (String id : expired) {
      List<String> owner =
          call(
              "read task " + id, () -> redis.hmget(keys.task(id), "agent", "principal", "context"));
      if (owner.get(0) == null) {
        call("drop a lease", () -> redis.zrem(keys.leases(), id));
        continue;
      }
      Scope scope = new Scope(owner.get(0), new Principal(owner.get(1)));
      TaskStatus status =
          new TaskStatus(
              TaskState.FAILED,
              Optional.of(Message.agent(SharedTasks.expiredMessage(), owner.get(2), id)),
              Instant.now().truncatedTo(ChronoUnit.MILLIS));
      if (end(scope, id, status, true).isPresent()) {
        failed++;
        LOG.warn("task failed: its instance stopped renewing its lease", "task", id);
      }
    }
    return failed;
  }

  @Override
  public int deleteFinished() {
    long before = System.currentTimeMillis() - settings.retention().toMillis();
    List<String> expired = call("find finished tasks", () -> upTo(keys.finished(), before, 500));
    for (String id : expired) {
      call(
          "delete task " + id,
          () -> {
            List<String> t = redis.hmget(keys.task(id), "agent", "principal", "context");
            if (t.get(0) != null) {
              String scopeKey = keys.scope(t.get(0), t.get(1));
              redis.zrem(scopeKey, id);
              redis.lrem(RedisTaskKeys.context(scopeKey, t.get(2)), 0, id);
            }
            redis.del(keys.task(id), keys.events(id), keys.push(id), keys.pushOrder(id));
            return redis.zrem(keys.finished(), id);
          });
    }
    return expired.size();
  }

  /** The members of a sorted set by time with a score up to {@code millis}, at most {@code n}. */
  private List<String> upTo(String key, long millis, int n) {
    Object reply =
        redis.eval(
            "return redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[2])",
            List.of(key),
            List.of(String.valueOf(millis), String.valueOf(n)));
    return ((List<?>) reply).stream().map(String::valueOf).toList();
  }

  private void renew() {
    if (owned.isEmpty()) {
      return;
    }
    double until = System.currentTimeMillis() + settings.lease().toMillis();
    for (String id : owned) {
      // XX: a lease another instance ended (by failing or canceling the task) stays ended
      call(
          "renew leases", () -> redis.zadd(keys.leases(), until, id, ZAddParams.zAddParams().xx()));
    }
  }

  private <T> T call(String what, Supplier<T> work) {
    if (closed) {
      throw new TaskStoreException(description + " is closed");
    }
    try {
      return work.get();
    } catch (JedisException e) {
      throw new TaskStoreException(
          description + " could not " + what + ": " + StoredTasks.firstLine(e), e);
    }
  }

  @Override
  public void close() {
    closed = true;
    JedisPubSub pubsub = subscription;
    if (pubsub != null) {
      try {
        pubsub.unsubscribe();
      } catch (RuntimeException e) {
        // not subscribed (yet or any more)
      }
    }
    listener.interrupt();
    housekeeper.interrupt();
    redis.close();
  }

  @Override
  public String toString() {
    return description;
  }
}
