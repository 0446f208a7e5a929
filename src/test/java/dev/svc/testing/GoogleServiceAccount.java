package dev.svc.testing;

import dev.svc.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import tools.jackson.databind.node.ObjectNode;

/** A Google service-account key file, with a fresh RSA key, whose token endpoint is a test's. */
public final class GoogleServiceAccount {
  private GoogleServiceAccount() {}

  /** Writes the key file to {@code file} (project {@code my-proj}) and returns it. */
  public static Path write(Path file, String tokenUri) throws IOException {
    KeyPairGenerator generator;
    try {
      generator = KeyPairGenerator.getInstance("RSA");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    generator.initialize(2048);
    String pem =
        "-----BEGIN PRIVATE KEY-----\n"
            + Base64.getMimeEncoder(64, "\n".getBytes())
                .encodeToString(generator.generateKeyPair().getPrivate().getEncoded())
            + "\n-----END PRIVATE KEY-----\n";
    ObjectNode key = Json.NODES.objectNode();
    key.put("type", "service_account");
    key.put("project_id", "my-proj");
    key.put("private_key_id", "k1");
    key.put("private_key", pem);
    key.put("client_email", "svc-test@my-proj.iam.gserviceaccount.com");
    key.put("client_id", "1234567890");
    key.put("token_uri", tokenUri);
    Files.writeString(file, key.toString());
    return file;
  }
}
