package dev.svc.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.call.VerifiedToken;
import dev.svc.json.Json;
import dev.svc.model.Tool;
import dev.svc.testing.WeatherProject;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

/** How claims of the verified token become bound values: from the token, and only from it. */
class BoundValuesTest {
  @TempDir Path directory;
  private Tool tool;

  private static final VerifiedToken ALICE =
      new VerifiedToken(
          "alice",
          Set.of("orders:read"),
          Instant.parse("2030-01-01T00:00:00Z"),
          claims(
              "sub",
              "alice",
              "tenant",
              42L,
              "admin",
              false,
              "ratio",
              0.5,
              "groups",
              List.of("a", "b"),
              "realm_access",
              Map.of("roles", List.of("reader")),
              "address",
              Map.of("region", "north"),
              "nothing",
              null));

  private static Map<String, Object> claims(Object... pairs) {
    Map<String, Object> claims = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      claims.put((String) pairs[i], pairs[i + 1]);
    }
    return claims;
  }

  @BeforeEach
  void compile() {
    tool = WeatherProject.model(directory).tool("weather").orElseThrow();
  }

  private BoundValues.Result bind(
      ObjectNode inputs, Optional<VerifiedToken> token, String... names) {
    return BoundValues.of(tool, inputs, Arrays.asList(names), token);
  }

  @Test
  void claimsBindAsTheirJsonScalarsAndListsAndObjectsAsJsonText() {
    BoundValues.Result result =
        bind(
            Json.NODES.objectNode(),
            Optional.of(ALICE),
            "auth.claims.sub",
            "auth.claims.tenant",
            "auth.claims.admin",
            "auth.claims.ratio",
            "auth.claims.groups",
            "auth.claims.realm_access.roles",
            "auth.claims.address.region",
            "auth.claims.address");
    Map<String, Object> expected = new HashMap<>();
    expected.put("auth.claims.sub", "alice");
    expected.put("auth.claims.tenant", 42L);
    expected.put("auth.claims.admin", false);
    expected.put("auth.claims.ratio", 0.5);
    expected.put("auth.claims.groups", "[\"a\",\"b\"]");
    expected.put("auth.claims.realm_access.roles", "[\"reader\"]");
    expected.put("auth.claims.address.region", "north");
    expected.put("auth.claims.address", "{\"region\":\"north\"}");
    assertThat(result).isEqualTo(new BoundValues.Values(expected));
  }

  @Test
  void anInputNamedLikeAClaimNeverStandsInForIt() {
    // what an input transform returning {"auth.claims.sub": "bob"} hands the statement
    ObjectNode inputs = Json.NODES.objectNode().put("auth.claims.sub", "bob");
    assertThat(bind(inputs, Optional.of(ALICE), "auth.claims.sub"))
        .isEqualTo(new BoundValues.Values(Map.of("auth.claims.sub", "alice")));
    assertThat(bind(inputs, Optional.empty(), "auth.claims.sub"))
        .isEqualTo(new BoundValues.NoToken("sub"));
    assertThat(bind(inputs, Optional.of(ALICE), "auth.claims.email"))
        .isEqualTo(new BoundValues.MissingClaim("email"));
  }

  @Test
  void aClaimTheTokenLacksOrHoldsAsNullFailsInsteadOfBindingNull() {
    assertThat(bind(Json.NODES.objectNode(), Optional.of(ALICE), "auth.claims.email"))
        .isEqualTo(new BoundValues.MissingClaim("email"));
    assertThat(bind(Json.NODES.objectNode(), Optional.of(ALICE), "auth.claims.nothing"))
        .isEqualTo(new BoundValues.MissingClaim("nothing"));
    assertThat(bind(Json.NODES.objectNode(), Optional.of(ALICE), "auth.claims.sub.first"))
        .isEqualTo(new BoundValues.MissingClaim("sub.first"));
    assertThat(bind(Json.NODES.objectNode(), Optional.of(ALICE), "auth.claims.address.city"))
        .isEqualTo(new BoundValues.MissingClaim("address.city"));
  }

  @Test
  void inputsAndClaimsBindTogether() {
    ObjectNode inputs = Json.NODES.objectNode().put("city", "Oslo");
    assertThat(bind(inputs, Optional.of(ALICE), "city", "auth.claims.sub"))
        .isEqualTo(new BoundValues.Values(Map.of("city", "Oslo", "auth.claims.sub", "alice")));
  }
}
