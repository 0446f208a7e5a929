package dev.svc.cli;

import dev.svc.model.Model;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code svc validate}: checks a project without starting anything. */
@Command(
    name = "validate",
    mixinStandardHelpOptions = true,
    description = {
      "Check a project without starting it.",
      "Every problem is reported at once as `file:line:col: error[code]: message`.",
      "Type-checks TypeScript scripts against the tools' inputs (--no-type-check: do not).",
      "Never connects to a database and never needs environment values.",
      "Exit code 0 when the project is valid, 1 when it is not."
    })
final class ValidateCommand implements Callable<Integer> {
  @Mixin ProjectOptions project;

  @Option(
      names = "--no-type-check",
      description = "Do not type-check scripts (syntax and imports are still checked).")
  boolean noTypeCheck;

  private final CliContext context;

  ValidateCommand(CliContext context) {
    this.context = context;
  }

  @Override
  public Integer call() {
    Optional<Model> model =
        ProjectCompiler.validated(project.locate(context), context, !noTypeCheck);
    if (model.isEmpty()) {
      return ExitCodes.FAILED;
    }
    context
        .out()
        .println(
            "valid: "
                + model.get().service().name()
                + " ("
                + ProjectCompiler.contents(model.get())
                + ")");
    context.out().flush();
    return ExitCodes.OK;
  }
}
