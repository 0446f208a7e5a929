package dev.svc.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.call.VerifiedToken;
import dev.svc.connector.StatementOptions.SessionSetting;
import dev.svc.model.DatabaseSession;
import dev.svc.model.DatabaseSession.Setting;
import dev.svc.model.DatabaseSession.Value.Claim;
import dev.svc.model.DatabaseSession.Value.Literal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SessionValuesTest {
  static final DatabaseSession NOTES =
      new DatabaseSession(
          List.of(
              new Setting("app.user_id", new Claim("sub")),
              new Setting("app.groups", new Claim("realm_access.roles")),
              new Setting("app.via", new Literal("mcp"))),
          Optional.of(new Claim("db_role")),
          List.of("notes_reader", "notes_admin"));

  static final Map<String, Object> ALICE =
      Map.of(
          "sub", "alice",
          "db_role", "notes_reader",
          "realm_access", Map.of("roles", List.of("staff", "admin")));

  static Optional<VerifiedToken> token(Map<String, Object> claims) {
    return Optional.of(
        new VerifiedToken(
            (String) claims.get("sub"), Set.of(), Instant.now().plusSeconds(60), claims));
  }

  @Test
  void claimsAndLiteralsBecomeSettingsWithTheRoleLast() {
    assertThat(SessionValues.of(NOTES, token(ALICE)))
        .isEqualTo(
            new SessionValues.Settings(
                List.of(
                    new SessionSetting("app.user_id", "alice"),
                    new SessionSetting("app.groups", "[\"staff\",\"admin\"]"),
                    new SessionSetting("app.via", "mcp"),
                    new SessionSetting("role", "notes_reader"))));
  }

  @Test
  void aMissingClaimRefusesTheCallInsteadOfSettingNothing() {
    Map<String, Object> noRoles = Map.of("sub", "bob", "db_role", "notes_reader");

    assertThat(SessionValues.of(NOTES, token(noRoles)))
        .isEqualTo(new SessionValues.Refused("the token carries no claim `realm_access.roles`"));
    assertThat(SessionValues.of(NOTES, Optional.empty()))
        .isEqualTo(
            new SessionValues.Refused(
                "the session uses the claim `sub` of an access token, and the call carries none"));
  }

  @Test
  void aRoleOutsideTheAllowListIsRefusedWithoutEchoingIt() {
    Map<String, Object> mallory =
        Map.of("sub", "m", "db_role", "postgres", "realm_access", Map.of("roles", List.of()));

    assertThat(SessionValues.of(NOTES, token(mallory)))
        .isEqualTo(
            new SessionValues.Refused(
                "the role in claim `db_role` is not one this tool may run as"));
  }

  @Test
  void aLiteralRoleWithoutAllowListIsTaken() {
    DatabaseSession reader =
        new DatabaseSession(List.of(), Optional.of(new Literal("notes_reader")), List.of());

    assertThat(SessionValues.of(reader, Optional.empty()))
        .isEqualTo(new SessionValues.Settings(List.of(new SessionSetting("role", "notes_reader"))));
  }
}
