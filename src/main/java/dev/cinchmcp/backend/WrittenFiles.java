package dev.cinchmcp.backend;

import java.util.List;
import java.util.Objects;

/**
 * The files a program wrote and the figures it showed, as its launcher handed them back ({@link
 * OutFrame}): each listed by name and size, pictures and small files with their bytes.
 *
 * @param state whether they arrived, and if not, why
 * @param files in the order they were made
 * @param unlisted files left out of the list altogether (past {@link #MAX_LISTED})
 * @param unlistedBytes their size in all
 * @param problem the launcher's own words when it could not hand them back, else null
 */
public record WrittenFiles(
    State state, List<WrittenFile> files, long unlisted, long unlistedBytes, String problem) {

  /** Whether the files came back. */
  public enum State {
    /** The program was not run with a frame: nothing to say. */
    NOT_ASKED,
    /** The frame arrived whole (it may list no file at all). */
    COMPLETE,
    /** A frame was asked for and none arrived (the launcher was killed, or stdout was cut). */
    MISSING,
    /** The frame started but did not end: the output was cut inside it. */
    CUT,
    /** The frame did not read as one: a line broke its format, or it was larger than allowed. */
    DAMAGED
  }

  /** At most this many pictures per call, in the frame and in the result. */
  public static final int MAX_PICTURES = 8;

  /**
   * A picture larger than this stays in the sandbox (listed); smaller ones are scaled if need be.
   */
  public static final int MAX_FILE_BYTES = 8 * 1024 * 1024;

  /** The pictures in one frame together: the server holds at most this much per run. */
  public static final int MAX_TOTAL_BYTES = 12 * 1024 * 1024;

  /** A file this small that is not a picture comes back whole (shown when it is text). */
  public static final int MAX_TEXT_BYTES = 8 * 1024;

  public static final int MAX_TEXTS = 8;

  /** Files listed one by one; the rest are counted. */
  public static final int MAX_LISTED = 50;

  public static final WrittenFiles NOT_ASKED =
      new WrittenFiles(State.NOT_ASKED, List.of(), 0, 0, null);

  public WrittenFiles {
    Objects.requireNonNull(state, "state");
    files = List.copyOf(files);
  }

  /** Whether there is anything to show: files, or a frame that should have come and did not. */
  public boolean anything() {
    return state != State.NOT_ASKED && (state != State.COMPLETE || !files.isEmpty());
  }

  /**
   * One file the program wrote, or one figure it showed.
   *
   * @param name the path (relative to the working directory when inside it), or "[figure N]" for
   *     the N-th figure matplotlib showed
   * @param size its size in bytes
   * @param kind what the launcher made of it
   * @param data its bytes, for {@link Kind#PICTURE} and {@link Kind#TEXT}; else null
   */
  public record WrittenFile(String name, long size, Kind kind, byte[] data) {
    public WrittenFile {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(kind, "kind");
    }

    /** A figure matplotlib showed, rather than a file the program wrote. */
    public boolean figure() {
      return name.startsWith("[figure ");
    }
  }

  /** The launcher's verdict on one file. */
  public enum Kind {
    /** A picture (PNG, JPEG, GIF, WebP by its first bytes), with its bytes. */
    PICTURE('p'),
    /** A picture larger than {@link #MAX_FILE_BYTES}: left in the sandbox. */
    PICTURE_TOO_LARGE('P'),
    /** A picture past the count or the total size a frame carries: left in the sandbox. */
    PICTURE_OVER_BUDGET('C'),
    /** A small file, with its bytes (shown as text when it is text). */
    TEXT('t'),
    /** Any other file: listed by name and size. */
    LISTED('f');

    final char code;

    Kind(char code) {
      this.code = code;
    }

    static Kind of(char code) {
      for (Kind kind : values()) {
        if (kind.code == code) {
          return kind;
        }
      }
      return null;
    }

    boolean hasData() {
      return this == PICTURE || this == TEXT;
    }
  }
}
