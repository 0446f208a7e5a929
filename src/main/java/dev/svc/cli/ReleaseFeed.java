package dev.svc.cli;

import dev.svc.json.Jackson;
import java.net.URI;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * The release feed {@code svc upgrade} reads: {@code {"releases": [{"version", "prerelease", "url",
 * "sha256"}]}}. URLs may be relative to the feed.
 */
record ReleaseFeed(List<Release> releases) {
  private static final Pattern VERSION =
      Pattern.compile("(\\d+)\\.(\\d+)\\.(\\d+)(?:-([0-9A-Za-z.-]+))?");

  /** One release: an archive holding {@code lib/} and the {@code svc} launcher. */
  record Release(String version, boolean prerelease, String url, String sha256) {}

  static ReleaseFeed parse(String json) {
    JsonNode root;
    try {
      root = Jackson.MAPPER.readTree(json);
    } catch (JacksonException e) {
      throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage());
    }
    JsonNode list = root.path("releases");
    if (!list.isArray()) {
      throw new IllegalArgumentException("it has no `releases` list");
    }
    List<Release> releases = new ArrayList<>();
    for (JsonNode entry : list) {
      String version = entry.path("version").asString("");
      if (!VERSION.matcher(version).matches()) {
        throw new IllegalArgumentException("`" + version + "` is not a version like 1.2.3");
      }
      if (!entry.path("url").isString() || !entry.path("sha256").isString()) {
        throw new IllegalArgumentException("release " + version + " needs `url` and `sha256`");
      }
      releases.add(
          new Release(
              version,
              entry.path("prerelease").asBoolean(version.contains("-")),
              entry.path("url").asString(),
              entry.path("sha256").asString()));
    }
    return new ReleaseFeed(releases);
  }

  /** Resolves relative release URLs against the feed's own URL. */
  ReleaseFeed relativeTo(URI feed) {
    return new ReleaseFeed(
        releases.stream()
            .map(r ->
                new Release(
                    r.version(), r.prerelease(), feed.resolve(r.url()).toString(), r.sha256()))
            .toList());
  }

  /**
   * The release to move to, if any is newer than {@code current}.
   *
   * @param major a major version number, {@code next} for the latest major, or empty to stay on the
   *     current major
   * @throws IllegalArgumentException when {@code major} is neither a number nor {@code next}
   */
  Optional<Release> select(String current, boolean prerelease, Optional<String> major) {
    int[] now = parts(current);
    List<Release> newer =
        releases.stream()
            .filter(r -> prerelease || !r.prerelease())
            .filter(r -> compare(parts(r.version()), now) > 0)
            .toList();
    int wanted;
    if (major.isEmpty()) {
      wanted = now[0];
    } else if (major.get().equals("next")) {
      wanted = newer.stream().mapToInt(r -> parts(r.version())[0]).max().orElse(now[0]);
    } else if (major.get().matches("\\d+")) {
      wanted = Integer.parseInt(major.get());
    } else {
      throw new IllegalArgumentException(
          "--major takes a major version number or `next`, not `" + major.get() + "`");
    }
    return newer.stream()
        .filter(r -> parts(r.version())[0] == wanted)
        .max(Comparator.comparing(r -> parts(r.version()), ReleaseFeed::compare));
  }

  /** major, minor, patch, and 1 for a release or 0 for a pre-release (which sorts first). */
  static int[] parts(String version) {
    Matcher m = VERSION.matcher(version.strip());
    if (!m.matches()) {
      return new int[] {0, 0, 0, 0};
    }
    return new int[] {
      Integer.parseInt(m.group(1)),
      Integer.parseInt(m.group(2)),
      Integer.parseInt(m.group(3)),
      m.group(4) == null ? 1 : 0
    };
  }

  static int compare(int[] a, int[] b) {
    for (int i = 0; i < a.length; i++) {
      if (a[i] != b[i]) {
        return Integer.compare(a[i], b[i]);
      }
    }
    return 0;
  }
}
