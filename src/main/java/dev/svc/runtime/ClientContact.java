package dev.svc.runtime;

import dev.svc.call.ClientRequest;
import dev.svc.call.ClientRequests;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A call's way to its client ({@link ClientRequests}) that notes whether the call used it: asked
 * something (a confirmation, {@code mcp.elicit}, {@code mcp.sample}, {@code mcp.listRoots}) or
 * looked at what the client declares ({@code mcp.canAsk}). The result of such a call depends on
 * this client and its answers, so it is not cached: another caller would get them.
 */
final class ClientContact implements ClientRequests {
  private final ClientRequests client;
  private final AtomicBoolean used = new AtomicBoolean();

  ClientContact(ClientRequests client) {
    this.client = client;
  }

  /** Whether the call asked its client anything or read what it declares. */
  boolean used() {
    return used.get();
  }

  @Override
  public boolean declares(String capability) {
    used.set(true);
    return client.declares(capability);
  }

  @Override
  public Answer ask(ClientRequest request) {
    used.set(true);
    return client.ask(request);
  }

  @Override
  public Answer ask(ClientRequest request, Optional<String> key) {
    used.set(true);
    return client.ask(request, key);
  }
}
