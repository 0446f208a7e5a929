package dev.svc.cli;

import java.util.OptionalInt;

/**
 * Runs {@code svc serve} without picocli. picocli's classes predate Java 6, so the JDK can put
 * neither them nor their verification in the start-up cache, and building its command model costs
 * about 250 ms — most of the start-up budget of a built artifact. This parser knows exactly the
 * flags of {@code serve}; anything else (help, a typo) falls back to picocli, which reports it.
 */
final class ServeFastPath {
  private ServeFastPath() {}

  /** The exit code of {@code svc serve …}, or empty when picocli must handle the command line. */
  static OptionalInt tryRun(CliContext context, String... args) {
    if (args.length == 0 || !args[0].equals("serve")) {
      return OptionalInt.empty();
    }
    ServeCommand command = new ServeCommand(context);
    command.serve = new ServeOptions();
    command.serve.address = "127.0.0.1";
    command.log = new LogOptions();
    try {
      for (int i = 1; i < args.length; i++) {
        String arg = args[i];
        int equals = arg.startsWith("--") ? arg.indexOf('=') : -1;
        String name = equals > 0 ? arg.substring(0, equals) : arg;
        String inline = equals > 0 ? arg.substring(equals + 1) : null;
        if (isValued(name) && inline == null) {
          // a tag filter may start with - (`--log-tags -http`); other values never do
          if (i + 1 >= args.length || (args[i + 1].startsWith("-") && !name.equals("--log-tags"))) {
            return OptionalInt.empty();
          }
          inline = args[++i];
        }
        switch (name) {
          case "-p", "--port" -> command.serve.port = Integer.valueOf(inline);
          case "--address" -> command.serve.address = inline;
          case "--log-level" -> command.log.level = Integer.valueOf(inline);
          case "--log-tags" -> command.log.tags = inline;
          case "--log-format" -> command.log.format = inline;
          case "--verbose", "--log-file", "--train" -> {
            if (inline != null) {
              return OptionalInt.empty();
            }
            switch (name) {
              case "--verbose" -> command.log.verbose = true;
              case "--log-file" -> command.log.file = true;
              default -> command.train = true;
            }
          }
          default -> {
            if (arg.startsWith("-") || command.manifest != null) {
              return OptionalInt.empty();
            }
            command.manifest = arg;
          }
        }
      }
    } catch (NumberFormatException e) {
      return OptionalInt.empty(); // picocli explains what is wrong
    }
    try {
      return OptionalInt.of(command.call());
    } catch (RuntimeException e) {
      context.err().println("error: " + e.getMessage());
      context.err().flush();
      return OptionalInt.of(ExitCodes.FAILED);
    }
  }

  private static boolean isValued(String name) {
    return switch (name) {
      case "-p", "--port", "--address", "--log-level", "--log-tags", "--log-format" -> true;
      default -> false;
    };
  }
}
