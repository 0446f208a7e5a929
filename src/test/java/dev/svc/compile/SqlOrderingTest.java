package dev.svc.compile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.model.ConnectorKind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SqlOrderingTest {
  @ParameterizedTest(name = "{0}: {1} → {2}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '~',
      textBlock =
          """
          SQLITE   | SELECT * FROM t                                                  | true
          SQLITE   | select * from t order by id                                      | false
          SQLITE   | SELECT * FROM t ORDER\tBY id DESC LIMIT 5                         | false
          SQLITE   | SELECT 1                                                         | false
          SQLITE   | SELECT count(*) FROM t                                           | false
          SQLITE   | SELECT max(price) AS top, min(price) FROM t WHERE a = 1          | false
          SQLITE   | SELECT a, count(*) FROM t GROUP BY a                             | true
          SQLITE   | SELECT a, count(*) OVER () FROM t                                | true
          SQLITE   | SELECT (SELECT count(*) FROM s) AS n, a FROM t                   | true
          SQLITE   | SELECT * FROM t WHERE id = 3 LIMIT 1                             | false
          SQLITE   | SELECT * FROM t LIMIT 10                                         | true
          SQLITE   | SELECT id, name FROM products WHERE id = ?                       | false
          SQLITE   | SELECT * FROM orders o WHERE o.customer_id = ? AND o.open = 1    | false
          SQLITE   | SELECT * FROM t WHERE user_id=?                                  | false
          SQLITE   | SELECT * FROM t WHERE userId = ?                                 | true
          SQLITE   | SELECT * FROM t WHERE id = ? OR name = ?                         | true
          SQLITE   | SELECT * FROM t WHERE id >= ?                                    | true
          SQLITE   | SELECT * FROM t WHERE category = ?                               | true
          SQLITE   | SELECT * FROM t WHERE paid = ?                                   | true
          SQLITE   | SELECT * FROM t WHERE (SELECT 1 FROM s WHERE s.id = t.x) = 1     | true
          SQLITE   | INSERT INTO t SELECT * FROM s                                    | false
          SQLITE   | UPDATE t SET a = 1 RETURNING *                                   | false
          SQLITE   | WITH x AS (SELECT * FROM t ORDER BY id) SELECT * FROM x          | true
          SQLITE   | WITH x AS (SELECT * FROM t) SELECT * FROM x ORDER BY id          | false
          SQLITE   | SELECT row_number() OVER (ORDER BY id) AS n FROM t               | true
          SQLITE   | SELECT * FROM t WHERE a = 'x ORDER BY y'                          | true
          SQLITE   | SELECT * FROM t -- ORDER BY id                                    | true
          SQLITE   | SELECT * FROM t /* ORDER BY id */                                 | true
          SQLITE   | SELECT "ORDER BY" FROM t                                          | true
          SQLITE   | SELECT * FROM t WHERE a = 'it''s' ORDER BY id                     | false
          MYSQL    | SELECT `order by` FROM t                                          | true
          MYSQL    | SELECT * FROM t WHERE a = 'it\\'s' ORDER BY id                    | false
          MYSQL    | SELECT * FROM t # ORDER BY id                                     | true
          POSTGRES | SELECT $$ ORDER BY x $$ FROM t                                    | true
          POSTGRES | SELECT $q$ ) $q$ AS a FROM t ORDER BY a                           | false
          """)
  void aQueryReadingATableWithoutItsOwnOrderByIsUnordered(
      ConnectorKind dialect, String sql, boolean unordered) {
    assertThat(SqlOrdering.readsUnorderedRows(sql, dialect)).isEqualTo(unordered);
  }
}
