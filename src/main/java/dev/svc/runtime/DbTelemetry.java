package dev.svc.runtime;

import dev.svc.call.Deadline;
import dev.svc.connector.Connector;
import dev.svc.connector.ConnectorUnavailableException;
import dev.svc.connector.ResultRefusedException;
import dev.svc.connector.StatementFailedException;
import dev.svc.connector.StatementOptions;
import dev.svc.model.ConnectorKind;
import dev.svc.model.Execution;
import dev.svc.model.Statement;
import dev.svc.telemetry.Span;
import dev.svc.telemetry.SpanKind;
import dev.svc.telemetry.SvcMetrics;
import dev.svc.telemetry.Telemetry;
import dev.svc.telemetry.Tracer;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * Runs a statement on its connector inside a CLIENT span and the {@code
 * db.client.operation.duration} metric, after the OpenTelemetry database conventions: {@code
 * db.system.name}, {@code db.operation.name} and {@code db.query.text} (the statement with its
 * placeholders, never the bound values).
 */
final class DbTelemetry {
  /** The first key of the statement's {@code command} object: the command's name. */
  private static final Pattern MONGO_COMMAND =
      Pattern.compile("\"command\"\\s*:\\s*\\{\\s*\"([A-Za-z]+)\"");

  private DbTelemetry() {}

  static JsonNode execute(
      Connector connector,
      Execution.OnAdapter on,
      Map<String, Object> values,
      Deadline deadline,
      StatementOptions options) {
    long started = System.nanoTime();
    String system = system(on.connector());
    Tracer tracer = Telemetry.tracer();
    Span span = Span.NOOP;
    if (tracer.enabled()) {
      String operation = operation(on.statement());
      span = tracer.start(SpanKind.CLIENT, operation.isEmpty() ? system : operation, on.adapter());
      if (span.isRecording()) {
        span.set("db.system.name", system)
            .set("db.query.text", queryText(on.statement()))
            .set("svc.adapter", on.adapter());
        if (!operation.isEmpty()) {
          span.set("db.operation.name", operation);
        }
      }
    }
    String errorType = "";
    try {
      JsonNode result = connector.execute(on.statement(), values, deadline, options);
      if (result.isArray()) {
        span.set("db.response.returned_rows", result.size());
      }
      return result;
    } catch (ResultRefusedException e) {
      errorType = "result_refused";
      SvcMetrics.RESULT_REFUSALS.increment(e.limit().name().toLowerCase(Locale.ROOT));
      span.fail(errorType, e.getMessage());
      throw e;
    } catch (StatementFailedException e) {
      errorType = "statement_failed";
      span.fail(errorType, e.getMessage());
      throw e;
    } catch (ConnectorUnavailableException e) {
      errorType = "unavailable";
      span.fail(errorType, e.getMessage());
      throw e;
    } catch (RuntimeException e) {
      errorType = e.getClass().getName();
      span.fail(errorType, "the statement failed unexpectedly");
      throw e;
    } finally {
      span.end();
      SvcMetrics.DB_DURATION.recordSince(started, system, on.adapter(), errorType);
    }
  }

  /** The {@code db.system.name} of a connector kind. */
  static String system(ConnectorKind kind) {
    return switch (kind) {
      case POSTGRES -> "postgresql";
      case MYSQL -> "mysql";
      case SQLITE -> "sqlite";
      case MONGODB -> "mongodb";
      case REDIS -> "redis";
    };
  }

  /**
   * The statement's first keyword ({@code SELECT}), MongoDB command (the first key of {@code
   * command}) or Redis command; or empty.
   */
  static String operation(Statement statement) {
    return switch (statement) {
      case Statement.Sql sql -> firstWord(sql.sql()).toUpperCase(Locale.ROOT);
      case Statement.Mongo mongo -> {
        Matcher m = MONGO_COMMAND.matcher(mongo.source());
        yield m.find() ? m.group(1) : "";
      }
      case Statement.Redis redis -> firstWord(redis.source()).toUpperCase(Locale.ROOT);
    };
  }

  /** The query as prepared: {@code ?} for SQL parameters, {@code {{ inputs.x }}} elsewhere. */
  static String queryText(Statement statement) {
    return switch (statement) {
      case Statement.Sql sql -> sql.sql();
      case Statement.Mongo mongo -> mongo.source();
      case Statement.Redis redis -> redis.source();
    };
  }

  private static String firstWord(String text) {
    String stripped = text.stripLeading();
    int end = 0;
    while (end < stripped.length() && Character.isLetter(stripped.charAt(end))) {
      end++;
    }
    return stripped.substring(0, end);
  }
}
