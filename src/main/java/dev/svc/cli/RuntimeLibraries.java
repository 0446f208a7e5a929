package dev.svc.cli;

import dev.svc.model.Adapter;
import dev.svc.model.Agent;
import dev.svc.model.Model;
import dev.svc.model.Provider;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Which of svc's dependency jars a built project needs (docs/cli.md, "What an artifact ships"). svc
 * ships every connector, V8 and the Google sign-in library; a project's artifact holds only the
 * parts its model uses, so that it is smaller and starts sooner (the JVM opens every jar of its
 * class path during start-up: Jetty looks its services up in all of them).
 *
 * <p>Jars are named by Maven artifact id. A jar no part claims is kept: a new dependency is shipped
 * until it is sorted into a part ({@code ArtifactLibrariesIT} fails until then).
 */
final class RuntimeLibraries {
  private RuntimeLibraries() {}

  /** A part of svc with jars of its own. */
  enum Part {
    /**
     * What every project runs: JSON, YAML, the command line, the HTTP server, caches, JSON Schema,
     * tokens, logging, and OpenTelemetry (which the environment of the serving process turns on).
     */
    CORE(
        "jackson-databind",
        "jackson-annotations",
        "jackson-core",
        "snakeyaml-engine",
        "picocli",
        "caffeine",
        "jspecify",
        "error_prone_annotations",
        "nimbus-jose-jwt",
        "jetty-server",
        "jetty-http",
        "jetty-util",
        "jetty-io",
        "slf4j-api",
        "json-schema-validator",
        "itu",
        "opentelemetry-sdk",
        "opentelemetry-api",
        "opentelemetry-context",
        "opentelemetry-common",
        "opentelemetry-sdk-common",
        "opentelemetry-sdk-trace",
        "opentelemetry-sdk-metrics",
        "opentelemetry-sdk-logs",
        "opentelemetry-sdk-extension-autoconfigure",
        "opentelemetry-sdk-extension-autoconfigure-spi",
        "opentelemetry-exporter-otlp",
        "opentelemetry-exporter-otlp-common",
        "opentelemetry-exporter-sender-jdk",
        "opentelemetry-exporter-common"),
    SQLITE("sqlite-jdbc"),
    POSTGRES("postgresql", "checker-qual"),
    MYSQL("mysql-connector-j"),
    MONGODB("mongodb-driver-sync", "mongodb-driver-core", "bson", "bson-record-codec"),
    REDIS("jedis", "commons-pool2", "json", "gson", "redis-authx-core"),
    /** V8, for TypeScript handlers, transforms and auth plugins, and the client of their fetch. */
    SCRIPTS(
        "javet",
        "javet-v8-linux-x86_64",
        "jetty-client",
        "jetty-alpn-client",
        "jetty-compression-gzip",
        "jetty-compression-common"),
    /** Google's sign-in library, for agents on Vertex AI without an API key. */
    GOOGLE_SIGN_IN(
        "google-auth-library-oauth2-http",
        "google-auth-library-credentials",
        "google-http-client",
        "google-http-client-gson",
        "gson",
        "guava",
        "failureaccess",
        "listenablefuture",
        "j2objc-annotations",
        "auto-value-annotations",
        "jsr305",
        "httpclient",
        "httpcore",
        "commons-codec",
        "grpc-context",
        "grpc-api",
        "opencensus-api",
        "opencensus-contrib-http-util",
        "api-common",
        "javax.annotation-api"),
    /**
     * What only a project's development needs, never a built artifact: the TypeScript compiler and
     * esbuild ({@code svc validate} and {@code svc start} compile and bundle; an artifact serves
     * the bundles in model.bin) and the dev console's npm packages ({@code svc start --ui}).
     */
    DEVELOPMENT("typescript", "linux-x64", "marked", "dompurify");

    private final List<String> artifacts;

    Part(String... artifacts) {
      this.artifacts = List.of(artifacts);
    }

    /** The part's name in the build's output: {@code google-sign-in}. */
    String label() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    boolean claims(String artifactId) {
      return artifacts.contains(artifactId);
    }
  }

  /** The parts a model uses; never {@link Part#DEVELOPMENT}. */
  static Set<Part> needed(Model model) {
    Set<Part> parts = EnumSet.of(Part.CORE);
    for (Adapter adapter : model.adapters()) {
      parts.add(
          switch (adapter.connector()) {
            case SQLITE -> Part.SQLITE;
            case POSTGRES -> Part.POSTGRES;
            case MYSQL -> Part.MYSQL;
            case MONGODB -> Part.MONGODB;
            case REDIS -> Part.REDIS;
          });
    }
    if (!model.scripts().isEmpty()) {
      parts.add(Part.SCRIPTS);
    }
    for (Agent agent : model.agents()) {
      if (agent.model().provider() == Provider.VERTEX) {
        parts.add(Part.GOOGLE_SIGN_IN);
      }
    }
    return parts;
  }

  /**
   * Whether a jar of the class path (as the manifest names it, {@code lib/guava-33.6.0-jre.jar})
   * belongs in an artifact with these parts: when one of them claims it, or when no part does.
   */
  static boolean ships(String classPathEntry, Set<Part> parts) {
    String artifact = artifactId(classPathEntry);
    boolean claimed = false;
    for (Part part : Part.values()) {
      if (part.claims(artifact)) {
        if (parts.contains(part)) {
          return true;
        }
        claimed = true;
      }
    }
    return !claimed;
  }

  /** The parts that claim a jar of the class path; empty for a jar no part knows. */
  static Set<Part> claiming(String classPathEntry) {
    String artifact = artifactId(classPathEntry);
    Set<Part> parts = EnumSet.noneOf(Part.class);
    for (Part part : Part.values()) {
      if (part.claims(artifact)) {
        parts.add(part);
      }
    }
    return parts;
  }

  /**
   * The Maven artifact id in a jar's file name: what comes before the first {@code -} followed by a
   * digit ({@code javet-v8-linux-x86_64-5.0.6.jar} → {@code javet-v8-linux-x86_64}).
   */
  static String artifactId(String classPathEntry) {
    String name = classPathEntry.substring(classPathEntry.lastIndexOf('/') + 1);
    if (name.endsWith(".jar")) {
      name = name.substring(0, name.length() - ".jar".length());
    }
    for (int i = 0; i + 1 < name.length(); i++) {
      if (name.charAt(i) == '-' && Character.isDigit(name.charAt(i + 1))) {
        return name.substring(0, i);
      }
    }
    return name;
  }
}
