package dev.svc.suite;

import dev.svc.diagnostic.Origin;
import java.util.List;

/**
 * One {@code resources/read} and what it must answer: the content as JSON ({@code {"uri": …,
 * "mime_type": …, "text": …}}, or {@code "blob"} in base64 for binary content), or an error.
 *
 * @param uri the URI read: the resource's own, or a template expanded with the case's arguments
 */
public record ResourceCase(String name, Origin origin, String uri, List<Expectation> expectations)
    implements TestCase {
  public ResourceCase {
    expectations = List.copyOf(expectations);
  }
}
