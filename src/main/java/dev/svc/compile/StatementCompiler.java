package dev.svc.compile;

import dev.svc.diagnostic.Diagnostics;
import dev.svc.diagnostic.Origin;
import dev.svc.model.ConnectorKind;
import dev.svc.model.Statement;
import java.util.Optional;

/**
 * Compiles statements so that values can only ever be bound: SQL placeholders become JDBC
 * parameters (inside string literals, a concatenation), MongoDB placeholders become JSON values or
 * escaped string content, Redis placeholders stay inside one argument. Each statement language has
 * its own compiler ({@link SqlStatementCompiler}, {@link MongoStatementCompiler}, {@link
 * RedisStatementCompiler}); the placeholder they share is read by {@link StatementText}.
 */
final class StatementCompiler {
  private final Diagnostics diagnostics;

  StatementCompiler(Diagnostics diagnostics) {
    this.diagnostics = diagnostics;
  }

  Optional<Statement> compile(String source, ConnectorKind connector, Origin origin) {
    if (source.isBlank()) {
      diagnostics.error("invalid-statement", origin, "the statement is empty");
      return Optional.empty();
    }
    StatementText statement = new StatementText(source, origin, diagnostics);
    return switch (connector) {
      case POSTGRES, MYSQL, SQLITE ->
          new SqlStatementCompiler(statement, connector).compile().map(s -> s);
      case MONGODB -> MongoStatementCompiler.compile(statement).map(s -> s);
      case REDIS -> RedisStatementCompiler.compile(statement).map(s -> s);
    };
  }
}
