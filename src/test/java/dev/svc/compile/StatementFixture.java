package dev.svc.compile;

import dev.svc.diagnostic.Diagnostic;
import dev.svc.diagnostic.Diagnostics;
import dev.svc.diagnostic.Origin;
import dev.svc.model.ConnectorKind;
import dev.svc.model.Statement;

/** Compiles one statement with the real {@link StatementCompiler}, for connector tests. */
public final class StatementFixture {
  private StatementFixture() {}

  /** A statement to hand to one language's compiler, reporting to {@code diagnostics}. */
  static StatementText text(String source, Diagnostics diagnostics) {
    return new StatementText(source, Origin.ofFile("<test>"), diagnostics);
  }

  /** The SQL statement {@code source} compiles to for {@code kind}; fails on any diagnostic. */
  public static Statement.Sql sql(ConnectorKind kind, String source) {
    return (Statement.Sql) compile(kind, source);
  }

  /** The statement {@code source} compiles to for {@code kind}; fails on any diagnostic. */
  public static Statement compile(ConnectorKind kind, String source) {
    Diagnostics diagnostics = new Diagnostics();
    Statement statement =
        new StatementCompiler(diagnostics)
            .compile(source, kind, Origin.ofFile("<test>"))
            .orElseThrow(() ->
                new AssertionError(
                    "the statement does not compile: "
                        + diagnostics.sorted().stream().map(Diagnostic::message).toList()));
    return statement;
  }
}
