package dev.svc.compile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.diagnostic.Diagnostic;
import dev.svc.diagnostic.Diagnostics;
import dev.svc.model.ConnectorKind;
import dev.svc.model.Statement;
import dev.svc.model.Statement.Parameter;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The SQL lexer: what each dialect's statement compiles to, and what it refuses. */
class SqlStatementCompilerTest {
  private final Diagnostics diagnostics = new Diagnostics();

  private Optional<Statement.Sql> compile(ConnectorKind dialect, String source) {
    return new SqlStatementCompiler(StatementFixture.text(source, diagnostics), dialect).compile();
  }

  private Statement.Sql valid(ConnectorKind dialect, String source) {
    Optional<Statement.Sql> sql = compile(dialect, source);
    assertThat(diagnostics.sorted()).isEmpty();
    return sql.orElseThrow();
  }

  private List<String> problems(ConnectorKind dialect, String source) {
    assertThat(compile(dialect, source)).isEmpty();
    return diagnostics.sorted().stream().map(Diagnostic::message).toList();
  }

  @Test
  void aPlaceholderBecomesAParameterBoundAsItsValue() {
    Statement.Sql sql =
        valid(
            ConnectorKind.SQLITE, "SELECT * FROM t WHERE a = {{ inputs.a }} AND b = {{inputs.b}}");

    assertThat(sql.sql()).isEqualTo("SELECT * FROM t WHERE a = ? AND b = ?");
    assertThat(sql.parameters())
        .containsExactly(new Parameter("a", false), new Parameter("b", false));
  }

  @Test
  void aStringLiteralHoldingPlaceholdersBecomesAConcatenationOfText() {
    String source = "SELECT * FROM t WHERE name LIKE '%{{ inputs.q }}%'";

    assertThat(valid(ConnectorKind.POSTGRES, source).sql())
        .isEqualTo("SELECT * FROM t WHERE name LIKE ('%' || CAST(? AS TEXT) || '%')");
    assertThat(valid(ConnectorKind.MYSQL, source).sql())
        .isEqualTo("SELECT * FROM t WHERE name LIKE CONCAT('%', ?, '%')");
    assertThat(valid(ConnectorKind.SQLITE, source).parameters())
        .containsExactly(new Parameter("q", true));
  }

  @Test
  void literalsQuotedNamesAndCommentsAreCopiedAsWritten() {
    String source = "SELECT 'it''s', \"{x}\" /* {{ */ FROM t -- {{ inputs.no }}\nWHERE 1 = 1";

    Statement.Sql sql = valid(ConnectorKind.SQLITE, source);

    assertThat(sql.sql()).isEqualTo(source);
    assertThat(sql.parameters()).isEmpty();
  }

  @Test
  void mysqlHasBacktickNamesHashCommentsAndBackslashEscapes() {
    Statement.Sql sql =
        valid(ConnectorKind.MYSQL, "SELECT `a?` FROM t # why?\nWHERE b = 'it\\'s {{ inputs.x }}'");

    assertThat(sql.sql()).isEqualTo("SELECT `a?` FROM t # why?\nWHERE b = CONCAT('it\\'s ', ?)");
  }

  @Test
  void postgresHasDollarQuotesAndTheDoubledQuestionMarkOperator() {
    Statement.Sql sql =
        valid(
            ConnectorKind.POSTGRES,
            "SELECT $$a ? b$$, tags ?? 'x' FROM t WHERE id = {{ inputs.id }}");

    assertThat(sql.sql()).isEqualTo("SELECT $$a ? b$$, tags ?? 'x' FROM t WHERE id = ?");
  }

  @Test
  void aPlaceholderWhereANameBelongsIsRefusedButFromInsideParenthesesTakesAValue() {
    assertThat(
            valid(
                    ConnectorKind.POSTGRES,
                    "SELECT EXTRACT(YEAR FROM {{ inputs.d }}) FROM t"
                        + " WHERE a IS DISTINCT FROM {{ inputs.a }}")
                .parameters())
        .hasSize(2);
    assertThat(problems(ConnectorKind.POSTGRES, "SELECT * FROM t GROUP BY {{ inputs.c }}"))
        .containsExactly("a placeholder cannot stand for a table or column name (after GROUP BY)");
  }

  @Test
  void everyProblemOfTheStatementIsReportedNotOnlyTheFirst() {
    assertThat(
            problems(
                ConnectorKind.MYSQL,
                "SELECT ? FROM `{{ inputs.t }}` JOIN {{ inputs.u }} WHERE a = {{ inputs.a }}"))
        .containsExactlyInAnyOrder(
            "the statement contains a bare `?`, which the driver would take as a parameter",
            "a placeholder cannot stand for a table or column name (`{{ inputs.t }}`)",
            "a placeholder cannot stand for a table or column name (after JOIN)");
  }

  @Test
  void aPlaceholderInADollarQuotedBodyIsRefused() {
    assertThat(problems(ConnectorKind.POSTGRES, "DO $body$ {{ inputs.x }} $body$"))
        .containsExactly("placeholders inside dollar-quoted strings are not supported");
  }
}
