package dev.svc.protocol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CompletionsTest {
  @Test
  void aPrefixMatchIgnoresCaseAndHowAccentsAreWritten() {
    assertThat(Completions.folded("İstanbul")).startsWith(Completions.folded("ist"));
    assertThat(Completions.folded("Éclair")).startsWith(Completions.folded("e"));
    assertThat(Completions.folded("e\u0301clair")).isEqualTo(Completions.folded("éclair"));
    assertThat(Completions.folded("JAVA")).isEqualTo("java");
  }
}
