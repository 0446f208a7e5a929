package dev.svc.script;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The memory ceiling of the script sandbox, for the whole process: every isolate alive counts at
 * its heap cap, and together they stay within {@link #limitBytes()}. One instance serves every
 * runner of a process (a reload's new runner and the old one still finishing its calls), so the
 * ceiling bounds them all. An isolate is reserved before it is made and released once it is closed;
 * when no reservation is left, calls wait for an isolate (each no longer than its deadline).
 */
public final class ScriptMemory {
  private static final long MIB = 1024L * 1024;

  /**
   * The most the default ceiling gives, however big the machine: 32 isolates of the default 128 MiB
   * heap. Without it a 24 GiB machine let a flood of memory-hungry calls take 12 GiB of V8 memory,
   * far more than a server whose scripts are transforms and handlers needs; a bigger ceiling is one
   * setting away ({@code SVC_SCRIPT_MEMORY_MB}).
   */
  static final long DEFAULT_CEILING_MB = 4096;

  private final int limitMb;
  private final int heapMb;
  private final int maxIsolates;
  private final AtomicInteger isolates = new AtomicInteger();

  /**
   * @param limitMb the ceiling in MiB, at least {@code heapMb}
   * @param heapMb the heap cap of one isolate in MiB
   */
  public ScriptMemory(int limitMb, int heapMb) {
    if (heapMb < 1 || limitMb < heapMb) {
      throw new IllegalArgumentException(
          "the script memory ceiling (" + limitMb + " MiB) must hold one heap of " + heapMb);
    }
    this.limitMb = limitMb;
    this.heapMb = heapMb;
    this.maxIsolates = limitMb / heapMb;
  }

  /**
   * The default ceiling: half of what the machine leaves beside the JVM's heap, i.e. half of
   * (physical memory, or the container's limit when there is one, minus the JVM's maximum heap),
   * and never less than one isolate's heap. Half, because an isolate's resident size can exceed its
   * heap cap (its compiled code, and the room V8 gets to stop a call that reached the cap). At most
   * {@link #DEFAULT_CEILING_MB}.
   */
  public static int defaultLimitMb(int heapMb) {
    long total = physicalBytes();
    long free = Math.max(0, total - Runtime.getRuntime().maxMemory());
    return (int) Math.max(heapMb, Math.min(DEFAULT_CEILING_MB, free / 2 / MIB));
  }

  /**
   * Physical memory, or the container's memory limit when lower. Read from {@code /proc} and the
   * cgroup files on Linux: the JDK's management bean knows the same but costs 100–400 ms of
   * start-up on a cold JVM. Elsewhere (or when the files cannot be read) a small machine is
   * assumed: 4 GiB.
   */
  static long physicalBytes() {
    long physical = meminfoTotal().orElse(4096 * MIB);
    return Math.min(physical, cgroupLimit().orElse(Long.MAX_VALUE));
  }

  private static OptionalLong meminfoTotal() {
    for (String line : lines(Path.of("/proc/meminfo"), "MemTotal:")) {
      String kib = line.substring("MemTotal:".length()).strip();
      int space = kib.indexOf(' ');
      OptionalLong total = number(space < 0 ? kib : kib.substring(0, space));
      return total.isPresent() ? OptionalLong.of(total.getAsLong() * 1024) : total;
    }
    return OptionalLong.empty();
  }

  /**
   * The lowest memory limit of this process's cgroup and its parents (v2 {@code memory.max}, v1
   * {@code memory.limit_in_bytes}); "max" and v1's near-{@code Long.MAX_VALUE} mean none.
   */
  static OptionalLong cgroupLimit() {
    long lowest = Long.MAX_VALUE;
    for (String line : lines(Path.of("/proc/self/cgroup"), "")) {
      String[] fields = line.split(":", 3);
      if (fields.length != 3) {
        continue;
      }
      Path root;
      String file;
      if (fields[0].equals("0") && fields[1].isEmpty()) {
        root = Path.of("/sys/fs/cgroup");
        file = "memory.max";
      } else if (Arrays.asList(fields[1].split(",")).contains("memory")) {
        root = Path.of("/sys/fs/cgroup/memory");
        file = "memory.limit_in_bytes";
      } else {
        continue;
      }
      Path group = root.resolve("." + fields[2]).normalize();
      for (Path at = group; at != null && at.startsWith(root); at = at.getParent()) {
        for (String value : lines(at.resolve(file), "")) {
          OptionalLong limit = number(value.strip());
          if (limit.isPresent() && limit.getAsLong() > 0) {
            lowest = Math.min(lowest, limit.getAsLong());
          }
        }
      }
    }
    return lowest < Long.MAX_VALUE / 2 ? OptionalLong.of(lowest) : OptionalLong.empty();
  }

  /**
   * The lines of {@code file} up to the first that starts with {@code prefix} (all lines for an
   * empty prefix): none when it cannot be read. Checked first, not caught: start-up pays for every
   * exception of a cold JVM.
   */
  private static List<String> lines(Path file, String prefix) {
    if (!Files.isReadable(file)) {
      return List.of(); // not Linux, or no such cgroup file
    }
    try (BufferedReader in = Files.newBufferedReader(file)) {
      List<String> lines = new ArrayList<>();
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (line.startsWith(prefix)) {
          lines.add(line);
          if (!prefix.isEmpty()) {
            break;
          }
        }
      }
      return lines;
    } catch (IOException | RuntimeException e) {
      return List.of();
    }
  }

  /** A whole number of digits, or none ("max", empty). */
  private static OptionalLong number(String text) {
    if (text.isEmpty() || text.length() > 18) {
      return OptionalLong.empty();
    }
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) < '0' || text.charAt(i) > '9') {
        return OptionalLong.empty();
      }
    }
    return OptionalLong.of(Long.parseLong(text));
  }

  /** Counts one more isolate, unless the ceiling is reached. */
  boolean tryReserve() {
    while (true) {
      int n = isolates.get();
      if (n >= maxIsolates) {
        return false;
      }
      if (isolates.compareAndSet(n, n + 1)) {
        return true;
      }
    }
  }

  /** An isolate reserved by {@link #tryReserve()} was closed (or never made). */
  void release() {
    isolates.decrementAndGet();
  }

  /** Whether every reservation is taken. */
  boolean isFull() {
    return isolates.get() >= maxIsolates;
  }

  /** The ceiling in MiB ({@code SVC_SCRIPT_MEMORY_MB}). */
  public int limitMb() {
    return limitMb;
  }

  /** The heap cap of one isolate in MiB ({@code SVC_SCRIPT_HEAP_MB}). */
  public int heapMb() {
    return heapMb;
  }

  /** How many isolates fit under the ceiling. */
  public int maxIsolates() {
    return maxIsolates;
  }

  public long limitBytes() {
    return limitMb * MIB;
  }

  /** Isolates alive (or being made) times their heap cap: what the ceiling counts. */
  public long reservedBytes() {
    return isolates.get() * heapMb * MIB;
  }
}
