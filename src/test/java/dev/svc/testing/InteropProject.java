package dev.svc.testing;

/**
 * The project official MCP clients are tested against: a database tool that answers ({@code add}),
 * one that fails ({@code broken}), a script tool that logs ({@code greet}), one whose inputs
 * 2026-07-28 clients copy into {@code Mcp-Param-*} headers ({@code in_region}), one that needs the
 * API key {@code letmein} ({@code secret}), a prompt with a completable argument ({@code review})
 * and a file resource ({@code docs://guide}).
 */
public final class InteropProject {
  private InteropProject() {}

  /** The project's files, in {@link ProjectFixture}'s {@code == path} format. */
  public static final String FILES =
      """
      == .svc
      name: interop
      == app/adapters/db.terse
      connector: sqlite
      connection_string: ":memory:"
      == app/tools/add/config.terse
      description: Adds two numbers.
      use: db
      statement: SELECT {{ inputs.a }} + {{ inputs.b }} AS sum
      inputs:
        a: {type: int}
        b: {type: int}
      == app/tools/broken/config.terse
      description: Fails.
      use: db
      statement: SELECT * FROM missing_table
      == app/tools/greet/config.terse
      description: Greets and says so in the log.
      inputs:
        name: {type: string}
      == app/tools/greet/handler.ts
      export default ({ inputs }: { inputs: { name: string } }) => {
        console.info(`greeting ${inputs.name}`);
        console.debug("a detail");
        return { greeting: `Hello ${inputs.name}` };
      };
      == app/tools/in_region/config.terse
      description: Echoes where it runs; gateways route on its headers.
      use: db
      statement: SELECT {{ inputs.region }} AS region, {{ inputs.zone }} AS zone
      inputs:
        region: {type: string, header: Region}
        zone: {type: int, header: Zone}
      == app/tools/secret/config.terse
      description: Tells a secret to callers with the key.
      use: db
      statement: SELECT 'classified' AS secret
      auth:
        plugin: api_key
        policy:
          value: letmein
      == app/tools/forget/config.terse
      description: Forgets someone, once the user agreed.
      use: db
      statement: SELECT {{ inputs.name }} AS forgotten
      confirm: "Forget {{ inputs.name }}?"
      inputs:
        name: {type: string}
      == app/tools/rename/config.terse
      description: Asks the user for a new name.
      == app/tools/rename/handler.ts
      export default async () => {
        const answer = await mcp.elicit({
          message: "New name?",
          schema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
        });
        return { action: answer.action, name: answer.content?.name ?? null };
      };
      == app/prompts/review.terse
      description: Ask for a review.
      arguments:
        language: {required: true, completion: [java, javascript, python]}
      messages:
        - role: user
          text: Review this {{ language }} code.
      == app/resources/guide/config.terse
      name: guide
      uri: docs://guide
      mime_type: text/markdown
      file: guide.md
      == app/resources/guide/guide.md
      # Guide
      """;
}
