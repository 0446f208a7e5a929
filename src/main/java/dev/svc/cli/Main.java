package dev.svc.cli;

import dev.svc.log.JulBridge;
import dev.svc.log.Level;
import dev.svc.log.LogFormat;
import dev.svc.log.LogSink;
import dev.svc.log.Slf4jProvider;
import dev.svc.log.StartupTrace;
import dev.svc.log.TagFilter;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.util.Optional;
import java.util.OptionalInt;
import picocli.CommandLine;

/** Entry point of the {@code svc} command. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    StartupTrace.mark("main");
    // SLF4J (Jetty's and the drivers' logging) goes to our logger; naming the provider spares
    // SLF4J a ServiceLoader scan that opens every jar on the class path (~20 ms of start-up)
    if (System.getProperty("slf4j.provider") == null) {
      System.setProperty("slf4j.provider", Slf4jProvider.class.getName());
      // SLF4J reports a named provider on stderr at its INFO level; keep its warnings only
      if (System.getProperty("slf4j.internal.verbosity") == null) {
        System.setProperty("slf4j.internal.verbosity", "WARN");
      }
    }
    // java.util.logging (OpenTelemetry, the JDK) too, instead of plain text on stderr; costs
    // nothing until something logs through it
    JulBridge.install();
    if (JsonConsole.requested(args)) {
      // what libraries print themselves (not through a logger) becomes JSON lines too
      System.setOut(JsonConsole.stream(new FileOutputStream(FileDescriptor.out), false));
      System.setErr(JsonConsole.stream(new FileOutputStream(FileDescriptor.err), true));
    }
    int code;
    try {
      code = run(CliContext.system(), args);
    } catch (Throwable fault) {
      // an error no command caught (a class that cannot be loaded, say) ends the process with a
      // message, rather than leaving it alive on the server threads it had started
      System.err.println("svc: internal error: " + fault);
      fault.printStackTrace();
      code = ExitCodes.FAILED;
    }
    System.exit(code);
  }

  /** Runs one command line and returns its exit code. */
  public static int run(CliContext context, String... args) {
    if (JsonConsole.requested(args)) {
      context = JsonConsole.of(context);
      // JSON from the first line on: lines logged before the log flags are applied too
      LogSink.configure(Level.INFO, LogFormat.JSON, TagFilter.ALL, System.err, Optional.empty());
    }
    OptionalInt fast = ServeFastPath.tryRun(context, args);
    if (fast.isPresent()) {
      return fast.getAsInt();
    }
    CommandLine line = SvcCommand.commandLine(context);
    return line.execute(args);
  }
}
