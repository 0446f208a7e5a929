package dev.svc.auth;

import dev.svc.json.Jackson;
import tools.jackson.core.JacksonException;

/** What svc repeats of an OAuth server's error answer, in messages it logs and shows. */
public final class OAuthErrors {
  private OAuthErrors() {}

  /**
   * RFC 6749 §5.2 {@code error} of an error answer, when it is a code ({@code invalid_client}): one
   * word of letters, digits, {@code _ . -}, at most 40 characters. Free text is not repeated: a
   * server may echo the request (an introspection endpoint: "invalid_client Basic c3ZjOl…", svc's
   * own credentials; a Google token endpoint: the refresh token and client secret, or the signed
   * assertion, of Vertex AI's credentials).
   *
   * @return {@code ", error `code`"}, or empty
   */
  public static String code(String body) {
    try {
      String error = Jackson.MAPPER.readTree(body).path("error").asString("");
      return error.matches("[A-Za-z0-9_.-]{1,40}") ? ", error `" + error + "`" : "";
    } catch (JacksonException | IllegalArgumentException e) {
      return "";
    }
  }
}
