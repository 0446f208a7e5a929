package dev.svc.cli;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code svc completion bash|zsh|fish|powershell}: prints a shell completion script. Hidden from
 * help. Bash and zsh use picocli's generator (zsh through {@code bashcompinit}); fish and
 * PowerShell scripts are generated here from the same command model.
 */
@Command(
    name = "completion",
    hidden = true,
    mixinStandardHelpOptions = true,
    description = {
      "Print a shell completion script.",
      "  bash:       source <(svc completion bash)",
      "  zsh:        source <(svc completion zsh)",
      "  fish:       svc completion fish | source",
      "  powershell: svc completion powershell | Out-String | Invoke-Expression"
    })
final class CompletionCommand implements Callable<Integer> {
  enum Shell {
    bash,
    zsh,
    fish,
    powershell
  }

  @Parameters(index = "0", paramLabel = "SHELL", description = "bash, zsh, fish or powershell.")
  Shell shell;

  @Spec CommandSpec spec;

  private final CliContext context;

  CompletionCommand(CliContext context) {
    this.context = context;
  }

  @Override
  public Integer call() {
    CommandLine root = spec.root().commandLine();
    String script =
        switch (shell) {
          case bash -> AutoComplete.bash("svc", root);
          case zsh ->
              "autoload -U +X compinit && compinit\nautoload -U +X bashcompinit && bashcompinit\n"
                  + AutoComplete.bash("svc", root);
          case fish -> fish(root);
          case powershell -> powershell(root);
        };
    context.out().print(script);
    context.out().flush();
    return ExitCodes.OK;
  }

  private static Map<String, CommandLine> visibleSubcommands(CommandLine line) {
    Map<String, CommandLine> visible = new TreeMap<>();
    line.getSubcommands()
        .forEach((name, sub) -> {
          if (!sub.getCommandSpec().usageMessage().hidden()) {
            visible.put(name, sub);
          }
        });
    return visible;
  }

  static String fish(CommandLine root) {
    StringBuilder out = new StringBuilder("# fish completion for svc\ncomplete -c svc -f\n");
    Map<String, CommandLine> subs = visibleSubcommands(root);
    for (Map.Entry<String, CommandLine> sub : subs.entrySet()) {
      out.append("complete -c svc -n '__fish_use_subcommand' -a '")
          .append(sub.getKey())
          .append("' -d '")
          .append(fishQuote(firstLine(sub.getValue().getCommandSpec())))
          .append("'\n");
      for (OptionSpec option : sub.getValue().getCommandSpec().options()) {
        if (option.hidden()) {
          continue;
        }
        out.append("complete -c svc -n '__fish_seen_subcommand_from ")
            .append(sub.getKey())
            .append("'");
        for (String name : option.names()) {
          if (name.startsWith("--")) {
            out.append(" -l ").append(name.substring(2));
          } else if (name.length() == 2) {
            out.append(" -s ").append(name.substring(1));
          }
        }
        if (option.arity().max() > 0) {
          out.append(" -r");
        }
        String description = option.description().length > 0 ? option.description()[0] : "";
        out.append(" -d '").append(fishQuote(description)).append("'\n");
      }
      if (!sub.getValue().getCommandSpec().positionalParameters().isEmpty()) {
        out.append("complete -c svc -n '__fish_seen_subcommand_from ")
            .append(sub.getKey())
            .append("' -F\n");
      }
    }
    return out.toString();
  }

  static String powershell(CommandLine root) {
    StringBuilder table = new StringBuilder();
    for (Map.Entry<String, CommandLine> sub : visibleSubcommands(root).entrySet()) {
      List<String> options =
          sub.getValue().getCommandSpec().options().stream()
              .filter(o -> !o.hidden())
              .flatMap(o -> Arrays.stream(o.names()))
              .sorted()
              .toList();
      table
          .append("    '")
          .append(sub.getKey())
          .append("' = @(")
          .append(String.join(", ", options.stream().map(o -> "'" + o + "'").toList()))
          .append(")\n");
    }
    return """
    # PowerShell completion for svc
    Register-ArgumentCompleter -Native -CommandName svc -ScriptBlock {
      param($wordToComplete, $commandAst, $cursorPosition)
      $commands = @{
    %s  }
      $words = @($commandAst.CommandElements | ForEach-Object { $_.ToString() })
      if ($words.Count -le 1 -or ($words.Count -eq 2 -and $wordToComplete -ne '')) {
        $candidates = $commands.Keys
      } else {
        $candidates = $commands[$words[1]]
      }
      $candidates | Where-Object { $_ -like "$wordToComplete*" } | Sort-Object | ForEach-Object {
        [System.Management.Automation.CompletionResult]::new($_, $_, 'ParameterValue', $_)
      }
    }
    """
        .formatted(table.toString().replace("    '", "    '"));
  }

  private static String firstLine(CommandSpec spec) {
    String[] description = spec.usageMessage().description();
    return description.length > 0 ? description[0] : spec.name();
  }

  private static String fishQuote(String text) {
    return text.replace("%n", " ").replace("\\", "\\\\").replace("'", "\\'");
  }
}
