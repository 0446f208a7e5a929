package dev.svc.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A tool's authentication: a plugin and its policy.
 *
 * @param plugin {@code allow_all}, {@code api_key}, {@code jwt} or the name of a custom plugin
 * @param script the custom plugin's script; empty for built-in plugins
 * @param policy plugin parameters; values may hold env placeholders
 */
public record AuthPolicy(String plugin, Optional<ScriptRef> script, Map<String, EnvString> policy) {
  public static final String ALLOW_ALL = "allow_all";
  public static final String API_KEY = "api_key";
  public static final String JWT = "jwt";

  /** The policy keys of {@code jwt}. */
  public static final String JWT_ISSUER = "issuer";

  public static final String JWT_AUDIENCE = "audience";
  public static final String JWT_SCOPES = "scopes";
  public static final String JWT_JWKS_URI = "jwks_uri";

  public AuthPolicy {
    policy = Collections.unmodifiableMap(new LinkedHashMap<>(policy));
  }

  /** Which of a request's credential headers a plugin checks before the tool runs. */
  public enum CheckedCredentials {
    /** None: {@code allow_all} looks at nothing and lets a made-up key in. */
    NONE,
    /** {@code X-API-Key} alone: {@code api_key}. */
    API_KEY,
    /** {@code Authorization} alone: {@code jwt}. */
    AUTHORIZATION,
    /** Both: a custom plugin, which may read either. */
    BOTH
  }

  /**
   * The credentials the plugin checks before the tool runs, which alone may tell callers apart (for
   * rate limits): a header the plugin never looks at is the caller's to make up, a new value with
   * each call.
   */
  public CheckedCredentials checkedCredentials() {
    return switch (plugin) {
      case ALLOW_ALL -> CheckedCredentials.NONE;
      case API_KEY -> CheckedCredentials.API_KEY;
      case JWT -> CheckedCredentials.AUTHORIZATION;
      default -> CheckedCredentials.BOTH;
    };
  }
}
