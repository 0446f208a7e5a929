package dev.svc.log;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code --log-tags a,b,-c} filter: with includes, only entries matching one are written;
 * excludes always win. A filter tag matches an entry tag that equals it or starts with it followed
 * by {@code :} ({@code db} matches {@code db:postgres}).
 */
public record TagFilter(List<String> includes, List<String> excludes) {
  public static final TagFilter ALL = new TagFilter(List.of(), List.of());

  public TagFilter {
    includes = List.copyOf(includes);
    excludes = List.copyOf(excludes);
  }

  public static TagFilter parse(String spec) {
    List<String> includes = new ArrayList<>();
    List<String> excludes = new ArrayList<>();
    for (String raw : spec.split(",")) {
      String tag = raw.strip();
      if (tag.startsWith("-") && tag.length() > 1) {
        excludes.add(tag.substring(1));
      } else if (!tag.isEmpty() && !tag.equals("-")) {
        includes.add(tag.startsWith("+") ? tag.substring(1) : tag);
      }
    }
    return new TagFilter(includes, excludes);
  }

  public boolean accepts(String tag) {
    if (excludes.stream().anyMatch(f -> matches(f, tag))) {
      return false;
    }
    return includes.isEmpty() || includes.stream().anyMatch(f -> matches(f, tag));
  }

  private static boolean matches(String filter, String tag) {
    return tag.equals(filter) || tag.startsWith(filter + ":");
  }
}
