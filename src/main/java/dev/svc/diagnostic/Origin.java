package dev.svc.diagnostic;

import java.util.Comparator;

/**
 * Where something was written: a file path relative to the project directory and a 1-based line and
 * column. Line 0 means "the file as a whole".
 */
public record Origin(String file, int line, int column) implements Comparable<Origin> {

  /** Label used as the file of a root configuration given inline with {@code -s}. */
  public static final String INLINE = "<inline .svc>";

  private static final Comparator<Origin> ORDER =
      Comparator.comparing(Origin::file)
          .thenComparingInt(Origin::line)
          .thenComparingInt(Origin::column);

  public static Origin ofFile(String file) {
    return new Origin(file, 0, 0);
  }

  @Override
  public int compareTo(Origin other) {
    return ORDER.compare(this, other);
  }

  @Override
  public String toString() {
    return line == 0 ? file : file + ":" + line + ":" + column;
  }
}
