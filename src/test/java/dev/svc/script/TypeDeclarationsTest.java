package dev.svc.script;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.model.Model;
import dev.svc.testing.ProjectFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TypeDeclarationsTest {
  @TempDir Path work;

  @Test
  void eachInputTypeBecomesItsTypeScriptTypeAndOnlyInputsWithoutDefaultMayBeAbsent() {
    Model model =
        ProjectFixture.model(
            work,
            """
            == .svc
            name: shop
            == app/tools/report/config.terse
            description: A report.
            inputs:
              title:
                description: "The title, */ not a comment end."
              pages:
                type: int
                optional: true
              ratio:
                type: float
                default: "0.5"
              draft:
                type: boolean
                optional: true
              since:
                type: datetime
            == app/tools/report/handler.ts
            export default () => 1;
            """);

    assertThat(TypeDeclarations.of(model))
        .contains(
            """
                "report": {
                  inputs: {
                    /** The title, * / not a comment end. */
                    title: string;
                    pages?: number;
                    ratio: number;
                    draft?: boolean;
                    since: string;
                  };
                  handlerInputs: Tools["report"]["inputs"];
                };
            """);
  }

  @Test
  void anInputSchemaBecomesTheTypeItDescribesReferencesResolved() {
    Model model =
        ProjectFixture.model(
            work,
            """
            == .svc
            name: shop
            == app/tools/add_contact/config.terse
            description: Records a contact.
            input_schema:
              type: object
              $defs:
                address:
                  type: object
                  properties:
                    city: {type: string}
                  required: [city]
              properties:
                name: {type: string, description: Full name.}
                address: {$ref: "#/$defs/address"}
                method: {type: string, enum: [phone, email]}
                tags: {type: array, items: {type: string}}
                age: {type: [integer, "null"]}
              required: [name]
              additionalProperties: false
            == app/tools/add_contact/handler.ts
            export default () => 1;
            """);

    assertThat(TypeDeclarations.of(model))
        .contains(
            """
                  inputs: {
                    /** Full name. */
                    name: string;
                    address?: {
                      city: string;
                    };
                    method?: "phone" | "email";
                    tags?: Array<string>;
                    age?: number | null;
                  };
            """);
  }

  @Test
  void anInputTransformsReturnTypeIsWhatTheHandlerGetsAndPluginsListTheirTools() {
    Model model =
        ProjectFixture.model(
            work,
            """
            == .svc
            name: shop
            == app/plugins/tenant.ts
            export default () => true;
            == app/tools/find/config.terse
            description: Finds.
            mappers:
              input: transforms.ts#normalise
            auth:
              plugin: tenant
            inputs:
              name:
                description: A name.
            == app/tools/find/transforms.ts
            export function normalise() { return { name: "x" }; }
            == app/tools/find/handler.ts
            export default () => 1;
            """);

    String declarations = TypeDeclarations.of(model);

    assertThat(declarations)
        .contains(
            "handlerInputs: Awaited<ReturnType<(typeof"
                + " import(\"../app/tools/find/transforms\"))[\"normalise\"]>>;")
        .contains("\"tenant\": { tools: \"find\" };");
  }

  @Test
  void writingLeavesAnUnchangedFileAlone() throws Exception {
    Model model =
        ProjectFixture.model(
            work,
            """
            == .svc
            name: shop
            == app/tools/hello/config.terse
            description: Hello.
            == app/tools/hello/handler.ts
            export default () => 1;
            """);
    TypeDeclarations.write(work, model);
    Path file = work.resolve(".svc-types/svc.d.ts");
    Files.setLastModifiedTime(file, java.nio.file.attribute.FileTime.fromMillis(0));

    TypeDeclarations.write(work, model);

    assertThat(Files.getLastModifiedTime(file).toMillis()).isZero();
    assertThat(work.resolve(".svc-types/sandbox.d.ts")).content().contains("declare const mcp");
  }

  @Test
  void aRecursiveOrExplodingSchemaGivesABoundedType() {
    StringBuilder defs = new StringBuilder();
    for (int i = 0; i < 20; i++) {
      String next = i == 19 ? "{type: string}" : "{$ref: \"#/$defs/d" + (i + 1) + "\"}";
      defs.append("    d").append(i).append(":\n      type: object\n      properties:\n");
      for (String key : List.of("a", "b", "c")) {
        defs.append("        ").append(key).append(": ").append(next).append("\n");
      }
    }
    Model model =
        ProjectFixture.model(
            work,
            """
            == .svc
            name: shop
            == app/tools/tree/config.terse
            description: A tree.
            input_schema:
              type: object
              $defs:
                node:
                  type: object
                  properties:
                    children: {type: array, items: {$ref: "#/$defs/node"}}
            %s  properties:
                root: {$ref: "#/$defs/node"}
                wide: {$ref: "#/$defs/d0"}
            == app/tools/tree/handler.ts
            export default () => 1;
            """
                .formatted(defs));

    String declarations = TypeDeclarations.of(model);

    assertThat(declarations).contains("children?: Array<any>;");
    assertThat(declarations.length()).isLessThan(200_000);
  }
}
