package dev.svc.script;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.model.Model;
import dev.svc.testing.ProjectFixture;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TypeCheckerTest {
  @TempDir Path work;

  private static final String WEATHER =
      """
      == .svc
      name: shop
      == app/tools/get_weather/config.terse
      description: The weather.
      inputs:
        city:
          description: A city.
        days:
          type: int
          default: "3"
      """;

  private List<String> check(String files) {
    Model model = ProjectFixture.model(work, files);
    return TypeChecker.check(work, model).stream().map(ProjectFixture::line).toList();
  }

  @Test
  void aMisspeltInputIsATypeErrorAtItsPosition() {
    List<String> found =
        check(
            WEATHER
                + """
                == app/tools/get_weather/handler.ts
                export default ({ inputs }: Svc.HandlerPayload<"get_weather">) => {
                  return inputs.dayz * 2;
                };
                """);

    assertThat(found)
        .containsExactly(
            "app/tools/get_weather/handler.ts:2:17: error[type-error]: TS2339: Property 'dayz'"
                + " does not exist on type '{ city: string; days: number; }'.");
  }

  @Test
  void aCorrectProjectHasNoTypeErrors() {
    List<String> found =
        check(
            WEATHER
                + """
                == app/tools/get_weather/handler.ts
                export default async ({ inputs }: Svc.HandlerPayload<"get_weather">) => {
                  const res = await fetch(`https://example.com/${encodeURIComponent(inputs.city)}`);
                  console.log("days", inputs.days);
                  return { weather: await res.json(), days: inputs.days * 2 };
                };
                """);

    assertThat(found).isEmpty();
  }

  @Test
  void aHandlerWhosePayloadTypeNamesAnotherInputIsAnErrorAtTheExport() {
    List<String> found =
        check(
            WEATHER
                + """
                == app/tools/get_weather/handler.ts
                interface Payload {
                  inputs: { city: string; dayz: number };
                }

                export default function handler({ inputs }: Payload) {
                  return inputs.dayz;
                }
                """);

    assertThat(found).hasSize(1);
    assertThat(found.getFirst())
        .startsWith(
            "app/tools/get_weather/handler.ts:5:1: error[type-error]: TS2322: the default export"
                + " is the handler but does not have its type:")
        .contains("'dayz'");
  }
}
