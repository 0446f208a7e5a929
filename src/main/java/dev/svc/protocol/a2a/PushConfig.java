package dev.svc.protocol.a2a;

import dev.svc.call.ClientText;
import java.net.URI;
import java.util.Locale;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A2A v1 {@code TaskPushNotificationConfig}: where to POST a task's updates.
 *
 * @param token sent back in {@code X-A2A-Notification-Token} so the receiver can check the sender
 * @param authentication sent as {@code Authorization: <scheme> <credentials>}
 */
public record PushConfig(
    String id,
    String taskId,
    String url,
    Optional<String> token,
    Optional<Authentication> authentication) {

  /** A2A v1 {@code AuthenticationInfo}. */
  public record Authentication(String scheme, String credentials) {}

  public PushConfig withIds(String id, String taskId) {
    return new PushConfig(id, taskId, url, token, authentication);
  }

  public ObjectNode toJson() {
    ObjectNode out = Wire.object();
    out.put("id", id);
    out.put("taskId", taskId);
    out.put("url", url);
    Wire.putIfPresent(out, "token", token);
    authentication.ifPresent(a ->
        out.putObject("authentication")
            .put("scheme", a.scheme())
            .put("credentials", a.credentials()));
    return out;
  }

  /** Reads a config; {@code id} and {@code taskId} may be empty (the caller fills them in). */
  public static PushConfig fromJson(JsonNode json, String path) {
    if (!json.isObject()) {
      throw A2aErrors.invalidParams("`" + path + "` must be an object");
    }
    String url = Wire.requiredString(json, "url", path + ".url");
    URI uri;
    try {
      uri = URI.create(url);
    } catch (IllegalArgumentException e) {
      throw A2aErrors.invalidParams("`" + path + ".url` is not a URL: " + ClientText.shown(url));
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
      throw A2aErrors.invalidParams(
          "`" + path + ".url` must be an absolute http(s) URL with a host name or address");
    }
    if (uri.getRawUserInfo() != null) {
      throw A2aErrors.invalidParams(
          "`" + path + ".url` must not hold credentials; send them in `authentication`");
    }
    Optional<Authentication> authentication =
        Wire.object(json, "authentication", path + ".authentication")
            .map(a ->
                new Authentication(
                    headerSafe(
                        Wire.requiredString(a, "scheme", path + ".authentication.scheme"),
                        path + ".authentication.scheme"),
                    headerSafe(
                        Wire.string(a, "credentials", path + ".authentication.credentials")
                            .orElse(""),
                        path + ".authentication.credentials")));
    PushConfig config =
        new PushConfig(
            Wire.id(json, "id", path + ".id").orElse(""),
            Wire.id(json, "taskId", path + ".taskId").orElse(""),
            url,
            Wire.string(json, "token", path + ".token")
                .filter(s -> !s.isEmpty())
                .map(token -> headerSafe(token, path + ".token")),
            authentication);
    long chars =
        config.id().length()
            + config.taskId().length()
            + url.length()
            + config.token().map(String::length).orElse(0)
            + authentication.map(a -> a.scheme().length() + a.credentials().length()).orElse(0);
    if (chars > MAX_CHARS) {
      throw A2aErrors.invalidParams(
          "`"
              + path
              + "` is too large: a push config's id, task id, url, token and credentials are at"
              + " most "
              + MAX_CHARS / 1024
              + " KiB together");
    }
    return config;
  }

  /** The most characters of one config's strings: stored with its task, sent with each push. */
  static final int MAX_CHARS = 16 * 1024;

  /**
   * Whether a value can be sent as an HTTP header value: no control characters but tab, no
   * characters beyond Latin-1 (a line break would start another header, or another request).
   */
  static boolean isHeaderSafe(String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if ((c < 0x20 && c != '\t') || c == 0x7f || c > 0xff) {
        return false;
      }
    }
    return true;
  }

  private static String headerSafe(String value, String path) {
    if (!isHeaderSafe(value)) {
      throw A2aErrors.invalidParams(
          "`" + path + "` is sent as an HTTP header: no control characters or line breaks");
    }
    return value;
  }
}
