package dev.svc.audit;

import dev.svc.json.Jackson;
import dev.svc.log.Log;
import dev.svc.telemetry.SvcMetrics;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.ObjectMapper;

/**
 * The audit trail as a file of JSON lines, appended to. Callers format their line and put it on a
 * bounded queue ({@value #CAPACITY} lines); one writer thread drains the queue into the file, each
 * batch in one write. When the queue is full (the disk is stuck) the line is dropped and counted,
 * so a call never waits for the trail.
 *
 * <p>A line is counted {@code written} once its write returned, {@code failed} when the write
 * failed (a full disk, a removed mount): a full disk used to count every line as written and log a
 * warning per batch. A failure is logged once, and its end once; the first batch after a failure
 * starts with a line break, so that a line the failed write left half-written never runs into a
 * whole one.
 */
public final class AuditFile implements AuditTrail {
  private static final Log LOG = Log.tagged("audit");
  static final int CAPACITY = 8192;

  /** The longest failure message an audit line holds. */
  static final int MAX_ERROR_CHARS = 1024;

  /** How long opening the file may take (a named pipe opens once something reads it). */
  static final Duration OPEN_TIMEOUT = Duration.ofSeconds(5);

  private static final ObjectMapper JSON = Jackson.MAPPER;

  /** Queued by {@link #close()} after the last record. */
  private static final String STOP = "";

  private final Path path;
  private final BlockingQueue<String> queue;
  private final OutputStream out;
  private boolean failing;
  private final Thread writer;
  private volatile boolean closed;

  private AuditFile(Path path, OutputStream out, int capacity) {
    this.path = path;
    this.out = out;
    this.queue = new ArrayBlockingQueue<>(capacity);
    this.writer = Thread.ofPlatform().daemon().name("svc-audit").start(this::drain);
  }

  /**
   * Opens (creating directories) the file for appending.
   *
   * @throws UncheckedIOException when it cannot be opened
   */
  public static AuditFile open(Path path) {
    return open(path, CAPACITY);
  }

  static AuditFile open(Path path, int capacity) {
    try {
      Path absolute = path.toAbsolutePath();
      if (absolute.getParent() != null) {
        Files.createDirectories(absolute.getParent());
      }
      return new AuditFile(absolute, openForAppending(absolute), capacity);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot open the audit file " + path + ": " + e.getMessage(), e);
    }
  }

