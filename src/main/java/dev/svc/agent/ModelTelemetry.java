package dev.svc.agent;

import dev.svc.model.Agent;
import dev.svc.model.Provider;
import dev.svc.telemetry.Span;
import dev.svc.telemetry.SpanKind;
import dev.svc.telemetry.SvcMetrics;
import dev.svc.telemetry.Telemetry;
import java.util.function.Consumer;

/**
 * A model call inside a CLIENT span {@code chat <model>} and the {@code
 * gen_ai.client.operation.duration} metric, after the OpenTelemetry GenAI conventions. Prompts and
 * answers are never recorded; token counts are, when the provider reports them.
 */
final class ModelTelemetry {
  private ModelTelemetry() {}

  static Turn.Model generate(
      Agent agent, ModelClient client, ModelRequest request, Consumer<String> text) {
    long started = System.nanoTime();
    String provider = provider(agent.model().provider());
    String model = agent.model().model();
    Span span = Telemetry.tracer().start(SpanKind.CLIENT, "chat", model);
    if (span.isRecording()) {
      span.set("gen_ai.operation.name", "chat")
          .set("gen_ai.provider.name", provider)
          .set("gen_ai.request.model", model)
          .set("gen_ai.agent.name", agent.name());
    }
    String errorType = "";
    try {
      Turn.Model reply = client.generate(request, text);
      if (span.isRecording()) {
        reply.usage().inputTokens().ifPresent(n -> span.set("gen_ai.usage.input_tokens", n));
        reply.usage().outputTokens().ifPresent(n -> span.set("gen_ai.usage.output_tokens", n));
        span.set("svc.tool_calls", reply.toolCalls().size());
      }
      return reply;
    } catch (ModelCallInterruptedException e) {
      errorType = "canceled";
      span.fail(errorType, "the task was stopped");
      throw e;
    } catch (RuntimeException e) {
      errorType = e instanceof ModelException ? "model_error" : e.getClass().getName();
      span.fail(errorType, "the model call failed");
      throw e;
    } finally {
      span.end();
      SvcMetrics.MODEL_DURATION.recordSince(started, "chat", provider, model, errorType);
    }
  }

  /** The {@code gen_ai.provider.name} of a provider. */
  static String provider(Provider provider) {
    return switch (provider) {
      case OPENAI_COMPATIBLE -> "openai";
      case GEMINI -> "gcp.gemini";
      case VERTEX -> "gcp.vertex_ai";
    };
  }
}
