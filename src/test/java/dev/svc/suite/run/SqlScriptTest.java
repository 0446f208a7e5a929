package dev.svc.suite.run;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SqlScriptTest {
  @Test
  void aScriptSplitsAtSemicolonsOutsideQuotesCommentsAndDollarQuotes() {
    String script =
        """
        -- a comment; not a statement
        CREATE TABLE t (a TEXT);
        INSERT INTO t VALUES ('x;y'), ('it''s; fine');
        /* block; comment */ INSERT INTO t VALUES ("q;q");
        CREATE FUNCTION f() RETURNS int AS $$ SELECT 1; $$ LANGUAGE sql;

        SELECT 2
        """;

    assertThat(SqlScript.statements(script))
        .containsExactly(
            new SqlScript.Part("CREATE TABLE t (a TEXT)", 2),
            new SqlScript.Part("INSERT INTO t VALUES ('x;y'), ('it''s; fine')", 3),
            new SqlScript.Part("INSERT INTO t VALUES (\"q;q\")", 4),
            new SqlScript.Part(
                "CREATE FUNCTION f() RETURNS int AS $$ SELECT 1; $$ LANGUAGE sql", 5),
            new SqlScript.Part("SELECT 2", 7));
  }

  @Test
  void anEmptyScriptHasNoStatements() {
    assertThat(SqlScript.statements("  -- nothing\n;;\n")).isEmpty();
  }
}
