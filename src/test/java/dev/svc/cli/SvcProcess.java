package dev.svc.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code svc start} (or {@code serve}) run from {@code target/svc.jar} as its own process, as users
 * run it: for what only a real process shows (its standard streams, the logger writing to the
 * process's standard error, a log file, signals). Standard output and error go to files in {@code
 * work}.
 */
public final class SvcProcess implements AutoCloseable {
  /** The banner, as text ({@code svc: serving …}) or in a JSON line ({@code --log-format json}). */
  private static final Pattern SERVING = Pattern.compile("serving .* on (http://[^\\s\"]+)/mcp");

  private final Process process;
  private final Path out;
  private final Path err;
  private final String baseUrl;

  private SvcProcess(Process process, Path out, Path err, String baseUrl) {
    this.process = process;
    this.out = out;
    this.err = err;
    this.baseUrl = baseUrl;
  }

  /**
   * Starts {@code svc args...} in {@code workingDirectory} with the test's environment plus {@code
   * environment} ({@code SVC_LOG_TAGS} removed unless given), and waits until it serves.
   */
  public static SvcProcess serving(
      Path workingDirectory, Path work, Map<String, String> environment, String... args)
      throws IOException, InterruptedException {
    return serving(workingDirectory, work, environment, List.of(), args);
  }

  /** {@link #serving(Path, Path, Map, String...)} with JVM options, such as a small heap. */
  public static SvcProcess serving(
      Path workingDirectory,
      Path work,
      Map<String, String> environment,
      List<String> jvmOptions,
      String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("--enable-native-access=ALL-UNNAMED");
    command.addAll(jvmOptions);
    command.add("-jar");
    command.add(Path.of("target/svc.jar").toAbsolutePath().toString());
    command.addAll(List.of(args));
    Files.createDirectories(work);
    Path out = work.resolve("stdout.txt");
    Path err = work.resolve("stderr.txt");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(workingDirectory.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    builder.environment().remove("SVC_LOG_TAGS");
    builder.environment().putAll(environment);
    Process process = builder.start();
    long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (System.nanoTime() < end) {
      Matcher serving = SERVING.matcher(Files.readString(out));
      if (serving.find()) {
        return new SvcProcess(process, out, err, serving.group(1));
      }
      if (!process.isAlive()) {
        break;
      }
      Thread.sleep(50);
    }
    process.destroyForcibly();
    throw new AssertionError(
        "svc did not start serving:\n" + Files.readString(out) + Files.readString(err));
  }

  /**
   * Runs {@code svc start <project> -p 0 <flags…>} in {@code directory} (its output under {@code
   * directory/run}) and waits until it serves.
   */
  public static SvcProcess starting(Path directory, Path project, String... flags)
      throws IOException, InterruptedException {
    List<String> args = new ArrayList<>(List.of("start", project.toString(), "-p", "0"));
    args.addAll(List.of(flags));
    return serving(directory, directory.resolve("run"), Map.of(), args.toArray(String[]::new));
  }

  public String baseUrl() {
    return baseUrl;
  }

  /** Sends SIGTERM and waits for the process to end; returns its exit code. */
  public int stop() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      throw new AssertionError("svc did not stop on SIGTERM");
    }
    return process.exitValue();
  }

  /** Sends SIGTERM without waiting: the process drains and stops on its own. */
  public void terminate() {
    process.destroy();
  }

  /** Waits for the process to end after {@link #terminate()}; returns its exit code. */
  public int awaitExit(Duration limit) throws InterruptedException {
    if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new AssertionError("svc did not stop within " + limit);
    }
    return process.exitValue();
  }

  /** Whether the process is still running. */
  public boolean alive() {
    return process.isAlive();
  }

  public String out() throws IOException {
    return Files.readString(out);
  }

  /**
   * What svc printed, once it holds {@code text} or {@code limit} passed: lines printed after the
   * banner (the dev console's address, say) may come a moment after it.
   */
  public String awaitOut(String text, Duration limit) throws IOException, InterruptedException {
    long end = System.nanoTime() + limit.toNanos();
    String printed = out();
    while (!printed.contains(text) && System.nanoTime() < end && process.isAlive()) {
      Thread.sleep(20);
      printed = out();
    }
    return printed;
  }

  public String err() throws IOException {
    return Files.readString(err);
  }

  @Override
  public void close() {
    process.destroyForcibly();
  }
}
