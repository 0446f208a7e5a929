package dev.svc.suite;

import java.util.List;

/**
 * The tests of one resource or resource template: the {@code tests.terse} in its folder.
 *
 * @param uri the resource's URI, or the template's URI template
 * @param template whether it is a template
 */
public record ResourceSuite(String uri, boolean template, String file, List<ResourceCase> cases)
    implements Suite {
  public ResourceSuite {
    cases = List.copyOf(cases);
  }

  @Override
  public String subject() {
    return uri;
  }

  @Override
  public String title() {
    return (template ? "template " : "resource ") + uri;
  }
}
