package dev.svc.suite.run;

import dev.svc.json.Json;
import dev.svc.model.Model;
import dev.svc.model.Prompt;
import dev.svc.runtime.ProjectRuntime;
import dev.svc.runtime.PromptRenderer;
import dev.svc.runtime.ResourceContents;
import dev.svc.suite.Answer;
import dev.svc.suite.PromptCase;
import dev.svc.suite.ResourceCase;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Prompt and resource cases answered as an MCP {@code prompts/get} and {@code resources/read} would
 * be, by the same runtime parts ({@link PromptRenderer}, {@link ResourceContents}), in the JSON a
 * test file describes.
 */
final class ContentAnswers {
  private ContentAnswers() {}

  /**
   * The messages as {@code [{"role": …, "text": …}, …]}: an image is {@code {"role", "image": <MIME
   * type>}}, an embedded resource {@code {"role", "resource": <URI>, "text"}}.
   */
  static Answer prompt(ProjectRuntime runtime, Model model, PromptCase testCase) {
    Prompt prompt =
        model
            .prompt(testCase.prompt())
            .orElseThrow(() -> new IllegalStateException("no prompt " + testCase.prompt()));
    List<String> missing = PromptRenderer.missingRequired(prompt, testCase.arguments());
    if (!missing.isEmpty()) {
      // the words of prompts/get's refusal (an invalid-params error there)
      return Answer.failure(PromptRenderer.missingMessage(prompt, missing));
    }
    List<PromptRenderer.Rendered> rendered;
    try {
      rendered = runtime.prompts().render(prompt, testCase.arguments());
    } catch (PromptRenderer.UnknownResourceException e) {
      return Answer.failure("Resource not found: " + e.uri());
    } catch (ResourceContents.InvalidPathException
        | ResourceContents.TooLargeException
        | PromptRenderer.TooLargeException e) {
      return Answer.failure(e.getMessage());
    }
    ArrayNode messages = Json.NODES.arrayNode();
    for (PromptRenderer.Rendered message : rendered) {
      ObjectNode item = messages.addObject();
      item.put("role", message.role().name().toLowerCase(Locale.ROOT));
      switch (message.content()) {
        case PromptRenderer.Text text -> item.put("text", text.text());
        case PromptRenderer.Image image -> item.put("image", image.mimeType());
        case PromptRenderer.Resource resource -> {
          item.put("resource", uri(resource.content()));
          if (resource.content() instanceof ResourceContents.Text text) {
            item.put("text", text.text());
          }
        }
      }
    }
    return Answer.success(messages, false);
  }

  /** The content as {@code {"uri", "mime_type", "text"}}, or {@code "blob"} in base64. */
  static Answer resource(ProjectRuntime runtime, ResourceCase testCase) {
    Optional<ResourceContents.Content> content;
    try {
      content = runtime.resources().read(testCase.uri());
    } catch (ResourceContents.InvalidPathException
        | ResourceContents.TooLargeException
        | PromptRenderer.TooLargeException
        | IllegalArgumentException e) {
      return Answer.failure(e.getMessage());
    }
    if (content.isEmpty()) {
      return Answer.failure("Resource not found: " + testCase.uri());
    }
    ObjectNode json = Json.NODES.objectNode();
    switch (content.get()) {
      case ResourceContents.Text text -> {
        json.put("uri", text.uri());
        json.put("mime_type", text.mimeType());
        json.put("text", text.text());
      }
      case ResourceContents.Blob blob -> {
        json.put("uri", blob.uri());
        json.put("mime_type", blob.mimeType());
        json.put("blob", Base64.getEncoder().encodeToString(blob.bytes()));
      }
    }
    return Answer.success(json, false);
  }

  private static String uri(ResourceContents.Content content) {
    return switch (content) {
      case ResourceContents.Text text -> text.uri();
      case ResourceContents.Blob blob -> blob.uri();
    };
  }
}