  /**
   * The file opened for appending, on a thread of its own: opening a named pipe that nothing reads
   * blocks until something does, and {@code svc start} waited for ever, printing nothing.
   */
  private static OutputStream openForAppending(Path file) throws IOException {
    CompletableFuture<OutputStream> opening = new CompletableFuture<>();
    Thread.ofPlatform()
        .daemon()
        .name("svc-audit-open")
        .start(() -> {
          try {
            opening.complete(
                Files.newOutputStream(
                    file,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND,
                    StandardOpenOption.WRITE));
          } catch (IOException | RuntimeException e) {
            opening.completeExceptionally(e);
          }
        });
    try {
      return opening.get(OPEN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      opening.thenAccept(AuditFile::closeQuietly); // should it open after all
      throw new IOException(
          "it did not open within "
              + OPEN_TIMEOUT.toSeconds()
              + " s (a named pipe that nothing reads?)");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      throw new IOException(e.getCause().getMessage(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while opening", e);
    }
  }

  private static void closeQuietly(OutputStream stream) {
    try {
      stream.close();
    } catch (IOException e) {
      // it was never used
    }
  }

  public Path path() {
    return path;
  }

  @Override
  public boolean enabled() {
    return !closed;
  }

  @Override
  public void record(AuditRecord record) {
    if (closed) {
      return;
    }
    String line;
    try {
      line = line(record);
    } catch (RuntimeException e) {
      LOG.warn("an audit record could not be written", "error", String.valueOf(e.getMessage()));
      return;
    }
    if (!queue.offer(line)) {
      SvcMetrics.AUDIT_RECORDS.increment("dropped");
    }
  }

  /** One record as a JSON object on one line. */
  static String line(AuditRecord record) {
    StringWriter text = new StringWriter(256);
    try (JsonGenerator json = JSON.createGenerator(text)) {
      json.writeStartObject();
      json.writeStringProperty("time", record.time().toString());
      switch (record) {
        case AuditRecord.ToolCall call -> {
          json.writeStringProperty("kind", "tool_call");
          json.writeStringProperty("request_id", call.requestId());
          json.writeStringProperty("caller", call.caller());
          json.writeStringProperty("via", call.via());
          json.writeStringProperty("tool", call.tool());
          json.writeName("arguments");
          JSON.writeTree(json, call.arguments());
          json.writeStringProperty("outcome", call.outcome());
          if (call.error().isPresent()) {
            json.writeStringProperty("error", bounded(call.error().get()));
          }
        }
        case AuditRecord.AgentTask task -> {
          json.writeStringProperty("kind", "agent_task");
          json.writeStringProperty("request_id", task.requestId());
          json.writeStringProperty("caller", task.caller());
          json.writeStringProperty("agent", task.agent());
          json.writeStringProperty("task_id", task.taskId());
          json.writeStringProperty("context_id", task.contextId());
          json.writeStringProperty("state", task.state());
          json.writeStringProperty("outcome", task.outcome());
          if (task.error().isPresent()) {
            json.writeStringProperty("error", bounded(task.error().get()));
          }
        }
      }
      json.writeNumberProperty("duration_ms", Math.round(record.durationMs() * 1000) / 1000.0);
      json.writeEndObject();
    }
    return text.toString();
  }

  /**
   * A failure's message cut at {@value #MAX_ERROR_CHARS} characters: a message may quote what the
   * caller sent (a handler's {@code throw new Error(input)}), and the line must stay small.
   */
  static String bounded(String error) {
    if (error.length() <= MAX_ERROR_CHARS) {
      return error;
    }
    int end =
        Character.isHighSurrogate(error.charAt(MAX_ERROR_CHARS - 1))
            ? MAX_ERROR_CHARS - 1
            : MAX_ERROR_CHARS;
    return error.substring(0, end) + "… (" + error.length() + " characters)";
  }

  private void drain() {
    List<String> batch = new ArrayList<>();
    try {
      while (true) {
        String first = queue.take();
        batch.add(first);
        queue.drainTo(batch);
        boolean stop = false;
        StringBuilder text = new StringBuilder();
        int lines = 0;
        for (String line : batch) {
          if (line.isEmpty()) { // STOP, put by close(); a record's line is never empty
            stop = true;
            continue;
          }
          text.append(line).append('\n');
          lines++;
        }
        batch.clear();
        if (lines > 0) {
          write(text, lines);
        }
        if (stop) {
          return;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void write(StringBuilder text, int lines) {
    if (failing) {
      text.insert(0, '\n');
    }
    try {
      out.write(text.toString().getBytes(StandardCharsets.UTF_8));
      out.flush();
      SvcMetrics.AUDIT_RECORDS.add(lines, "written");
      if (failing) {
        failing = false;
        LOG.info("the audit file is written again", "path", path);
      }
    } catch (IOException e) {
      SvcMetrics.AUDIT_RECORDS.add(lines, "failed");
      if (!failing) {
        failing = true;
        LOG.warn(
            "the audit file cannot be written; lines are lost and counted as failed until it can",
            "path",
            path,
            "error",
            e.getMessage());
      }
    }
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      if (queue.offer(STOP, 2, TimeUnit.SECONDS)) {
        writer.join(TimeUnit.SECONDS.toMillis(5));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      out.close();
    } catch (IOException e) {
      LOG.warn("the audit file did not close cleanly", "path", path, "error", e.getMessage());
    }
  }
}
