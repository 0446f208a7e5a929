package dev.svc.model;

/** How a tool produces its result: a statement on an adapter or a script handler. */
public sealed interface Execution {

  /** A statement run on the adapter named {@code adapter}. */
  record OnAdapter(String adapter, ConnectorKind connector, Statement statement)
      implements Execution {}

  /** A TypeScript handler. */
  record Handler(ScriptRef script) implements Execution {}
}
