package dev.svc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Every command, flag and argument of {@code svc} (read off picocli's model of {@link SvcCommand},
 * so a new one is seen the day it is added) is in docs/cli.md.
 *
 * <p>Each command has its own section, headed {@code ## `svc <name>`}; each of its flags (every
 * name of it: {@code -p} and {@code --port}) and arguments ({@code PATH}) is written in code in
 * that section: a synopsis, a row of its flag table or an example. {@code -h}/{@code --help} and
 * {@code -V}/{@code --version}, which every command has, are named once in the page's opening,
 * before the first section.
 *
 * <p>Hidden flags are not shipped to users (help and completion leave them out): each is exempt
 * here with the reason it exists. A hidden command is still a command we ship, and documented.
 */
class DocumentedCommandsTest {
  private static final Path PAGE = Path.of("docs/cli.md");

  /** Hidden flags, by {@code <command> <flag>}, and why they are not documented. */
  private static final Map<String, String> INTERNAL =
      Map.of(
          "serve --train", "svc build runs the artifact with it for the start-up cache's training",
          "upgrade --installation", "tests point an upgrade at a scratch installation with it");

  @Test
  void everyCommandFlagAndArgumentIsInItsSectionOfTheCliPage() throws IOException {
    String page = Files.readString(PAGE);
    String opening = code(page.substring(0, page.indexOf("\n## ")));
    List<String> undocumented = new ArrayList<>();
    CommandLine svc = commandLine();
    for (OptionSpec option : svc.getCommandSpec().options()) {
      for (String name : option.names()) {
        if (!writes(opening, name)) {
          undocumented.add("svc " + name + " (in the opening)");
        }
      }
    }
    for (CommandLine command : svc.getSubcommands().values()) {
      String name = command.getCommandName();
      String section = section(page, "svc " + name);
      if (section.isEmpty()) {
        undocumented.add("svc " + name + " (no section `## `svc " + name + "``)");
        continue;
      }
      String code = code(section);
      CommandSpec spec = command.getCommandSpec();
      for (OptionSpec option : spec.options()) {
        boolean everyCommandHasIt = option.usageHelp() || option.versionHelp();
        if (option.hidden()) {
          assertThat(INTERNAL)
              .as("why the hidden flag svc %s %s is not documented", name, option.longestName())
              .containsKey(name + " " + option.longestName());
          continue;
        }
        for (String flag : option.names()) {
          if (!writes(everyCommandHasIt ? opening : code, flag)) {
            undocumented.add("svc " + name + " " + flag);
          }
        }
      }
      for (PositionalParamSpec argument : spec.positionalParameters()) {
        if (!writes(code, argument.paramLabel())) {
          undocumented.add("svc " + name + " " + argument.paramLabel());
        }
      }
    }
    assertThat(undocumented).as("commands, flags and arguments missing from " + PAGE).isEmpty();
  }

  @Test
  void theExemptionsAreHiddenFlagsThatExist() {
    CommandLine svc = commandLine();
    for (String exempt : INTERNAL.keySet()) {
      String[] commandAndFlag = exempt.split(" ");
      OptionSpec option =
          svc.getSubcommands()
              .get(commandAndFlag[0])
              .getCommandSpec()
              .findOption(commandAndFlag[1]);
      assertThat(option).as(exempt).isNotNull();
      assertThat(option.hidden()).as("%s is hidden", exempt).isTrue();
    }
  }

  @Test
  void aFlagCountsWhenItsSectionWritesItInCode() {
    String page =
        """
        # Command line

        ## `svc start`

        ```
        svc start [PATH] [-p PORT]
        ```

        | Flag | Meaning |
        |---|---|
        | `--log-level 1-4` | Log level. |

        Without --watch it does not reload.

        ### Details

        `--ui` serves the console.

        ## `svc build`
        """;
    String code = code(section(page, "svc start"));
    assertThat(writes(code, "PATH")).isTrue();
    assertThat(writes(code, "-p")).isTrue();
    assertThat(writes(code, "--log-level")).isTrue();
    assertThat(writes(code, "--ui")).isTrue();
    assertThat(writes(code, "--watch")).as("prose is not code").isFalse();
    assertThat(writes(code, "--log")).as("a prefix of a flag is not the flag").isFalse();
    assertThat(section(page, "svc serve")).isEmpty();
  }

  private static CommandLine commandLine() {
    PrintWriter nowhere = new PrintWriter(new StringWriter());
    return SvcCommand.commandLine(new CliContext(Path.of(""), Map.of(), nowhere, nowhere));
  }

  /** The section {@code ## `heading`}, up to the next section of its level; empty when none. */
  static String section(String page, String heading) {
    Matcher start = Pattern.compile("(?m)^## `" + Pattern.quote(heading) + "`\\s*$").matcher(page);
    if (!start.find()) {
      return "";
    }
    int end = page.indexOf("\n## ", start.end());
    return page.substring(start.start(), end < 0 ? page.length() : end);
  }

  /** What some Markdown writes in code: its fenced blocks and its code spans. */
  static String code(String markdown) {
    StringBuilder code = new StringBuilder();
    Matcher fence = Pattern.compile("(?ms)^```[^\\n]*\\n(.*?)^```").matcher(markdown);
    int end = 0;
    while (fence.find()) {
      spans(markdown.substring(end, fence.start()), code);
      code.append(fence.group(1)).append('\n');
      end = fence.end();
    }
    spans(markdown.substring(end), code);
    return code.toString();
  }

  private static void spans(String prose, StringBuilder code) {
    Matcher span = Pattern.compile("(`+)(.+?)\\1").matcher(prose);
    while (span.find()) {
      code.append(span.group(2)).append('\n');
    }
  }

  /** Whether the code holds the word whole: {@code --log} is not in {@code --log-level}. */
  static boolean writes(String code, String word) {
    return Pattern.compile("(?<![\\w-])" + Pattern.quote(word) + "(?![\\w-])").matcher(code).find();
  }
}
