package dev.svc.runtime;

import dev.svc.call.VerifiedToken;
import dev.svc.connector.StatementOptions.SessionSetting;
import dev.svc.json.Json;
import dev.svc.model.DatabaseSession;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A tool's {@code session} for one call: each value taken from the project or from the caller's
 * verified claims, and the role checked against the allow-list. A claim the token lacks refuses the
 * call (never an empty setting, which a policy might read as "no restriction").
 */
final class SessionValues {
  private SessionValues() {}

  sealed interface Result {}

  /** The settings to make, the role (as setting {@code role}) last. */
  record Settings(List<SessionSetting> settings) implements Result {}

  /** The call cannot run; {@code message} is safe to show the caller. */
  record Refused(String message) implements Result {}

  /**
   * @param token the call's verified access token, if it has one
   */
  static Result of(DatabaseSession session, Optional<VerifiedToken> token) {
    List<SessionSetting> settings = new ArrayList<>(session.settings().size() + 1);
    for (DatabaseSession.Setting setting : session.settings()) {
      switch (value(setting.value(), token)) {
        case Missing missing -> {
          return new Refused(missing.message());
        }
        case Text text -> settings.add(new SessionSetting(setting.name(), text.text()));
      }
    }
    if (session.role().isPresent()) {
      DatabaseSession.Value written = session.role().get();
      switch (value(written, token)) {
        case Missing missing -> {
          return new Refused(missing.message());
        }
        case Text text -> {
          if (!session.allowedRoles().isEmpty() && !session.allowedRoles().contains(text.text())) {
            return new Refused(
                "the role "
                    + (written instanceof DatabaseSession.Value.Claim claim
                        ? "in claim `" + claim.name() + "`"
                        : "`" + text.text() + "`")
                    + " is not one this tool may run as");
          }
          settings.add(new SessionSetting("role", text.text()));
        }
      }
    }
    return new Settings(settings);
  }

  private sealed interface Resolved {}

  private record Text(String text) implements Resolved {}

  private record Missing(String message) implements Resolved {}

  private static Resolved value(DatabaseSession.Value value, Optional<VerifiedToken> token) {
    return switch (value) {
      case DatabaseSession.Value.Literal literal -> new Text(literal.text());
      case DatabaseSession.Value.Claim claim -> {
        if (token.isEmpty()) {
          yield new Missing(
              "the session uses the claim `"
                  + claim.name()
                  + "` of an access token, and the call carries none");
        }
        Optional<Object> found = token.get().claim(claim.name());
        if (found.isEmpty()) {
          yield new Missing("the token carries no claim `" + claim.name() + "`");
        }
        yield new Text(text(found.get()));
      }
    };
  }

  /** A claim's value as a setting's text: strings as they are, anything else as JSON. */
  private static String text(Object claim) {
    return claim instanceof String s ? s : Json.MAPPER.writeValueAsString(claim);
  }
}
