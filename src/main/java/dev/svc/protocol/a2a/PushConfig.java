package dev.svc.protocol.a2a;

import java.net.URI;
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
      throw A2aErrors.invalidParams("`" + path + ".url` is not a URL: " + url);
    }
    if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
        || uri.getHost() == null) {
      throw A2aErrors.invalidParams("`" + path + ".url` must be an absolute http(s) URL");
    }
    Optional<Authentication> authentication =
        Wire.object(json, "authentication", path + ".authentication")
            .map(a ->
                new Authentication(
                    Wire.requiredString(a, "scheme", path + ".authentication.scheme"),
                    Wire.string(a, "credentials", path + ".authentication.credentials")
                        .orElse("")));
    return new PushConfig(
        Wire.string(json, "id", path + ".id").orElse(""),
        Wire.string(json, "taskId", path + ".taskId").orElse(""),
        url,
        Wire.string(json, "token", path + ".token").filter(s -> !s.isEmpty()),
        authentication);
  }
}
