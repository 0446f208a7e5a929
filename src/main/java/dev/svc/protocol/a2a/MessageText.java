package dev.svc.protocol.a2a;

import dev.svc.json.Json;
import java.util.ArrayList;
import java.util.List;

/** The text of a message as the model reads it: text parts, and data parts as JSON. */
final class MessageText {
  private MessageText() {}

  /**
   * The text of a new user message.
   *
   * @throws dev.svc.protocol.jsonrpc.JsonRpcException content-type-not-supported for file parts
   *     ({@code raw}, {@code url}): agents read text and data
   */
  static String of(Message message) {
    List<String> texts = new ArrayList<>();
    for (Part part : message.parts()) {
      switch (part.content()) {
        case Part.Text text -> texts.add(text.text());
        case Part.Data data -> texts.add(Json.MAPPER.writeValueAsString(data.data()));
        case Part.Raw ignored ->
            throw A2aErrors.contentTypeNotSupported(
                "Incompatible content types: this agent reads text and data parts, not files"
                    + part.mediaType().map(t -> " (" + t + ")").orElse(""));
        case Part.Url ignored ->
            throw A2aErrors.contentTypeNotSupported(
                "Incompatible content types: this agent reads text and data parts, not file URLs");
      }
    }
    return String.join("\n", texts);
  }

  /** The text of a stored message; file parts are named, not read. */
  static String lenient(Message message) {
    List<String> texts = new ArrayList<>();
    for (Part part : message.parts()) {
      switch (part.content()) {
        case Part.Text text -> texts.add(text.text());
        case Part.Data data -> texts.add(Json.MAPPER.writeValueAsString(data.data()));
        case Part.Raw ignored -> texts.add("[file " + part.filename().orElse("") + "]");
        case Part.Url url -> texts.add("[file " + url.url() + "]");
      }
    }
    return String.join("\n", texts);
  }
}
