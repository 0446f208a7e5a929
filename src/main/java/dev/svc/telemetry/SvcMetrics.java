package dev.svc.telemetry;

import static dev.svc.telemetry.Metrics.DURATION_BUCKETS;

/**
 * Every metric svc records, named after the OpenTelemetry semantic conventions where one exists
 * (HTTP, MCP, databases, GenAI) and {@code svc.*} otherwise. docs/observability.md lists them with
 * their Prometheus names; keep the two in step.
 */
public final class SvcMetrics {
  private SvcMetrics() {}

  public static final Histogram HTTP_DURATION =
      Metrics.histogram(
          "http.server.request.duration",
          "s",
          "Duration of HTTP requests.",
          DURATION_BUCKETS,
          "http.request.method",
          "http.route",
          "http.response.status_code");

  public static final Counter HTTP_REFUSALS =
      Metrics.counter(
          "svc.http.refusals",
          "{refusal}",
          "Connections and requests refused or cut short to protect the server, by reason"
              + " (connections_per_client, header_timeout, body_timeout, body_too_large,"
              + " content_encoding, transfer_encoding, shutting_down, unauthorized, forbidden, bad_authorization, auth_unavailable,"
              + " task_store_full, too_many_tasks).",
          "svc.refusal.reason");

  public static final Histogram MCP_DURATION =
      Metrics.histogram(
          "mcp.server.operation.duration",
          "s",
          "Duration of MCP requests, from receipt to the response.",
          DURATION_BUCKETS,
          "mcp.method.name",
          "gen_ai.tool.name",
          "error.type");

  public static final Histogram TOOL_DURATION =
      Metrics.histogram(
          "svc.tool.call.duration",
          "s",
          "Duration of tool calls (MCP and agents), through the whole pipeline.",
          DURATION_BUCKETS,
          "gen_ai.tool.name",
          "error.type");

  public static final Histogram DB_DURATION =
      Metrics.histogram(
          "db.client.operation.duration",
          "s",
          "Duration of statements run on adapters.",
          DURATION_BUCKETS,
          "db.system.name",
          "svc.adapter",
          "error.type");

  public static final Histogram SCRIPT_DURATION =
      Metrics.histogram(
          "svc.script.call.duration",
          "s",
          "Duration of script calls (handlers, transforms, auth plugins), waiting for an isolate"
              + " included.",
          Metrics.SCRIPT_DURATION_BUCKETS,
          "gen_ai.tool.name",
          "svc.script.stage",
          "error.type");

  public static final Histogram MODEL_DURATION =
      Metrics.histogram(
          "gen_ai.client.operation.duration",
          "s",
          "Duration of model calls of agents.",
          DURATION_BUCKETS,
          "gen_ai.operation.name",
          "gen_ai.provider.name",
          "gen_ai.request.model",
          "error.type");

  public static final Histogram AGENT_TASK_DURATION =
      Metrics.histogram(
          "svc.agent.task.duration",
          "s",
          "Duration of agent tasks, by their final state.",
          DURATION_BUCKETS,
          "gen_ai.agent.name",
          "svc.task.state");

  public static final Counter CACHE_HITS =
      Metrics.counter(
          "svc.cache.hits",
          "{call}",
          "Tool calls answered from the result cache.",
          "gen_ai.tool.name");

  public static final Counter CACHE_MISSES =
      Metrics.counter(
          "svc.cache.misses",
          "{call}",
          "Tool calls with caching whose result was not cached.",
          "gen_ai.tool.name");

  public static final Counter CACHE_UNAVAILABLE =
      Metrics.counter(
          "svc.cache.unavailable",
          "{operation}",
          "Result cache lookups (read as misses) and stores (skipped) that could not use the shared"
              + " result cache because its Redis did not answer.",
          "svc.cache.operation");

  public static final Gauge CACHE_ENTRIES =
      Metrics.gauge("svc.cache.entries", "{entry}", "Results held by the result cache.");

  public static final Gauge CACHE_USAGE =
      Metrics.gauge(
          "svc.cache.usage", "By", "Estimated size of the results held by the result cache.");

