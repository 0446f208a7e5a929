package dev.svc.protocol.a2a;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Tasks in this process's memory: bounded by count ({@link #DEFAULT_MAX_TASKS}) and by the heap
 * their messages and artifacts take ({@link #defaultMaxBytes()}, estimated by {@link TaskWeight});
 * when either is reached, the finished task updated longest ago is dropped first, running tasks
 * never, and a new task that running tasks leave no room for is refused ({@link
 * TaskStoreFullException}) rather than let clients fill the heap with 4 MiB messages. Finished
 * tasks expire {@link #DEFAULT_RETENTION} after their last update. Push configs go with their task,
 * and count in its weight: ten configs of 16 KiB on each of 10,000 finished tasks were 1.6 GB the
 * budget did not see.
 */
public final class InMemoryTaskStore implements TaskStore {
  public static final int DEFAULT_MAX_TASKS = 10_000;
  public static final Duration DEFAULT_RETENTION = Duration.ofHours(24);

  /** Newest first, then by id, descending (a plain lambda, which the start-up cache holds). */
  private static final Comparator<Task> LISTING =
      (a, b) -> {
        int byTime = b.status().timestamp().compareTo(a.status().timestamp());
        return byTime != 0 ? byTime : b.id().compareTo(a.id());
      };

  private final int maxTasks;
  private final long maxBytes;
  private final Duration retention;
  private final Clock clock;

  /** In the order of their last update: the first finished one is the one to drop. */
  private final Map<String, Entry> tasks = new LinkedHashMap<>();

  /**
   * Received message ids ({@link MessageClaims#key}) → the task each started, and back, by the
   * task's key: a claim goes with its task, so there are at most as many as tasks (plus the starts
   * in progress), some 300 bytes each whatever the length of the id.
   */
  private final Map<String, String> claims = new HashMap<>();

  private final Map<String, String> claimOfTask = new HashMap<>();

  private long sequence;
  private long bytes;

  private static final class Entry {
    final Scope scope;
    final long created;
    Task task;

    /** The task's weight ({@link TaskWeight#of(Task)}). */
    long weight;

    /** The weight of its push configs ({@link TaskWeight#of(PushConfig)}). */
    long configWeight;

    Instant updated;
    final Map<String, PushConfig> pushConfigs = new LinkedHashMap<>();

    Entry(Scope scope, long created, Task task, long weight, Instant updated) {
      this.scope = scope;
      this.created = created;
      this.task = task;
      this.weight = weight;
      this.updated = updated;
    }
  }

  public InMemoryTaskStore() {
    this(DEFAULT_MAX_TASKS, DEFAULT_RETENTION, Clock.systemUTC());
  }

  public InMemoryTaskStore(int maxTasks, Duration retention, Clock clock) {
    this(maxTasks, defaultMaxBytes(), retention, clock);
  }

  public InMemoryTaskStore(int maxTasks, long maxBytes, Duration retention, Clock clock) {
    this.maxTasks = maxTasks;
    this.maxBytes = maxBytes;
    this.retention = retention;
    this.clock = clock;
  }

  /** A quarter of the heap, at least 16 MiB: 128 MiB with the launchers' 512 MiB heap. */
  public static long defaultMaxBytes() {
    return Math.max(16L * 1024 * 1024, Runtime.getRuntime().maxMemory() / 4);
  }

  /** The scope is part of the key: a lookup from another scope finds nothing. */
  private static String key(Scope scope, String taskId) {
    return scope.agent() + "\u0000" + scope.principal().id() + "\u0000" + taskId;
  }

  @Override
  public synchronized void save(Scope scope, Task task) {
    Instant now = clock.instant();
    String key = key(scope, task.id());
    long weight = TaskWeight.of(task);
    Entry entry = tasks.remove(key); // put back at the end: the most lately updated
    if (entry == null) {
      evict(now, 1, weight);
      if (bytes + weight > maxBytes) {
        throw new TaskStoreFullException(
            "the tasks running on this instance hold "
                + bytes / (1024 * 1024)
                + " MiB, its limit for tasks in memory; retry when some have finished, or keep"
                + " tasks in a shared store (agents.tasks.store)");
      }
      entry = new Entry(scope, sequence++, task, weight, now);
    } else {
      bytes -= entry.weight;
      entry.task = task;
      entry.weight = weight;
      entry.updated = now;
    }
    tasks.put(key, entry);
    bytes += weight;
    if (tasks.size() > maxTasks || bytes > maxBytes) {
      evict(now, 0, 0); // a running task that grew: finished ones make room
    }
  }

  /**
   * Drops expired finished tasks, then finished ones oldest first until {@code tasks} more tasks of
   * {@code weight} more bytes fit; running tasks stay (they finish, and become droppable, on their
   * own).
   */
  private void evict(Instant now, int more, long weight) {
    Instant expired = now.minus(retention);
    Iterator<Map.Entry<String, Entry>> oldestFirst = tasks.entrySet().iterator();
    while (oldestFirst.hasNext()) {
      Map.Entry<String, Entry> keyed = oldestFirst.next();
      Entry e = keyed.getValue();
      boolean full = tasks.size() + more > maxTasks || bytes + weight > maxBytes;
      if (!full && !e.updated.isBefore(expired)) {
        return; // in update order: every later entry is newer still
      }
      if (e.task.status().state().isTerminal() && (full || e.updated.isBefore(expired))) {
        oldestFirst.remove();
        bytes -= e.weight + e.configWeight;
        String claim = claimOfTask.remove(keyed.getKey());
        if (claim != null) {
          claims.remove(claim);
        }
      }
    }
  }

  @Override
  public synchronized Optional<Task> find(Scope scope, String taskId) {
    return live(tasks.get(key(scope, taskId))).map(e -> e.task);
  }

  private Optional<Entry> live(Entry entry) {
    if (entry == null) {
      return Optional.empty();
    }
    boolean expired =
        entry.task.status().state().isTerminal()
            && entry.updated.isBefore(clock.instant().minus(retention));
    return expired ? Optional.empty() : Optional.of(entry);
  }

  @Override
  public synchronized List<Task> context(Scope scope, String contextId) {
    return tasks.values().stream()
        .filter(e -> e.scope.equals(scope) && e.task.contextId().equals(contextId))
        .filter(e -> live(e).isPresent())
        .sorted(Comparator.comparingLong(e -> e.created))
        .map(e -> e.task)
        .toList();
  }

  @Override
  public synchronized Page list(Scope scope, Query query) {
    List<Task> matching = new ArrayList<>();
    for (Entry entry : tasks.values()) {
      if (!entry.scope.equals(scope) || live(entry).isEmpty()) {
        continue;
      }
      Task task = entry.task;
      if (query.contextId().isPresent() && !task.contextId().equals(query.contextId().get())) {
        continue;
      }
      if (query.state().isPresent() && task.status().state() != query.state().get()) {
        continue;
      }
      if (query.statusAfter().isPresent()
          && !task.status().timestamp().isAfter(query.statusAfter().get())) {
        continue;
      }
      matching.add(task);
    }
    matching.sort(LISTING);
    int total = matching.size();
    List<Task> rest = matching;
    if (query.after().isPresent()) {
      Cursor cursor = query.after().get();
      rest = new ArrayList<>();
      for (Task task : matching) {
        if (isAfter(task, cursor)) {
          rest.add(task);
        }
      }
    }
    List<Task> page = List.copyOf(rest.subList(0, Math.min(query.pageSize(), rest.size())));
    Optional<Cursor> next =
        rest.size() > page.size()
            ? Optional.of(new Cursor(page.getLast().status().timestamp(), page.getLast().id()))
            : Optional.empty();
    return new Page(page, total, next);
  }

  /** Whether {@code task} comes after the cursor in the listing order (newest first). */
  private static boolean isAfter(Task task, Cursor cursor) {
    int byTime = task.status().timestamp().compareTo(cursor.timestamp());
    return byTime < 0 || (byTime == 0 && task.id().compareTo(cursor.taskId()) < 0);
  }

  /**
   * The first claim wins; a claim whose task is kept, or not saved yet (its start is in progress),
   * holds; one whose task expired is replaced.
   */
  @Override
  public synchronized Optional<String> claimMessage(Scope scope, String messageId, String taskId) {
    String claim = MessageClaims.key(scope, messageId);
    String holder = claims.get(claim);
    if (holder != null) {
      Entry entry = tasks.get(key(scope, holder));
      if (entry == null || live(entry).isPresent()) {
        return Optional.of(holder);
      }
      claimOfTask.remove(key(scope, holder));
    }
    claims.put(claim, taskId);
    claimOfTask.put(key(scope, taskId), claim);
    return Optional.empty();
  }

  @Override
  public synchronized void releaseMessage(Scope scope, String messageId, String taskId) {
    String claim = MessageClaims.key(scope, messageId);
    if (taskId.equals(claims.get(claim))) {
      claims.remove(claim);
      claimOfTask.remove(key(scope, taskId));
    }
  }

  /**
   * Keeps the config with its task, its weight counted in the store's budget: finished tasks make
   * room as they do for a task, oldest first; without room it is refused ({@link
   * TaskStoreFullException}). The task counts as updated, so it is not the first to go.
   */
  @Override
  public synchronized void savePushConfig(Scope scope, PushConfig config) {
    String key = key(scope, config.taskId());
    Entry entry = tasks.get(key);
    if (entry == null) {
      return;
    }
    PushConfig replaced = entry.pushConfigs.get(config.id());
    long more = TaskWeight.of(config) - (replaced == null ? 0 : TaskWeight.of(replaced));
    Instant now = clock.instant();
    // taken out while others make room, so that it is not the one to go; put back at the end
    tasks.remove(key);
    long held = entry.weight + entry.configWeight;
    bytes -= held;
    evict(now, 1, held + Math.max(0, more));
    boolean fits = more <= 0 || bytes + held + more <= maxBytes;
    if (fits) {
      entry.pushConfigs.put(config.id(), config);
      entry.configWeight += more;
    }
    entry.updated = now; // at the end of the update order, as its place there says
    tasks.put(key, entry);
    bytes += entry.weight + entry.configWeight;
    if (!fits) {
      throw new TaskStoreFullException(
          "the tasks on this instance hold "
              + bytes / (1024 * 1024)
              + " MiB, its limit for tasks in memory; retry when some have finished, or keep"
              + " tasks in a shared store (agents.tasks.store)");
    }
  }

  @Override
  public synchronized List<PushConfig> pushConfigs(Scope scope, String taskId) {
    return live(tasks.get(key(scope, taskId)))
        .map(e -> List.copyOf(e.pushConfigs.values()))
        .orElse(List.of());
  }

  @Override
  public synchronized boolean deletePushConfig(Scope scope, String taskId, String configId) {
    Entry entry = tasks.get(key(scope, taskId));
    PushConfig removed = entry == null ? null : entry.pushConfigs.remove(configId);
    if (removed == null) {
      return false;
    }
    long weight = TaskWeight.of(removed);
    entry.configWeight -= weight;
    bytes -= weight;
    return true;
  }

  /** How many tasks are held (for tests and diagnostics). */
  public synchronized int size() {
    Iterator<Entry> it = tasks.values().iterator();
    int n = 0;
    while (it.hasNext()) {
      if (live(it.next()).isPresent()) {
        n++;
      }
    }
    return n;
  }
}
