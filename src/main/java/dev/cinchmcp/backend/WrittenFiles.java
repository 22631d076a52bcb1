package dev.cinchmcp.backend;

import java.util.List;

/**
 * The files a program wrote and the figures it showed, as its launcher handed them back ({@link
 * OutFrame}), in the order made; {@code unlisted}: past {@link #MAX_LISTED}; {@code problem}: the
 * launcher's words when it could not hand them back, else null.
 */
public record WrittenFiles(
    State state, List<WrittenFile> files, long unlisted, long unlistedBytes, String problem) {

  public enum State {
    NOT_ASKED, // run without a frame
    COMPLETE,
    MISSING, // none arrived: the launcher was killed, or stdout was cut
    CUT, // started but did not end
    DAMAGED // a line broke its format, or it was larger than allowed
  }

  public static final int MAX_PICTURES = 8;
  public static final int MAX_FILE_BYTES = 8 * 1024 * 1024;
  public static final int MAX_TOTAL_BYTES = 12 * 1024 * 1024;
  public static final int MAX_TEXT_BYTES = 8 * 1024;
  public static final int MAX_TEXTS = 8;
  public static final int MAX_LISTED = 50;

  public static final WrittenFiles NOT_ASKED =
      new WrittenFiles(State.NOT_ASKED, List.of(), 0, 0, null);

  public WrittenFiles {
    files = List.copyOf(files);
  }

  /** Whether there is anything to show: files, or a frame that should have come and did not. */
  public boolean anything() {
    return state != State.NOT_ASKED && (state != State.COMPLETE || !files.isEmpty());
  }

  /** {@code name}: a path, or "[figure N]"; {@code data}: for PICTURE and TEXT, else null. */
  public record WrittenFile(String name, long size, Kind kind, byte[] data) {
    public boolean figure() {
      return name.startsWith("[figure ");
    }
  }

  /** The launcher's verdict on one file, with its code in the frame ({@link OutFrame}). */
  public enum Kind {
    PICTURE, // p
    PICTURE_TOO_LARGE, // P: past MAX_FILE_BYTES, left in the sandbox
    PICTURE_OVER_BUDGET, // C: past the count or total size of a frame
    TEXT, // t: a small file, with its bytes
    LISTED; // f

    static Kind of(char code) {
      int at = "pPCtf".indexOf(code);
      return at < 0 ? null : values()[at];
    }

    boolean hasData() {
      return this == PICTURE || this == TEXT;
    }
  }
}
