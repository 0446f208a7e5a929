package dev.svc.testing;

import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import dev.svc.connector.ResolvedAdapter;
import dev.svc.model.ConnectorKind;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A MongoDB server inside the test JVM (mongo-java-server, in memory) on a free loopback port,
 * started before the test class and stopped after it. It speaks the wire protocol the official
 * driver uses, so the connector runs unchanged against it.
 *
 * <pre>
 * &#64;RegisterExtension static final InJvmMongo mongo = new InJvmMongo();
 * </pre>
 */
public final class InJvmMongo implements BeforeAllCallback, AfterAllCallback {
  private MongoServer server;
  private InetSocketAddress address;

  @Override
  public void beforeAll(ExtensionContext context) {
    server = new MongoServer(new MemoryBackend());
    server.bind("127.0.0.1", 0);
    address = server.getLocalAddress();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (server != null) {
      server.shutdownNow();
    }
  }

  public int port() {
    return address.getPort();
  }

  /** {@code mongodb://127.0.0.1:<port>/test}. */
  public String connectionString() {
    return "mongodb://127.0.0.1:" + port() + "/test";
  }

  /** An adapter named {@code db} on this server. */
  public ResolvedAdapter adapter(Map<String, String> options) {
    return new ResolvedAdapter(
        "db", ConnectorKind.MONGODB, connectionString(), options, Path.of("."));
  }
}
