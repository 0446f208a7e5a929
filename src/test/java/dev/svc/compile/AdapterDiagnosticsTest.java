package dev.svc.compile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import dev.svc.testing.ProjectFixture;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Rules of adapter files, each pinned to its exact output. */
class AdapterDiagnosticsTest {
  @TempDir Path dir;

  /** A tool on adapter {@code db}, so that a case is about the adapter only. */
  static final String TOOL_ON_DB =
      """
      == app/tools/count/config.terse
      description: Counts items.
      use: db
      statement: SELECT count(*) FROM items
      """;

  static Stream<Arguments> rules() {
    return Stream.of(
        argumentSet(
            "an adapter without `connector` is an error",
            TOOL_ON_DB
                + """
                == app/adapters/db.terse
                connection_string: ":memory:"
                """,
            """
            app/adapters/db.terse:1:1: error[missing-field]: `connector` is missing from the adapter
              hint: add `connector:` (`postgres`, `mysql`, `sqlite`, `mongodb` or `redis`)
            1 error, 0 warnings
            """),
        argumentSet(
            "an adapter whose YAML is broken is reported once, not again in the tools using it",
            TOOL_ON_DB
                + """
                == app/adapters/db.terse
                connector: sqlite
                connection_string: ":memory:
                """,
            """
            app/adapters/db.terse:2:20: error[yaml-syntax]: invalid YAML: found unexpected end of stream (while scanning a quoted scalar)
            1 error, 0 warnings
            """),
        argumentSet(
            "an adapter without `connection_string` is an error",
            TOOL_ON_DB
                + """
                == app/adapters/db.terse
                connector: sqlite
                """,
            """
            app/adapters/db.terse:1:1: error[missing-field]: `connection_string` is missing from the adapter
              hint: add `connection_string:` (connection string; `{{ env.NAME }}` placeholders are filled in at start)
            1 error, 0 warnings
            """),
        argumentSet(
            "an unknown connector is an error with a did-you-mean",
            TOOL_ON_DB
                + """
                == app/adapters/db.terse
                connector: postgresql
                connection_string: postgresql://u@localhost:5432/shop
                """,
            """
            app/adapters/db.terse:1:12: error[unknown-connector]: `connector` is `postgresql`, which is not supported
              hint: did you mean `postgres`?
            1 error, 0 warnings
            """),
        argumentSet(
            "sqlite over ws:// is an unsupported scheme",
            TOOL_ON_DB
                + """
                == app/adapters/db.terse
                connector: sqlite
                connection_string: ws://localhost:8080
                """,
            """
            app/adapters/db.terse:2:20: error[unsupported-scheme]: sqlite connection strings with `ws://` are not supported
              hint: use libsql://, https:// or http:// for a remote database
            1 error, 0 warnings
            """),
        argumentSet(
            "sqlite over wss:// is an unsupported scheme",
            TOOL_ON_DB
                + """
                == app/adapters/db.terse
                connector: sqlite
                connection_string: wss://db.example.com
                """,
            """
            app/adapters/db.terse:2:20: error[unsupported-scheme]: sqlite connection strings with `wss://` are not supported
              hint: use libsql://, https:// or http:// for a remote database
            1 error, 0 warnings
            """),
        argumentSet(
            "a sqlite connection string with another database's scheme is invalid",
            TOOL_ON_DB
                + """
                == app/adapters/db.terse
                connector: sqlite
                connection_string: postgres://localhost/shop
                """,
            """
            app/adapters/db.terse:2:20: error[invalid-connection-string]: `postgres://` is not a sqlite connection string
              hint: write :memory:, file:./<path>.db, an absolute path, or libsql://…, https://…, http://…
            1 error, 0 warnings
            """),
        argumentSet(
            "a postgres connection string must use postgresql://",
            TOOL_ON_DB
                + """
                == app/adapters/db.terse
                connector: postgres
                connection_string: mysql://u@localhost:3306/shop
                """,
            """
            app/adapters/db.terse:2:20: error[invalid-connection-string]: the connection string must start with postgresql:// or postgres://
              hint: write postgresql://<user>:<password>@<host>:<port>/<database>?<param>=<value>
            1 error, 0 warnings
            """),
        argumentSet(
            "a mysql connection string must be in DSN form",
            TOOL_ON_DB
                + """
                == app/adapters/db.terse
                connector: mysql
                connection_string: u:p@localhost:3306/shop
                """,
            """
            app/adapters/db.terse:2:20: error[invalid-connection-string]: the mysql connection string is not in DSN form
              hint: write <user>:<password>@tcp(<host>:<port>)/<database>?<param>=<value>
            1 error, 0 warnings
            """),
        argumentSet(
            "a redis connection string must use redis:// or rediss://",
            """
            == app/tools/get/config.terse
            description: Gets a key.
            use: db
            statement: GET greeting
            == app/adapters/db.terse
            connector: redis
            connection_string: http://localhost:6379
            """,
            """
            app/adapters/db.terse:2:20: error[invalid-connection-string]: the connection string must start with redis:// or rediss://
              hint: write redis://<user>:<password>@<host>:<port>/<db_number>
            1 error, 0 warnings
            """),
        argumentSet(
            "a mongodb connection string must use mongodb:// or mongodb+srv://",
            """
            == app/tools/find/config.terse
            description: Finds users.
            use: db
            statement: '{"database": "shop", "command": {"find": "users"}}'
            == app/adapters/db.terse
            connector: mongodb
            connection_string: localhost:27017
            """,
            """
            app/adapters/db.terse:2:20: error[invalid-connection-string]: the connection string must start with mongodb:// or mongodb+srv://
              hint: write mongodb://<user>:<password>@<host>:<port>/<database>
            1 error, 0 warnings
            """),
        argumentSet(
            "a connection string taken whole from the environment is checked only at start",
            TOOL_ON_DB
                + """
                == app/adapters/db.terse
                connector: postgres
                connection_string: "{{ env.DATABASE_URL }}"
                """,
            ""),
        argumentSet(
            "a malformed env placeholder in a connection string is an error",
            TOOL_ON_DB
                + """
                == app/adapters/db.terse
                connector: postgres
                connection_string: "postgresql://app:{{ env.DB-PASSWORD }}@localhost/shop"
                """,
            """
            app/adapters/db.terse:2:20: error[invalid-placeholder]: `{{ env.DB-PASSWORD }}` is not a valid environment placeholder
              hint: write `{{ env.NAME }}` where NAME has letters, digits and `_`
            1 error, 0 warnings
            """),
        argumentSet(
            "an adapter name must start with a letter",
            TOOL_ON_DB
                + """
                == app/adapters/db.terse
                name: 1db
                connector: sqlite
                connection_string: ":memory:"
                """,
            """
            app/adapters/db.terse:1:7: error[invalid-name]: `name` is `1db`; it must match ^[a-zA-Z][a-zA-Z0-9_-]*$
              hint: start with a letter; use letters, digits, `_` and `-`
            app/tools/count/config.terse:2:6: error[unknown-adapter]: no adapter is named `db`
              hint: did you mean `1db`?
            2 errors, 0 warnings
            """),
        argumentSet(
            "an adapter file name that is not a valid name needs a `name` field",
            """
            == app/tools/count/config.terse
            description: Counts items.
            use: shop.db
            statement: SELECT count(*) FROM items
            == app/adapters/shop.db.terse
            connector: sqlite
            connection_string: ":memory:"
            """,
            """
            app/adapters/shop.db.terse:1:1: error[invalid-name]: the adapter has no `name`, and its default name `shop.db` does not match ^[a-zA-Z][a-zA-Z0-9_-]*$
              hint: add a `name:` field, or rename it (start with a letter; use letters, digits, `_` and `-`)
            1 error, 0 warnings
            """),
        argumentSet(
            "two adapters with one name are rejected",
            TOOL_ON_DB
                + """
                == app/adapters/db.terse
                connector: sqlite
                connection_string: ":memory:"
                == app/adapters/main.terse
                name: db
                connector: sqlite
                connection_string: "file:./main.db"
                """,
            """
            app/adapters/main.terse:1:7: error[duplicate-adapter]: adapter `db` is defined twice
              hint: the first definition is at app/adapters/db.terse:1:1; rename or remove one
            1 error, 0 warnings
            """),
        argumentSet(
            "a misspelt option is a warning with a did-you-mean",
            TOOL_ON_DB
                + """
                == app/adapters/db.terse
                connector: postgres
                connection_string: postgresql://u@localhost:5432/shop
                options:
                  ssl_mode: require
                """,
            """
            app/adapters/db.terse:4:3: warning[unknown-option]: `ssl_mode` is not a known postgres option; it is passed to the driver as written
              hint: did you mean `sslmode`?
            0 errors, 1 warning
            """),
        argumentSet(
            "mongodb's minPoolSize may be zero; its other options must be positive",
            """
            == app/tools/count/config.terse
            description: Counts items.
            use: db
            statement: '{"database": "crm", "command": {"count": "items"}}'
            == app/adapters/db.terse
            connector: mongodb
            connection_string: mongodb://localhost:27017/crm
            options:
              minPoolSize: "0"
              maxPoolSize: "0"
              connectTimeoutMS: "5000"
            """,
            """
            app/adapters/db.terse:5:16: error[invalid-option]: option `maxPoolSize` must be a positive whole number, found `0`
            1 error, 0 warnings
            """),
        argumentSet(
            "an unknown redis option is ignored, and says so",
            TOOL_ON_DB
                + """
                == app/adapters/db.terse
                connector: redis
                connection_string: redis://localhost:6379/0
                options:
                  poolsize: "4"
                  timeout: "5"
                """,
            """
            app/adapters/db.terse:4:3: warning[unknown-option]: `poolsize` is not a known redis option; it is ignored
              hint: did you mean `pool_size`?
            app/adapters/db.terse:5:3: warning[unknown-option]: `timeout` is not a known redis option; it is ignored
              hint: the redis option is pool_size
            0 errors, 2 warnings
            """),
        argumentSet(
            "the libSQL tls switch is 0 or 1 and needs an explicit port",
            TOOL_ON_DB
                + """
                == app/adapters/db.terse
                connector: sqlite
                connection_string: libsql://db.example.io
                options:
                  tls: "0"
                  sync_interval: soon
                == app/adapters/other.terse
                connector: sqlite
                connection_string: libsql://127.0.0.1:8080
                options:
                  tls: "yes"
                  sync_interval: 1m30s
                """,
            """
            app/adapters/db.terse:4:3: error[invalid-option]: option `tls` is valid only with an explicit port in the connection string
              hint: write the port, e.g. libsql://127.0.0.1:8080, or remove `tls`
            app/adapters/db.terse:5:18: error[invalid-option]: option `sync_interval` must be a duration, found `soon`
              hint: write e.g. 5s, 500ms or 1m
            app/adapters/other.terse:4:8: error[invalid-option]: option `tls` must be 1 (TLS) or 0 (no TLS), found `yes`
            3 errors, 0 warnings
            """),
        argumentSet(
            "an unsupported sslmode is an error",
            TOOL_ON_DB
                + """
                == app/adapters/db.terse
                connector: postgres
                connection_string: postgresql://u@localhost:5432/shop
                options:
                  sslmode: always
                """,
            """
            app/adapters/db.terse:4:12: error[invalid-option]: sslmode `always` is not supported
              hint: use one of: disable, allow, prefer, require, verify-ca, verify-full
            1 error, 0 warnings
            """),
        argumentSet(
            "a pool size that is not a positive number is an error",
            TOOL_ON_DB
                + """
                == app/adapters/db.terse
                connector: postgres
                connection_string: postgresql://u@localhost:5432/shop
                options:
                  max_connections: ten
                """,
            """
            app/adapters/db.terse:4:20: error[invalid-option]: option `max_connections` must be a positive whole number, found `ten`
            1 error, 0 warnings
            """),
        argumentSet(
            "a SQLite pool size is checked the same way",
            TOOL_ON_DB
                + """
                == app/adapters/db.terse
                connector: sqlite
                connection_string: file:./shop.db
                options:
                  max_connections: 0
                """,
            """
            app/adapters/db.terse:4:20: error[invalid-option]: option `max_connections` must be a positive whole number, found `0`
            1 error, 0 warnings
            """),
        argumentSet(
            "adapter options must be a mapping",
            TOOL_ON_DB
                + """
                == app/adapters/db.terse
                connector: sqlite
                connection_string: ":memory:"
                options: [sync_interval]
                """,
            """
            app/adapters/db.terse:3:10: error[invalid-type]: `options` must be a mapping of names to values, found a list
            1 error, 0 warnings
            """),
        argumentSet(
            "an unknown key in an adapter is an error with a did-you-mean",
            TOOL_ON_DB
                + """
                == app/adapters/db.terse
                connector: sqlite
                connection_string: ":memory:"
                option:
                  sync_interval: 5s
                """,
            """
            app/adapters/db.terse:3:1: error[unknown-key]: unknown key `option` in the adapter
              hint: did you mean `options`?
            1 error, 0 warnings
            """),
        argumentSet(
            "a password written in the connection string is a warning that does not repeat it",
            TOOL_ON_DB
                + """
                == app/adapters/db.terse
                connector: postgres
                connection_string: "postgresql://app:Sup3rS3cret@db.internal:5432/shop"
                """,
            """
            app/adapters/db.terse:2:20: warning[literal-secret]: the connection string of adapter `db` holds a password or token written in the file: it would be in the repository and in the built artifact
              hint: write that part as {{ env.DB_PASSWORD }} (e.g. postgresql://app:{{ env.DB_PASSWORD }}@db:5432/shop), or the whole string as {{ env.DB_URL }}, and set the variable where svc runs (or in .env, kept out of version control)
            0 errors, 1 warning
            """),
        argumentSet(
            "a password in a MySQL DSN, a token parameter and a token option are warnings",
            TOOL_ON_DB
                + """
                == app/adapters/db.terse
                connector: mysql
                connection_string: "app:Sup3rS3cret@tcp(db.internal:3306)/shop"
                == app/adapters/edge.terse
                connector: sqlite
                connection_string: "libsql://edge.example.com?authToken=eyJhbGci"
                == app/adapters/other_edge.terse
                connector: sqlite
                connection_string: "libsql://edge.example.com"
                options:
                  authToken: eyJhbGci
                """,
            """
            app/adapters/db.terse:2:20: warning[literal-secret]: the connection string of adapter `db` holds a password or token written in the file: it would be in the repository and in the built artifact
              hint: write that part as {{ env.DB_PASSWORD }} (e.g. postgresql://app:{{ env.DB_PASSWORD }}@db:5432/shop), or the whole string as {{ env.DB_URL }}, and set the variable where svc runs (or in .env, kept out of version control)
            app/adapters/edge.terse:2:20: warning[literal-secret]: the connection string of adapter `edge` holds a password or token written in the file: it would be in the repository and in the built artifact
              hint: write that part as {{ env.DB_PASSWORD }} (e.g. postgresql://app:{{ env.DB_PASSWORD }}@db:5432/shop), or the whole string as {{ env.DB_URL }}, and set the variable where svc runs (or in .env, kept out of version control)
            app/adapters/other_edge.terse:4:14: warning[literal-secret]: option `authToken` of adapter `other_edge` is written in the file: it would be in the repository and in the built artifact
              hint: write `authToken: "{{ env.DB_TOKEN }}"` and set the variable where svc runs (or in .env, kept out of version control)
            0 errors, 3 warnings
            """),
        argumentSet(
            "credentials from the environment, a user without a password and a file name with @ are fine",
            TOOL_ON_DB
                + """
                == app/adapters/db.terse
                connector: postgres
                connection_string: "postgresql://app:{{ env.DB_PASSWORD }}@db.internal:5432/shop"
                options:
                  password: "{{ env.DB_PASSWORD }}"
                == app/adapters/orders.terse
                connector: mysql
                connection_string: mysql://root@127.0.0.1:3306/orders
                == app/adapters/local.terse
                connector: sqlite
                connection_string: "file:./data/team@home:1.db"
                """,
            ""));
  }

  @ParameterizedTest
  @MethodSource("rules")
  void reportsExactlyWhatTheRuleSays(String files, String expected) {
    assertThat(ProjectFixture.report(dir, files)).isEqualTo(expected);
  }
}
