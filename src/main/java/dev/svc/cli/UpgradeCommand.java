package dev.svc.cli;

import dev.svc.SvcVersion;
import dev.svc.log.SafeUrls;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code svc upgrade}: moves an installation to a newer release from the release feed (env {@code
 * SVC_RELEASES_URL}), checking the archive's SHA-256 and swapping the installation in one rename,
 * so a failed upgrade leaves the old one in place.
 */
@Command(
    name = "upgrade",
    mixinStandardHelpOptions = true,
    description = {
      "Upgrade this svc installation to the latest release.",
      "Reads the release feed at $SVC_RELEASES_URL, verifies the archive's SHA-256 and replaces",
      "the installation atomically. A source checkout is updated with git instead."
    })
final class UpgradeCommand implements Callable<Integer> {
  /** Where releases are listed when {@code SVC_RELEASES_URL} is not set. */
  static final String DEFAULT_FEED = "https://svc.dev/releases.json";

  @Option(names = "--prerelease", description = "Consider pre-release versions too.")
  boolean prerelease;

  @Option(
      names = "--major",
      paramLabel = "N|next",
      description =
          "Target major version N, or `next` for the latest major (default: stay on the current major).")
  String major;

  @Option(
      names = "--installation",
      hidden = true,
      paramLabel = "DIR",
      description = "The installation to upgrade (default: the one running).")
  Path installation;

  private final CliContext context;

  UpgradeCommand(CliContext context) {
    this.context = context;
  }

  @Override
  public Integer call() throws IOException {
    Path root = installation != null ? installation : Installation.running();
    if (!Files.isRegularFile(root.resolve("lib/svc.jar"))) {
      context.err().println("error: " + root + " is not an svc installation (no lib/svc.jar).");
      context.err().println("A source checkout is updated with `git pull`; ./svc rebuilds itself.");
      return ExitCodes.FAILED;
    }
    String feedUrl = context.environment().getOrDefault("SVC_RELEASES_URL", DEFAULT_FEED);
    String current = Installation.version(root).orElse(SvcVersion.current());
    String feedShown = SafeUrls.shown(feedUrl, "(the URL in SVC_RELEASES_URL)");
    ReleaseFeed feed;
    try {
      feed = ReleaseFeed.parse(fetch(URI.create(feedUrl))).relativeTo(URI.create(feedUrl));
    } catch (IOException e) {
      context
          .err()
          .println("error: cannot read the release feed at " + feedShown + ": " + message(e));
      context.err().println("Check the network, or point SVC_RELEASES_URL at a reachable feed.");
      return ExitCodes.FAILED;
    } catch (IllegalArgumentException e) {
      context
          .err()
          .println("error: the release feed at " + feedShown + " is not valid: " + e.getMessage());
      return ExitCodes.FAILED;
    }
    Optional<ReleaseFeed.Release> target;
    try {
      target = feed.select(current, prerelease, Optional.ofNullable(major));
    } catch (IllegalArgumentException e) {
      context.err().println("error: " + e.getMessage());
      return ExitCodes.USAGE;
    }
    if (target.isEmpty()) {
      context.out().println("svc " + current + " is up to date (feed: " + feedShown + ")");
      return ExitCodes.OK;
    }
    ReleaseFeed.Release release = target.get();
    context
        .err()
        .println(
            "svc: downloading "
                + release.version()
                + " from "
                + SafeUrls.shown(release.url(), "(the release's URL)")
                + " ...");
    byte[] archive;
    try {
      archive = download(URI.create(release.url()));
    } catch (IOException e) {
      context.err().println("error: cannot download " + release.url() + ": " + message(e));
      return ExitCodes.FAILED;
    }
    String checksum = Installation.sha256(archive);
    if (!checksum.equalsIgnoreCase(release.sha256())) {
      context
          .err()
          .println(
              "error: the archive's SHA-256 is "
                  + checksum
                  + ", the feed says "
                  + release.sha256());
      context.err().println("Nothing was changed.");
      return ExitCodes.FAILED;
    }
    try {
      Installation.replace(root, archive, release.version());
    } catch (IOException | UpgradeException e) {
      context
          .err()
          .println(
              "error: the upgrade failed and the installation was left as it was: "
                  + e.getMessage());
      return ExitCodes.FAILED;
    }
    context
        .out()
        .println("svc: upgraded " + root + " from " + current + " to " + release.version());
    return ExitCodes.OK;
  }

  private static String fetch(URI uri) throws IOException {
    return new String(download(uri), StandardCharsets.UTF_8);
  }

  private static byte[] download(URI uri) throws IOException {
    if (uri.getScheme() != null && uri.getScheme().equals("file")) {
      return Files.readAllBytes(Path.of(uri));
    }
    HttpClient client =
        HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(10))
            .followRedirects(HttpClient.Redirect.NORMAL)
            .build();
    try {
      HttpResponse<byte[]> response =
          client.send(
              HttpRequest.newBuilder(uri).timeout(Duration.ofMinutes(2)).build(),
              HttpResponse.BodyHandlers.ofByteArray());
      if (response.statusCode() != 200) {
        throw new IOException("HTTP " + response.statusCode());
      }
      return response.body();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  private static String message(Exception e) {
    Throwable root = e;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    String text = root.getMessage();
    return text == null || text.isBlank() ? root.getClass().getSimpleName() : text;
  }
}
