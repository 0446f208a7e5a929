package dev.svc.audit;

/**
 * Where audit records go. {@link #record} never blocks and never throws: a trail that cannot keep
 * up drops records and counts them ({@code svc.audit.records{svc.audit.result="dropped"}}).
 */
public interface AuditTrail extends AutoCloseable {
  /** No trail: records are not even built ({@link #enabled()} is false). */
  AuditTrail OFF =
      new AuditTrail() {
        @Override
        public boolean enabled() {
          return false;
        }

        @Override
        public void record(AuditRecord record) {}

        @Override
        public void close() {}
      };

  /** Whether records are kept; callers skip building them when not. */
  boolean enabled();

  void record(AuditRecord record);

  /** Writes what is queued (bounded wait) and closes the file. */
  @Override
  void close();
}
