package dev.svc.model;

import java.util.Optional;

/** How a tool produces its result: a statement on an adapter or a script handler. */
public sealed interface Execution {

  /**
   * A statement run on the adapter named {@code adapter}.
   *
   * @param session what is set in the database for each call first (PostgreSQL only)
   */
  record OnAdapter(
      String adapter,
      ConnectorKind connector,
      Statement statement,
      Optional<DatabaseSession> session)
      implements Execution {
    /** A statement run as it is, with no session settings. */
    public OnAdapter(String adapter, ConnectorKind connector, Statement statement) {
      this(adapter, connector, statement, Optional.empty());
    }

    public OnAdapter withSession(Optional<DatabaseSession> settings) {
      return new OnAdapter(adapter, connector, statement, settings);
    }
  }

  /** A TypeScript handler. */
  record Handler(ScriptRef script) implements Execution {}
}
