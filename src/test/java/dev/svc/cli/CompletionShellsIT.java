package dev.svc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each completion script loads in its own shell and completes a command (zsh and fish are installed
 * by {@code scripts/test-tools.sh}; a missing shell fails the test). PowerShell cannot be installed
 * on our machines, so its script is parsed with tree-sitter's PowerShell grammar instead (also
 * fetched by that script): it catches syntax errors, not behaviour.
 */
class CompletionShellsIT {
  @TempDir Path dir;

  @Test
  void theZshScriptLoadsAndDefinesTheCompletionFunction() throws Exception {
    Path script = script("zsh");
    assertThat(run("zsh", "-c", "source " + script + " && whence -w _complete_svc"))
        .contains("_complete_svc: function");
  }

  @Test
  void theFishScriptLoadsAndCompletesCommands() throws Exception {
    Path script = script("fish");
    assertThat(run("fish", "-c", "source " + script + "; complete -C 'svc va'"))
        .contains("validate");
  }

  @Test
  void theBashScriptLoadsAndCompletesCommands() throws Exception {
    Path script = script("bash");
    String out =
        run(
            "bash",
            "-c",
            "source "
                + script
                + " && COMP_WORDS=(svc va) COMP_CWORD=1 && _complete_svc && echo ${COMPREPLY[@]}");
    assertThat(out).contains("validate");
  }

  @Test
  void thePowerShellScriptParsesAsPowerShell() throws Exception {
    Path checker = powerShellChecker();
    assertThat(run("node", checker.toString(), script("powershell").toString())).contains("ok");
  }

  @Test
  void thePowerShellCheckCatchesABrokenScript() throws Exception {
    Path checker = powerShellChecker();
    Path broken = dir.resolve("broken.ps1");
    Files.writeString(broken, "function f { if ($x { }\n");
    Process process = new ProcessBuilder("node", checker.toString(), broken.toString()).start();
    String output = new String(process.getInputStream().readAllBytes());
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(output).isEqualTo(1);
    assertThat(output).contains("ERROR");
  }

  /** A node script, beside the grammar, printing {@code ok} or the syntax errors of a file. */
  private static Path powerShellChecker() throws Exception {
    String tools = System.getenv("SVC_TEST_TOOLS");
    Path grammar =
        (tools == null || tools.isBlank()
                ? Path.of(System.getProperty("user.home"), ".cache", "svc", "test-tools")
                : Path.of(tools))
            .resolve("powershell-grammar");
    assertThat(grammar.resolve("node_modules").resolve("tree-sitter-powershell"))
        .as("tree-sitter's PowerShell grammar (scripts/test-tools.sh fetches it)")
        .isDirectory();
    Path checker = grammar.resolve("check-syntax.mjs");
    Files.writeString(
        checker,
        """
        import Parser from 'tree-sitter';
        import PowerShell from 'tree-sitter-powershell/bindings/node/index.js';
        import fs from 'fs';
        const parser = new Parser();
        parser.setLanguage(PowerShell);
        const tree = parser.parse(fs.readFileSync(process.argv[2], 'utf8'));
        const errors = [];
        (function walk(node) {
          if (node.type === 'ERROR' || node.isMissing) {
            const at = node.startPosition;
            errors.push(`${at.row + 1}:${at.column + 1} ${node.type} ${JSON.stringify(node.text.slice(0, 40))}`);
          }
          node.children.forEach(walk);
        })(tree.rootNode);
        console.log(errors.length ? errors.join('\\n') : 'ok');
        process.exit(errors.length ? 1 : 0);
        """);
    return checker;
  }

  private Path script(String shell) throws Exception {
    StringWriter out = new StringWriter();
    int exit =
        Main.run(
            new CliContext(
                dir, Map.of(), new PrintWriter(out, true), new PrintWriter(new StringWriter())),
            "completion",
            shell);
    assertThat(exit).isZero();
    Path file = dir.resolve("completion." + shell);
    Files.writeString(file, out.toString());
    return file;
  }

  private static String run(String... command) throws Exception {
    Process process;
    try {
      process = new ProcessBuilder(List.of(command)).redirectErrorStream(true).start();
    } catch (java.io.IOException e) {
      throw new AssertionError(
          command[0] + " is not installed (scripts/test-tools.sh installs it)", e);
    }
    String output = new String(process.getInputStream().readAllBytes());
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(output).isZero();
    return output;
  }
}
