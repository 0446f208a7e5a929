package dev.svc.compile;

import dev.svc.definition.Located;
import dev.svc.definition.ToolDefinition;
import dev.svc.definition.ToolDefinition.AnnotationsDefinition;
import dev.svc.diagnostic.Diagnostics;
import dev.svc.model.ConnectorKind;
import dev.svc.model.Execution;
import dev.svc.model.ToolAnnotations;
import java.util.Optional;
import java.util.TreeSet;

/**
 * A tool's {@code read_only} field and its MCP annotations: checks that svc can run the tool
 * read-only, and derives the hints from the statement (docs/decisions.md "Read-only tools and
 * annotations"), each overridden by the tool's {@code annotations} block.
 */
final class ToolHintsCompiler {
  private final Diagnostics diagnostics;

  ToolHintsCompiler(Diagnostics diagnostics) {
    this.diagnostics = diagnostics;
  }

  /** Whether the tool is read-only; a {@code read_only} svc cannot honour is reported. */
  boolean readOnly(ToolDefinition tool, Optional<Execution> execution) {
    Optional<Located<Boolean>> field = tool.readOnly().filter(Located::value);
    if (field.isEmpty() || execution.isEmpty()) {
      return field.isPresent();
    }
    Located<Boolean> readOnly = field.get();
    switch (execution.get()) {
      case Execution.Handler handler ->
          diagnostics.error(
              "invalid-read-only",
              readOnly.origin(),
              "`read_only` applies to a tool that runs a statement; a handler's effects are its"
                  + " own",
              "drop `read_only`; to tell clients the handler only reads, set `annotations:"
                  + " {read_only_hint: true}`");
      case Execution.OnAdapter on -> {
        StatementEffect effect = StatementEffect.of(on.statement(), on.connector());
        switch (on.connector()) {
          case POSTGRES, MYSQL, SQLITE -> {
            if (effect.statements() == 1
                && (effect.kind() == StatementEffect.Kind.ADD
                    || effect.kind() == StatementEffect.Kind.CHANGE)) {
              diagnostics.warning(
                  "conflicting-read-only",
                  readOnly.origin(),
                  "the tool is `read_only`, but its statement is an `"
                      + effect.operation()
                      + "`: the database will refuse every call",
                  "drop `read_only` if the tool is meant to write");
            }
            if (effect.statements() > 1) {
              diagnostics.error(
                  "invalid-read-only",
                  readOnly.origin(),
                  "a `read_only` tool runs its statement in one read-only transaction, so it must"
                      + " be a single statement; this one has "
                      + effect.statements(),
                  "split it into one tool per statement, or drop `read_only`");
            }
          }
          case MONGODB, REDIS -> {
            if (!effect.reads()) {
              diagnostics.error(
                  "invalid-read-only",
                  readOnly.origin(),
                  on.connector().wireName()
                      + " has no read-only mode, so svc allows `read_only` only on commands that"
                      + " read; `"
                      + (effect.operation().isEmpty() ? "this command" : effect.operation())
                      + "` "
                      + (on.connector() == ConnectorKind.MONGODB
                              && effect.operation().equals("aggregate")
                          ? "with $out or $merge writes"
                          : "is not one of them"),
                  "drop `read_only`, or use a reading command: "
                      + (on.connector() == ConnectorKind.MONGODB
                          ? String.join(", ", new TreeSet<>(StatementEffect.MONGO_READS))
                          : "GET, MGET, HGETALL, LRANGE, SMEMBERS, ZRANGE, SCAN, … (the list is"
                              + " in docs/configuration.md, Read-only tools)"));
            }
          }
        }
      }
    }
    return true;
  }

  /** The annotations svc sends: derived from the tool, then the tool's own block. */
  static ToolAnnotations annotations(
      boolean readOnly, Optional<Execution> execution, Optional<AnnotationsDefinition> written) {
    ToolAnnotations derived = derived(readOnly, execution);
    if (written.isEmpty()) {
      return derived;
    }
    AnnotationsDefinition a = written.get();
    return new ToolAnnotations(
        a.title().map(Located::value).or(derived::title),
        a.readOnlyHint().map(Located::value).or(derived::readOnly),
        a.destructiveHint().map(Located::value).or(derived::destructive),
        a.idempotentHint().map(Located::value).or(derived::idempotent),
        a.openWorldHint().map(Located::value).or(derived::openWorld));
  }

  private static ToolAnnotations derived(boolean readOnly, Optional<Execution> execution) {
    if (!(execution.orElse(null) instanceof Execution.OnAdapter on)) {
      return ToolAnnotations.NONE; // a handler may do anything: MCP's defaults say so
    }
    if (readOnly) {
      return ToolAnnotations.READS;
    }
    Optional<Boolean> no = Optional.of(false);
    Optional<Boolean> yes = Optional.of(true);
    return switch (StatementEffect.of(on.statement(), on.connector()).kind()) {
      case READ -> ToolAnnotations.READS;
      case ADD -> new ToolAnnotations(Optional.empty(), no, no, Optional.empty(), no);
      case CHANGE -> new ToolAnnotations(Optional.empty(), no, yes, Optional.empty(), no);
      case WRITE ->
          new ToolAnnotations(Optional.empty(), no, Optional.empty(), Optional.empty(), no);
    };
  }
}
