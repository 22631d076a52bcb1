package dev.cinchmcp.backend;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a program is given besides its code: text on standard input, text files under its working
 * directory, and command-line arguments. The limits are here, once: the argument check enforces
 * them and the tool's description states them.
 *
 * @param stdin the text on standard input (then end-of-file), or null for none
 * @param files relative path (with {@code /} between folders) to UTF-8 text, in the caller's order
 * @param args the program's command-line arguments, after its own file name
 */
public record ProgramInput(String stdin, Map<String, String> files, List<String> args) {

  /** No input at all: the program runs exactly as it would without these arguments. */
  public static final ProgramInput NONE = new ProgramInput(null, Map.of(), List.of());

  /**
   * The most bytes of UTF-8 that stdin, the files (paths and contents) and the arguments may hold
   * together. The launcher carries them base64-encoded inside the program text, so a request grows
   * by 4/3 of this: at most ~5.4 MB, under the 6 MB many hosted HTTP APIs accept (the Cinch API's
   * own limit is not on record), and a sixteenth of the sandbox's 64 MB /tmp, which leaves the rest
   * for what the program writes itself.
   */
  public static final int MAX_TOTAL_BYTES = 4_000_000;

  /** A few hundred files: enough for a small project or a folder of data files. */
  public static final int MAX_FILES = 256;

  /** Longest path, in characters; each part must also fit Linux's 255-byte name limit. */
  public static final int MAX_PATH_CHARS = 400;

  public static final int MAX_NAME_BYTES = 255;

  /** Arguments are for flags and names, not data; Linux refuses any single one above 128 KiB. */
  public static final int MAX_ARGS = 256;

  public static final int MAX_ARGS_BYTES = 64 * 1024;

  /**
   * Where the files go, and the program's working directory when it runs under the launcher (any
   * input given, or files it may write).
   */
  public static final String WORK_DIR = "/tmp/work";

  public ProgramInput {
    files =
        Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(files, "files")));
    files.forEach((path, text) -> Objects.requireNonNull(text, path));
    args = List.copyOf(Objects.requireNonNull(args, "args"));
  }

  /** True when nothing is given: then no launcher is used and the request is as before. */
  public boolean isEmpty() {
    return stdin == null && files.isEmpty() && args.isEmpty();
  }
}
