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

  /**
   * Whether the plugin checks the caller's credentials before the tool runs, so that they may tell
   * callers apart (for rate limits): every plugin but {@code allow_all}, which looks at nothing and
   * lets a made-up key in.
   */
  public boolean checksCredentials() {
    return !plugin.equals(ALLOW_ALL);
  }
}
