package dev.svc.protocol.a2a;

/** The task store contract, held in this process's memory. */
class InMemoryTaskStoreContractTest extends TaskStoreContract {
  private final InMemoryTaskStore store = new InMemoryTaskStore();

  @Override
  TaskStore store() {
    return store;
  }
}
