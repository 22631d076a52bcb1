package dev.cinchmcp.backend;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a program is given besides its code, and its limits (checked and described from here).
 *
 * @param stdin null for none
 * @param files relative path to UTF-8 text, in the caller's order
 */
public record ProgramInput(String stdin, Map<String, String> files, List<String> args) {

  public static final ProgramInput NONE = new ProgramInput(null, Map.of(), List.of());

  /**
   * UTF-8 bytes of stdin, files and args together: base64 in the launcher makes a request ~5.4 MB,
   * under the 6 MB many hosted HTTP APIs accept, and a sixteenth of the 64 MB /tmp.
   */
  public static final int MAX_TOTAL_BYTES = 4_000_000;

  public static final int MAX_FILES = 256;
  public static final int MAX_PATH_CHARS = 400;
  public static final int MAX_NAME_BYTES = 255;
  public static final int MAX_ARGS = 256;

  /** Linux refuses any single argument above 128 KiB. */
  public static final int MAX_ARGS_BYTES = 64 * 1024;

  /** Where the files go, and the working directory under the launcher. */
  public static final String WORK_DIR = "/tmp/work";

  public ProgramInput {
    files =
        Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(files, "files")));
    files.forEach((path, text) -> Objects.requireNonNull(text, path));
    args = List.copyOf(Objects.requireNonNull(args, "args"));
  }

  public boolean isEmpty() {
    return stdin == null && files.isEmpty() && args.isEmpty();
  }
}
