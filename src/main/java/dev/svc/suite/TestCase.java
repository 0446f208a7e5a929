package dev.svc.suite;

import dev.svc.diagnostic.Origin;
import java.util.ArrayList;
import java.util.List;

/** One case of a suite: what it asks for, and what the answer must satisfy. */
public sealed interface TestCase permits ToolCase, PromptCase, ResourceCase, AgentCase {
  String name();

  /** Where the case's name is written. */
  Origin origin();

  List<Expectation> expectations();

  /**
   * Every expectation {@code answer} does not satisfy, in the order the compiler lists them (for a
   * tool: {@code result}, {@code rows_contain}, {@code row_count}, {@code json_path} in the order
   * written, {@code error}, {@code truncated}).
   */
  default List<Mismatch> check(Answer answer) {
    List<Mismatch> mismatches = new ArrayList<>();
    for (Expectation expectation : expectations()) {
      expectation.check(answer).ifPresent(mismatches::add);
    }
    return mismatches;
  }
}