  public static final Gauge POOL_CONNECTIONS =
      Metrics.gauge(
          "db.client.connection.count",
          "{connection}",
          "Connections of each adapter's JDBC pool, by state (idle, used).",
          "db.client.connection.pool.name",
          "db.client.connection.state");

  public static final Gauge POOL_MAX =
      Metrics.gauge(
          "db.client.connection.max",
          "{connection}",
          "Size of each adapter's JDBC pool.",
          "db.client.connection.pool.name");

  public static final Gauge POOL_PENDING =
      Metrics.gauge(
          "db.client.connection.pending_requests",
          "{request}",
          "Calls waiting for a connection of each adapter's JDBC pool.",
          "db.client.connection.pool.name");

  public static final Counter PUSH_DROPPED =
      Metrics.counter(
          "svc.a2a.push.dropped",
          "{notification}",
          "A2A push notifications dropped because 10,000 already waited or retried, or their"
              + " tasks held an eighth of the heap (webhooks that answer slowly or not at all).");

  public static final Gauge A2A_TASKS =
      Metrics.gauge(
          "svc.a2a.tasks",
          "{task}",
          "A2A tasks of this instance by state: running (each with its model call), waiting"
              + " (submitted, for a turn under agents.tasks.max_running).",
          "svc.task.state");

  public static final Gauge SCRIPT_ISOLATES =
      Metrics.gauge(
          "svc.script.isolates",
          "{isolate}",
          "V8 isolates of the script sandbox, by state (busy, idle).",
          "svc.isolate.state");

  public static final Gauge SCRIPT_ISOLATES_MAX =
      Metrics.gauge(
          "svc.script.isolates.max",
          "{isolate}",
          "Most V8 isolates idle or running short calls (SVC_SCRIPT_ISOLATES).");

  public static final Gauge SCRIPT_PENDING =
      Metrics.gauge(
          "svc.script.pending_calls", "{call}", "Script calls waiting for a free isolate.");

  public static final Gauge SCRIPT_MEMORY_RESERVED =
      Metrics.gauge(
          "svc.script.memory.reserved",
          "By",
          "V8 isolates alive times their heap cap: what the script memory ceiling counts.");

  public static final Gauge SCRIPT_MEMORY_USED =
      Metrics.gauge(
          "svc.script.memory.used",
          "By",
          "What the V8 isolates alive hold: their heaps' physical pages and V8's malloc beside them,"
              + " as each last measured it (after a call, at most once a second).");

  public static final Gauge SCRIPT_MEMORY_LIMIT =
      Metrics.gauge(
          "svc.script.memory.limit", "By", "The script memory ceiling (SVC_SCRIPT_MEMORY_MB).");

  public static final Gauge RESULT_MEMORY_RESERVED =
      Metrics.gauge(
          "svc.result.memory.reserved",
          "By",
          "Estimated heap held by the results of the tool calls in flight: what the result budget"
              + " counts.");

  public static final Gauge RESULT_MEMORY_LIMIT =
      Metrics.gauge(
          "svc.result.memory.limit",
          "By",
          "The result budget: a quarter of the JVM's maximum heap, for the results of every call in"
              + " flight.");

  public static final Counter RESULT_REFUSALS =
      Metrics.counter(
          "svc.result.refusals",
          "{call}",
          "Results stopped while they were read, by reason: ceiling (one result too big) or budget"
              + " (the calls in flight hold too much).",
          "svc.refusal.reason");

  public static final Counter AUDIT_RECORDS =
      Metrics.counter(
          "svc.audit.records",
          "{record}",
          "Audit records, by result: written, failed (the write failed), or dropped because the queue"
              + " was full.",
          "svc.audit.result");

  public static final Counter RATE_LIMIT_UNCHECKED =
      Metrics.counter(
          "svc.rate_limit.unchecked",
          "{call}",
          "Tool calls with a rate limit let through without a count because the rate-limit store"
              + " (Redis) did not answer.");
}
