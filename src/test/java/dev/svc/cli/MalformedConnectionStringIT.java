package dev.svc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.testing.ProjectFixture;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A connection string from the environment that svc cannot read stops the start, and the diagnostic
 * and the debug log say what is wrong without quoting the password: a missing {@code @} or an
 * unencoded {@code ?} turns the password into what reads as the host and port.
 */
class MalformedConnectionStringIT {
  private static final String PASSWORD = "Sup3rS3cretPw";

  @TempDir Path dir;

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "postgres | postgresql://app:Sup3rS3cretPw127.0.0.1/shop",
        "postgres | postgresql://app:Sup3r?S3cretPw@127.0.0.1/shop",
        "postgres | postgresql://app:Sup3rS3cretPw:5432?x@127.0.0.1/shop",
        "mysql | mysql://app:Sup3rS3cretPw127.0.0.1/shop",
        "mysql | mysql://app:Sup3r?S3cretPw@127.0.0.1/shop",
        "redis | redis://:Sup3rS3cretPw127.0.0.1/0",
        "redis | redis://:Sup3r?S3cretPw@127.0.0.1:6379/0",
        "mongodb | mongodb://app:Sup3rS3cretPw127.0.0.1:27017/shop",
        "mongodb | mongodb://app:Sup3r:S3cretPw127.0.0.1:27017/shop",
      })
  void theStartErrorAndTheLogLeaveThePasswordOut(String connector, String connectionString) {
    ProjectFixture.write(
        dir,
        """
        == .svc
        name: leaky
        == app/adapters/db.terse
        connector: %s
        connection_string: "{{ env.DB_URL }}"
        == app/tools/count/config.terse
        description: Counts.
        use: db
        statement: %s
        """
            .formatted(
                connector,
                connector.equals("mongodb")
                    ? "'{\"database\": \"shop\", \"command\": {\"ping\": 1}}'"
                    : connector.equals("redis") ? "PING" : "SELECT 1"));

    CliRun run =
        CliRun.svc(dir, Map.of("DB_URL", connectionString), "start", "-p", "0", "--verbose");

    assertThat(run.exitCode()).isEqualTo(ExitCodes.FAILED);
    assertThat(run.err()).contains("error[adapter-unavailable]: adapter db: ");
    for (String piece : new String[] {PASSWORD, "Sup3r", "S3cretPw"}) {
      assertThat(run.out()).doesNotContain(piece);
      assertThat(run.err()).doesNotContain(piece);
    }
  }
}
