package dev.svc.diagnostic;

/**
 * Where something was written: a file path relative to the project directory and a 1-based line and
 * column. Line 0 means "the file as a whole".
 */
public record Origin(String file, int line, int column) implements Comparable<Origin> {

  /** Label used as the file of a root configuration given inline with {@code -s}. */
  public static final String INLINE = "<inline .svc>";

  public static Origin ofFile(String file) {
    return new Origin(file, 0, 0);
  }

  @Override
  public int compareTo(Origin other) {
    // written out rather than a Comparator chain: this class is loaded at every start, and the
    // chain's lambdas cost ~10 ms to link there
    int byFile = file.compareTo(other.file);
    if (byFile != 0) {
      return byFile;
    }
    int byLine = Integer.compare(line, other.line);
    return byLine != 0 ? byLine : Integer.compare(column, other.column);
  }

  @Override
  public String toString() {
    return line == 0 ? file : file + ":" + line + ":" + column;
  }
}
