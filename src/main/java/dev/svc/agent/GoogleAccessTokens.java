package dev.svc.agent;

import com.google.api.client.http.HttpResponseException;
import com.google.auth.oauth2.AccessToken;
import com.google.auth.oauth2.GoogleCredentials;
import dev.svc.auth.OAuthErrors;
import dev.svc.project.Environment;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * OAuth access tokens for Vertex AI from Google's auth library: the service-account (or other
 * credentials) file named by {@code GOOGLE_APPLICATION_CREDENTIALS} (read from svc's environment,
 * so {@code .env} works), else Application Default Credentials (gcloud login, metadata server).
 * Credentials are loaded once per source and refreshed by the library before they expire.
 */
final class GoogleAccessTokens implements Supplier<String> {
  static final String SCOPE = "https://www.googleapis.com/auth/cloud-platform";
  private static final Map<String, GoogleCredentials> LOADED = new ConcurrentHashMap<>();

  private final Optional<String> credentialsFile;

  GoogleAccessTokens(Environment environment) {
    this.credentialsFile =
        environment.get("GOOGLE_APPLICATION_CREDENTIALS").filter(s -> !s.isBlank());
  }

  @Override
  public String get() {
    GoogleCredentials credentials =
        LOADED.computeIfAbsent(credentialsFile.orElse(""), GoogleAccessTokens::load);
    try {
      synchronized (credentials) {
        credentials.refreshIfExpired();
        AccessToken token = credentials.getAccessToken();
        if (token == null) {
          credentials.refresh();
          token = credentials.getAccessToken();
        }
        return token.getTokenValue();
      }
    } catch (IOException e) {
      throw new ModelException("vertex: could not get an access token: " + why(e), e);
    }
  }

  /**
   * Why a token could not be had, as it may be shown to a task's client and logged. When the token
   * endpoint answered an HTTP error, its status and only its OAuth error code: the library's
   * message holds the whole answer, and an endpoint may echo the request (the refresh token and
   * client secret of user credentials, a service account's signed assertion).
   */
  static String why(IOException e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof HttpResponseException answer) {
        return "the token endpoint answered HTTP "
            + answer.getStatusCode()
            + OAuthErrors.code(answer.getContent() == null ? "" : answer.getContent());
      }
    }
    return e.getMessage();
  }

  private static GoogleCredentials load(String file) {
    try {
      GoogleCredentials credentials;
      if (file.isEmpty()) {
        credentials = GoogleCredentials.getApplicationDefault();
      } else {
        try (InputStream in = Files.newInputStream(Path.of(file))) {
          credentials = GoogleCredentials.fromStream(in);
        }
      }
      return credentials.createScoped(SCOPE);
    } catch (IOException e) {
      throw new ModelException(
          "vertex: no Google credentials ("
              + e.getMessage()
              + "); run `gcloud auth application-default login`, set"
              + " GOOGLE_APPLICATION_CREDENTIALS, or give an `api_key`",
          e);
    }
  }
}
