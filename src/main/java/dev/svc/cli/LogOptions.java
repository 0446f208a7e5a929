package dev.svc.cli;

import dev.svc.log.Level;
import dev.svc.log.LogFormat;
import dev.svc.log.LogSink;
import dev.svc.log.TagFilter;
import java.io.Console;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.Stack;
import java.util.concurrent.ThreadLocalRandom;
import picocli.CommandLine.IParameterPreprocessor;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/** The logging flags of {@code start} and {@code serve}. */
final class LogOptions {
  @Option(
      names = "--log-level",
      paramLabel = "1-4",
      description = "1 errors, 2 warnings, 3 info (default), 4 debug.")
  Integer level;

  @Option(names = "--verbose", description = "Debug logging (level 4); overrides --log-level.")
  boolean verbose;

  @Option(
      names = "--log-tags",
      paramLabel = "TAGS",
      preprocessor = TagsValue.class,
      description =
          "Only these tags, comma-separated; a leading - excludes one (e.g. mcp,db,-http). Env SVC_LOG_TAGS.")
  String tags;

  /**
   * Takes the next argument as the value of {@code --log-tags} even when it starts with {@code -}:
   * picocli would otherwise read {@code -http} as the options {@code -h} and {@code -t} and report
   * a missing value, so a filter of excludes only could not be written.
   */
  static final class TagsValue implements IParameterPreprocessor {
    @Override
    public boolean preprocess(
        Stack<String> args, CommandSpec command, ArgSpec option, Map<String, Object> info) {
      if (args.isEmpty()) {
        return false; // picocli reports the missing value
      }
      option.setValue(args.pop());
      return true;
    }
  }

  @Option(
      names = "--log-file",
      description = "Also write logs to /tmp/.svc/logs/svc-<id>.log (path printed).")
  boolean file;

  @Option(
      names = "--log-format",
      paramLabel = "text|json",
      description = "Log line format (default: text on a terminal, json otherwise).")
  String format;

  /**
   * What is wrong with the values of these flags, if anything: a bad command line, checked before
   * anything else runs (exit code 2).
   */
  Optional<String> problem() {
    if (level != null && (level < 1 || level > 4)) {
      return Optional.of("--log-level must be 1 to 4, got " + level);
    }
    if (format != null && !format.equalsIgnoreCase("text") && !format.equalsIgnoreCase("json")) {
      return Optional.of("--log-format must be text or json, got " + format);
    }
    return Optional.empty();
  }

  /**
   * Configures logging; the level is {@code --verbose}, then {@code --log-level}, then the
   * project's {@code server.log_level}, then 3.
   *
   * @return the log file, when one was asked for
   */
  Optional<Path> apply(Optional<Integer> projectLevel, CliContext context) {
    int number = verbose ? 4 : level != null ? level : projectLevel.orElse(3);
    if (number < 1 || number > 4) {
      throw new IllegalArgumentException("--log-level must be 1 to 4, got " + number);
    }
    LogFormat logFormat = format(context);
    String tagSpec = tags != null ? tags : context.environment().getOrDefault("SVC_LOG_TAGS", "");
    Optional<Path> path =
        file
            ? Optional.of(
                Path.of(
                    "/tmp/.svc/logs/svc-"
                        + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt())
                        + ".log"))
            : Optional.empty();
    LogSink.configure(Level.of(number), logFormat, TagFilter.parse(tagSpec), System.err, path);
    return path;
  }

  private LogFormat format(CliContext context) {
    if (format == null) {
      Console console = System.console();
      return console != null && console.isTerminal() ? LogFormat.TEXT : LogFormat.JSON;
    }
    return switch (format.toLowerCase()) {
      case "text" -> LogFormat.TEXT;
      case "json" -> LogFormat.JSON;
      default ->
          throw new IllegalArgumentException("--log-format must be text or json, got " + format);
    };
  }
}
