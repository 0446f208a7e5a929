package dev.svc.protocol.a2a;

import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * A2A v1 {@code SendMessageConfiguration}.
 *
 * @param historyLength how much history the returned task shows (see {@link Task#view})
 * @param returnImmediately answer at once with the submitted task instead of waiting for the end
 */
public record SendConfiguration(
    List<String> acceptedOutputModes,
    Optional<PushConfig> pushConfig,
    Optional<Integer> historyLength,
    boolean returnImmediately) {

  public static final SendConfiguration DEFAULT =
      new SendConfiguration(List.of(), Optional.empty(), Optional.empty(), false);

  public static SendConfiguration fromJson(JsonNode json, String path) {
    if (!json.isObject()) {
      throw A2aErrors.invalidParams("`" + path + "` must be an object");
    }
    Optional<Integer> historyLength = Wire.integer(json, "historyLength", path + ".historyLength");
    if (historyLength.isPresent() && historyLength.get() < 0) {
      throw A2aErrors.invalidParams("`" + path + ".historyLength` must not be negative");
    }
    return new SendConfiguration(
        Wire.strings(json, "acceptedOutputModes", path + ".acceptedOutputModes"),
        Wire.field(json, "taskPushNotificationConfig")
            .map(c -> PushConfig.fromJson(c, path + ".taskPushNotificationConfig")),
        historyLength,
        Wire.bool(json, "returnImmediately", path + ".returnImmediately"));
  }
}
