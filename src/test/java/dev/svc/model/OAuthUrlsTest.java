package dev.svc.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.diagnostic.Diagnostic;
import dev.svc.diagnostic.Origin;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** URLs of auth settings whose env placeholders were filled in at start. */
class OAuthUrlsTest {
  private static final Origin WRITTEN = new Origin(".svc", 7, 13);

  @Test
  void anHttpsUrlIsUsable() {
    List<Diagnostic> problems = new ArrayList<>();
    assertThat(
            OAuthUrls.usable(
                "https://auth.example.com/", WRITTEN, "`server.auth`", "tokens", problems))
        .contains(URI.create("https://auth.example.com/"));
    assertThat(problems).isEmpty();
  }

  @Test
  void plainHttpToAnotherMachineIsUsableAndOnlyWarnedAbout() {
    List<Diagnostic> problems = new ArrayList<>();
    assertThat(
            OAuthUrls.usable(
                "http://auth.example.com/keys", WRITTEN, "`server.auth`", "keys", problems))
        .contains(URI.create("http://auth.example.com/keys"));
    assertThat(problems).isEmpty();
  }

  @Test
  void aValueThatIsNoUrlIsAnErrorWhereItWasWritten() {
    List<Diagnostic> problems = new ArrayList<>();
    assertThat(
            OAuthUrls.usable(
                "ftp://auth.example.com",
                WRITTEN,
                "`policy.issuer` of a jwt auth plugin",
                "keys",
                problems))
        .isEmpty();
    assertThat(problems)
        .singleElement()
        .extracting(Diagnostic::render)
        .asString()
        .startsWith(
            ".svc:7:13: error[invalid-auth-url]: `ftp://auth.example.com` in `policy.issuer` of a"
                + " jwt auth plugin is not a usable URL: it must start with https://");
  }
}
