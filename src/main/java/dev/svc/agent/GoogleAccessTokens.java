package dev.svc.agent;

import com.google.auth.oauth2.AccessToken;
import com.google.auth.oauth2.GoogleCredentials;
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
      throw new ModelException("vertex: could not get an access token: " + e.getMessage(), e);
    }
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
