package dev.svc.compile;

import dev.svc.diagnostic.Diagnostic;
import dev.svc.diagnostic.Diagnostics;
import dev.svc.diagnostic.Origin;
import dev.svc.model.ConnectorKind;
import dev.svc.model.Statement;

/** Compiles one statement with the real {@link StatementCompiler}, for connector tests. */
public final class StatementFixture {
  private StatementFixture() {}

  /** The SQL statement {@code source} compiles to for {@code kind}; fails on any diagnostic. */
  public static Statement.Sql sql(ConnectorKind kind, String source) {
    Diagnostics diagnostics = new Diagnostics();
    Statement statement =
        new StatementCompiler(diagnostics)
            .compile(source, kind, Origin.ofFile("<test>"))
            .orElseThrow(() ->
                new AssertionError(
                    "the statement does not compile: "
                        + diagnostics.sorted().stream().map(Diagnostic::message).toList()));
    return (Statement.Sql) statement;
  }
}
