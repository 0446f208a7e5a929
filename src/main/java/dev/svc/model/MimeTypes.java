package dev.svc.model;

import java.util.Locale;
import java.util.Optional;

/**
 * MIME types by file extension, shared by the compiler (prompt images) and the runtime (resource
 * files).
 */
public final class MimeTypes {
  private MimeTypes() {}

  /** The MIME type of a file name's extension, when known. */
  public static Optional<String> ofFileName(String fileName) {
    int dot = fileName.lastIndexOf('.');
    if (dot < 0) {
      return Optional.empty();
    }
    return Optional.ofNullable(
        switch (fileName.substring(dot + 1).toLowerCase(Locale.ROOT)) {
          case "md", "markdown" -> "text/markdown";
          case "txt", "text", "log" -> "text/plain";
          case "csv" -> "text/csv";
          case "html", "htm" -> "text/html";
          case "css" -> "text/css";
          case "js", "mjs" -> "text/javascript";
          case "json" -> "application/json";
          case "xml" -> "application/xml";
          case "yaml", "yml" -> "application/yaml";
          case "svg" -> "image/svg+xml";
          case "png" -> "image/png";
          case "jpg", "jpeg" -> "image/jpeg";
          case "gif" -> "image/gif";
          case "webp" -> "image/webp";
          case "pdf" -> "application/pdf";
          case "wav" -> "audio/wav";
          case "mp3" -> "audio/mpeg";
          case "zip" -> "application/zip";
          default -> null;
        });
  }
}
