package dev.cinchmcp.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** A field of a process's (or thread's) {@code /proc/<id>/status}, on Linux. */
public final class ProcStatus {

  private ProcStatus() {}

  /** The field's value, trimmed ({@code "Tgid"} gives {@code "1234"}); empty when unknown. */
  public static Optional<String> field(long id, String name) {
    String prefix = name + ":";
    try {
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(id), "status"))) {
        if (line.startsWith(prefix)) {
          return Optional.of(line.substring(prefix.length()).trim());
        }
      }
    } catch (IOException | RuntimeException unknown) {
      // not Linux, or gone
    }
    return Optional.empty();
  }
}
