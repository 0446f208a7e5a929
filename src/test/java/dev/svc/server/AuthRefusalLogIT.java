package dev.svc.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.cli.Instance;
import dev.svc.log.Level;
import dev.svc.testing.CapturedLog;
import dev.svc.testing.RawHttp;
import dev.svc.testing.RunningProject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code server.auth} logs of the requests it refuses: a client sending requests without a
 * token (or while the issuer's keys are out of reach) cannot fill the log with lines, nor with the
 * long paths it chose. The issuer here is unreachable: no request needs it to be refused.
 */
class AuthRefusalLogIT {
  private static final String LONG_PATH = "/agent/" + "a".repeat(7_000);

  @TempDir static Path dir;
  static Instance instance;

  @BeforeAll
  static void start() {
    instance =
        RunningProject.start(
            dir,
            """
            == .svc
            name: guarded
            server:
              auth:
                plugin: oauth
                policy:
                  issuer: https://auth.example.invalid/realms/shop
                  audience: https://shop.example.com/mcp
                  jwks_uri: http://127.0.0.1:9/keys
            == app/adapters/db.terse
            connector: sqlite
            connection_string: ":memory:"
            == app/tools/one/config.terse
            description: One.
            use: db
            statement: SELECT 1 AS n
            """);
  }

  @AfterAll
  static void stop() {
    instance.close();
  }

  private CapturedLog log;

  private void captureLog(Level level) {
    restoreLogging();
    log = CapturedLog.asJson(level);
  }

  @AfterEach
  void restoreLogging() {
    if (log != null) {
      log.close();
    }
  }

  private static int post(String path, String authorization) throws IOException {
    try (RawHttp http = RawHttp.connect(instance.port())) {
      return http.send(
              "POST "
                  + path
                  + " HTTP/1.1\r\nHost: localhost\r\n"
                  + authorization
                  + "Content-Type: application/json\r\nAccept: application/json\r\n"
                  + "Content-Length: 2\r\n\r\n{}")
          .read()
          .status();
    }
  }

  @Test
  void requestsWithoutATokenAreRefusedAtDebugLevelWithTheirPathShortened() throws IOException {
    // before: one info line per refused request, with the whole path: 34 MB in 3 s
    captureLog(Level.INFO);
    for (int i = 0; i < 20; i++) {
      assertThat(post(LONG_PATH, "")).isEqualTo(401);
    }
    assertThat(log.text()).doesNotContain("request refused");

    captureLog(Level.DEBUG);
    assertThat(post(LONG_PATH, "")).isEqualTo(401);
    String debug = log.text();
    assertThat(debug).contains("request refused", "… (7007 characters)");
    assertThat(debug.length()).isLessThan(2_000);
  }

  @Test
  void whileTheIssuersKeysAreOutOfReachTheWarningIsWrittenOnceNotPerRequest() throws IOException {
    Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
    String token =
        base64.encodeToString("{\"alg\":\"RS256\",\"kid\":\"k1\"}".getBytes(StandardCharsets.UTF_8))
            + "."
            + base64.encodeToString(
                ("{\"iss\":\"https://auth.example.invalid/realms/shop\",\"sub\":\"x\","
                        + "\"aud\":\"https://shop.example.com/mcp\",\"exp\":9999999999}")
                    .getBytes(StandardCharsets.UTF_8))
            + ".AAAA";
    captureLog(Level.INFO);
    for (int i = 0; i < 20; i++) {
      assertThat(post(LONG_PATH, "Authorization: Bearer " + token + "\r\n")).isEqualTo(503);
    }
    String written = log.text();
    assertThat(written.split("cannot check an access token", -1)).hasSizeLessThanOrEqualTo(2);
    assertThat(written.length()).isLessThan(2_000);
  }
}
