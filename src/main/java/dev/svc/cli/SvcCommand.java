package dev.svc.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The top-level {@code svc} command: prints help when run without a subcommand. */
@Command(
    name = "svc",
    mixinStandardHelpOptions = true,
    versionProvider = Version.class,
    description = {
      "Serve tools, prompts and resources over MCP and agents over A2A, from a folder of files.",
      ""
    },
    subcommands = {
      StartCommand.class,
      ServeCommand.class,
      BuildCommand.class,
      ValidateCommand.class,
      TestCommand.class,
      InitCommand.class,
      UpgradeCommand.class,
      CompletionCommand.class,
      HelpCommand.class
    },
    footer = {"", "Run `svc help <command>` for a command's flags. Docs: README.md and docs/."})
public final class SvcCommand implements Runnable {
  @Spec CommandSpec spec;

  private final CliContext context;

  SvcCommand(CliContext context) {
    this.context = context;
  }

  CliContext context() {
    return context;
  }

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** The configured command line, writing to the context's streams. */
  static CommandLine commandLine(CliContext context) {
    CommandLine line = new CommandLine(new SvcCommand(context), new Factory(context));
    line.setOut(context.out());
    line.setErr(context.err());
    // picocli asks this mapper for parse errors too: those are bad command lines (exit 2).
    line.setExitCodeExceptionMapper(
        e -> e instanceof CommandLine.ParameterException ? ExitCodes.USAGE : ExitCodes.FAILED);
    line.setExecutionExceptionHandler((e, cmd, parsed) -> {
      cmd.getErr().println("error: " + e.getMessage());
      return ExitCodes.FAILED;
    });
    return line;
  }

  /** Gives every command the context it runs in. */
  private record Factory(CliContext context) implements CommandLine.IFactory {
    @Override
    public <K> K create(Class<K> type) throws Exception {
      for (var constructor : type.getDeclaredConstructors()) {
        if (constructor.getParameterCount() == 1
            && constructor.getParameterTypes()[0] == CliContext.class) {
          constructor.setAccessible(true);
          return type.cast(constructor.newInstance(context));
        }
      }
      return CommandLine.defaultFactory().create(type);
    }
  }
}
