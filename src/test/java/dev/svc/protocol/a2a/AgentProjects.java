package dev.svc.protocol.a2a;

/** The project the A2A integration tests serve: three tools and agents of every tool access. */
final class AgentProjects {
  private AgentProjects() {}

  static final String SHOP =
      """
      == .svc
      name: shop
      version: 2.1.0
      server:
        allowed_hosts: [agents.example.com]
      agents:
        tool_access:
          mode: allow_list
          tools: [get_weather]
        push_notifications:
          allowed_networks: [127.0.0.1]
      == app/adapters/db.terse
      connector: sqlite
      connection_string: ":memory:"
      == app/tools/get_weather/config.terse
      description: Weather forecast for a city.
      use: db
      statement: SELECT {{ inputs.city }} AS city, 'sunny' AS forecast
      inputs:
        city:
          type: string
          description: The city.
      == app/tools/weather_archive/config.terse
      description: Past weather of a city.
      use: db
      statement: SELECT * FROM weather_archive WHERE city = {{ inputs.city }}
      inputs:
        city:
          type: string
      == app/tools/secret_report/config.terse
      description: A report only callers with the key may read.
      use: db
      statement: SELECT 'classified' AS report, {{ inputs.city }} AS city
      inputs:
        city:
          type: string
      auth:
        plugin: api_key
        policy:
          value: s3cret
      == app/tools/drop_tables/config.terse
      description: Deletes every table.
      use: db
      statement: DELETE FROM weather WHERE city = {{ inputs.city }}
      inputs:
        city:
          type: string
      == app/agents/weather/config.terse
      description: Answers questions about the weather.
      instruction: You are a weather assistant.
      model:
        provider: openai
        model: gpt-test
        options:
          base_url: {{MODEL}}/v1
          api_key: "{{ env.TEST_OPENAI_KEY }}"
          temperature: 0.2
          max_tokens: 100
      tool_access:
        mode: allow_list
        tools: [get_weather, secret_report, weather_archive]
      == app/agents/gem/config.terse
      instruction: You are Gem.
      model:
        provider: Google-AI-Studio
        model: gemini-2.5-flash
        options:
          base_url: {{MODEL}}/v1beta
          api_key: gem-key
          temperature: 0.5
          max_tokens: 64
      == app/agents/chat/config.terse
      instruction: You chat.
      model:
        provider: openai_compatible
        model: small
        options:
          base_url: {{MODEL}}/v1
          max_steps: 2
      tool_access:
        mode: allow_none
      == app/agents/busy/config.terse
      instruction: You call tools a lot.
      model:
        provider: openai_compatible
        model: small
        options:
          base_url: {{MODEL}}/v1
          max_steps: 2
      tool_access:
        mode: allow_all
      """;
}
