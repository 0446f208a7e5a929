package dev.svc.connector;

/** Opens the connector of an adapter: one exhaustive switch over the connector kinds. */
public final class Connectors {
  private Connectors() {}

  public static Connector open(ResolvedAdapter adapter) {
    throw new ConnectorUnavailableException(
        "the " + adapter.connector().wireName() + " connector is not available yet");
  }
}
