package dev.svc.runtime;

import dev.svc.call.VerifiedToken;
import dev.svc.json.Json;
import dev.svc.json.JsonSchema;
import dev.svc.model.Execution;
import dev.svc.model.Tool;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the {@link ToolPipeline} works out once per tool when the runtime starts, instead of on
 * every call: the inputs a statement binds, the claims that key its cached results, its compiled
 * {@code input_schema}, and whether it offers continuation cursors.
 */
final class PreparedTools {
  /** Per tool that runs a statement: the inputs it binds, worked out once, not on every call. */
  private final Map<String, List<String>> boundInputs;

  /**
   * Per tool whose statement or session reads claims: their names ({@code auth.claims.<name>}),
   * which key its cached results beside the principal.
   */
  private final Map<String, List<String>> keyedClaims;

  /** Per tool that declares an {@code input_schema}: that schema, compiled once. */
  private final Map<String, JsonSchema> argumentSchemas;

  /** The tools that offer continuation cursors ({@link PageCursors#offeredBy}). */
  private final Set<String> continuable;

  PreparedTools(List<Tool> tools) {
    Map<String, List<String>> bound = new HashMap<>();
    Map<String, List<String>> keyed = new HashMap<>();
    Set<String> continued = new HashSet<>();
    Map<String, JsonSchema> schemas = new HashMap<>();
    for (Tool tool : tools) {
      tool.inputSchema().ifPresent(schema -> schemas.put(tool.name(), compiled(tool, schema)));
      if (readsAllClaims(tool)) {
        keyed.put(tool.name(), List.of(ALL_CLAIMS));
      }
      if (tool.execution() instanceof Execution.OnAdapter onAdapter) {
        bound.put(tool.name(), onAdapter.statement().inputNames());
        List<String> claims = new ArrayList<>();
        onAdapter.statement().inputNames().stream()
            .filter(n -> n.startsWith(BoundValues.CLAIMS))
            .forEach(claims::add);
        onAdapter
            .session()
            .ifPresent(
                session -> session.claimNames().forEach(n -> claims.add(BoundValues.CLAIMS + n)));
        if (!claims.isEmpty() && !keyed.containsKey(tool.name())) {
          keyed.put(tool.name(), List.copyOf(claims));
        }
      }
      if (PageCursors.offeredBy(tool)) {
        continued.add(tool.name());
      }
    }
    this.boundInputs = Map.copyOf(bound);
    this.keyedClaims = Map.copyOf(keyed);
    this.argumentSchemas = Map.copyOf(schemas);
    this.continuable = Set.copyOf(continued);
  }

  /** The inputs the statement of {@code tool} binds (null for a tool without a statement). */
  List<String> boundInputs(Tool tool) {
    return boundInputs.get(tool.name());
  }

  /** The compiled {@code input_schema} of {@code tool}, or null when it declares none. */
  JsonSchema argumentSchema(Tool tool) {
    return argumentSchemas.get(tool.name());
  }

  /** Whether a cut page of {@code tool} gets the cursor of the next one. */
  boolean offersCursors(Tool tool) {
    return continuable.contains(tool.name());
  }

  /**
   * The claims a tool's statement binds or its session sets, for its cache key: the subject alone
   * would let a result read with one tenant or role outlive a change of them in the subject's next
   * token.
   */
  String claimsKey(Tool tool, Optional<VerifiedToken> token) {
    List<String> names = keyedClaims.getOrDefault(tool.name(), List.of());
    if (token.isEmpty() || names.isEmpty()) {
      return "";
    }
    if (names.getFirst().equals(ALL_CLAIMS)) {
      ObjectNode claims = Json.MAPPER.valueToTree(token.get().claims());
      claims.remove(PER_TOKEN_CLAIMS);
      return "\n" + ALL_CLAIMS + "=" + Json.canonical(claims);
    }
    StringBuilder key = new StringBuilder();
    for (String name : names) {
      if (name.startsWith(BoundValues.CLAIMS)) {
        Object value = token.get().claim(name.substring(BoundValues.CLAIMS.length())).orElse(null);
        key.append('\n').append(name).append('=').append(Json.MAPPER.writeValueAsString(value));
      }
    }
    return key.toString();
  }

  /** The key entry of a tool whose scripts see every claim ({@code auth.claims}). */
  private static final String ALL_CLAIMS = "auth.claims.*";

  /**
   * Claims that change with every token of the same grant and tell nothing of who calls or in what
   * role: left out of an all-claims key, or no token's result would be found by the next token.
   */
  private static final List<String> PER_TOKEN_CLAIMS = List.of("exp", "iat", "nbf", "jti");

  /**
   * Whether a script of {@code tool} (its handler, input or output transform) runs: it is given the
   * caller's claims ({@code auth.claims}) and may answer by any of them, so its cached results are
   * keyed by all of them, not by the subject alone (one tenant's answer served in another's).
   */
  private static boolean readsAllClaims(Tool tool) {
    return tool.execution() instanceof Execution.Handler
        || tool.inputMapper().isPresent()
        || tool.outputMapper().isPresent();
  }

  /**
   * A tool's declared input schema, compiled. The compiler compiled it too before accepting it, so
   * failing here means a model the compiler did not check: a bug, not a user's mistake.
   */
  private static JsonSchema compiled(Tool tool, String schema) {
    return switch (JsonSchema.compile(Json.MAPPER.readTree(schema))) {
      case JsonSchema.Valid valid -> valid.schema();
      case JsonSchema.Refused refused ->
          throw new IllegalStateException(
              "the input_schema of tool `"
                  + tool.name()
                  + "` does not compile: "
                  + refused.message());
    };
  }
}
