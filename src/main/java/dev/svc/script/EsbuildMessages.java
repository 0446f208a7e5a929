package dev.svc.script;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the errors and warnings esbuild prints (with {@code --color=false}):
 *
 * <pre>
 * ✘ [ERROR] Could not resolve "./util"
 *
 *     app/tools/hello/handler.ts:1:16:
 *       1 │ import {x} from "./util";
 *         ╵                 ~~~~~~~~
 *
 *   A note ...
 * </pre>
 *
 * The first location after the headline is the message's own; locations further down belong to
 * notes. esbuild's line is 1-based and its column a 0-based byte offset into the line.
 */
final class EsbuildMessages {
  private static final Pattern HEADLINE = Pattern.compile("^[✘▲] \\[(ERROR|WARNING)\\] (.*)$");
  private static final Pattern LOCATION = Pattern.compile("^ {4}(\\S.*):(\\d+):(\\d+):$");
  private static final Pattern WARNING_TAG = Pattern.compile(" \\[[a-z-]+\\]$");

  private EsbuildMessages() {}

  /**
   * One message.
   *
   * @param location the file (relative to esbuild's working directory), 1-based line and 0-based
   *     byte column
   * @param notes the text of the notes below it, without their locations
   */
  record Message(boolean isError, String text, Optional<Location> location, List<String> notes) {}

  record Location(String file, int line, int byteColumn) {}

  static List<Message> parse(String stderr) {
    List<Message> messages = new ArrayList<>();
    String[] lines = stderr.split("\r?\n");
    int i = 0;
    while (i < lines.length) {
      Matcher headline = HEADLINE.matcher(lines[i]);
      if (!headline.matches()) {
        i++;
        continue;
      }
      boolean error = headline.group(1).equals("ERROR");
      String text = WARNING_TAG.matcher(headline.group(2).strip()).replaceFirst("");
      Optional<Location> location = Optional.empty();
      List<String> notes = new ArrayList<>();
      i++;
      while (i < lines.length && !HEADLINE.matcher(lines[i]).matches()) {
        String line = lines[i];
        Matcher at = LOCATION.matcher(line);
        if (at.matches()) {
          if (location.isEmpty() && notes.isEmpty()) {
            location =
                Optional.of(
                    new Location(
                        at.group(1), Integer.parseInt(at.group(2)), Integer.parseInt(at.group(3))));
          }
        } else if (line.startsWith("  ") && !line.startsWith("    ") && !line.isBlank()) {
          notes.add(line.strip());
        }
        i++;
      }
      messages.add(new Message(error, text, location, notes));
    }
    return messages;
  }
}
