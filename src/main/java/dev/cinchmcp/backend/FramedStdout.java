package dev.cinchmcp.backend;

import dev.cinchmcp.backend.WrittenFiles.Kind;
import dev.cinchmcp.backend.WrittenFiles.WrittenFile;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Stdout with the launcher's {@link OutFrame} taken out before the rest reaches its {@link
 * StreamCapture}, which counts exactly as without a frame. The frame's files are decoded as they
 * come, within its limits (past them nothing is held). Not thread-safe: one reader feeds it.
 */
final class FramedStdout implements TextSink {

  /** The longest line without data: a name of 1,024 bytes in base64, and room around it. */
  private static final int MAX_LINE = 1_500;

  private enum Mode {
    TEXT, // the program's output, watching for the opening marker
    OPENED, // the marker seen: its newline next
    LINE, // a line of the frame: kind, size, name
    DATA, // a file's bytes, in base64, up to the line's end
    AFTER, // the frame ended: the rest is text again
    BROKEN // the frame did not read as one: the rest is dropped
  }

  private final StreamCapture capture;
  private final char[] open;
  private final String close;
  private int matched;
  private Mode mode = Mode.TEXT;

  private final StringBuilder line = new StringBuilder();
  private int lines;
  private final List<WrittenFile> files = new ArrayList<>();
  private long pictureBytes;
  private int texts;
  private long unlisted;
  private long unlistedBytes;
  private String problem;

  private Kind kind;
  private String name;
  private byte[] data;
  private int filled;
  private int quad;
  private int quadChars;
  private int padding;

  public FramedStdout(StreamCapture capture, OutFrame frame) {
    this.capture = capture;
    this.open = frame.open().toCharArray();
    this.close = frame.close();
  }

  @Override
  public void append(char[] buf, int off, int len) {
    int i = off;
    int end = off + len;
    while (i < end) {
      if (mode == Mode.AFTER) {
        capture.append(buf, i, end - i);
        return;
      }
      if (mode != Mode.TEXT) {
        frameChar(buf[i++]);
        continue;
      }
      if (matched == 0) {
        int j = i;
        while (j < end && buf[j] != open[0]) {
          j++;
        }
        if (j > i) {
          capture.append(buf, i, j - i);
          i = j;
          continue;
        }
        matched = 1;
        i++;
        continue;
      }
      if (buf[i] == open[matched]) {
        i++;
        if (++matched == open.length) {
          matched = 0;
          mode = Mode.OPENED;
        }
        continue;
      }
      // Not the marker: what was held back is text ('[' starts the marker and occurs only there).
      capture.append(open, 0, matched);
      matched = 0;
    }
  }

  @Override
  public void append(char c) {
    append(new char[] {c}, 0, 1);
  }

  /** The end of the stream: a marker's start held back is text after all. */
  public void finish() {
    if (mode == Mode.TEXT && matched > 0) {
      capture.append(open, 0, matched);
      matched = 0;
    }
  }

  /** What the frame brought, or why nothing came; call after {@link #finish()}. */
  public WrittenFiles files() {
    WrittenFiles.State state =
        switch (mode) {
          case TEXT -> WrittenFiles.State.MISSING;
          case AFTER -> WrittenFiles.State.COMPLETE;
          case BROKEN -> WrittenFiles.State.DAMAGED;
          default -> WrittenFiles.State.CUT;
        };
    return state == WrittenFiles.State.COMPLETE
        ? new WrittenFiles(state, files, unlisted, unlistedBytes, problem)
        : new WrittenFiles(state, List.of(), 0, 0, problem);
  }

  private void frameChar(char c) {
    switch (mode) {
      case OPENED -> {
        if (c != '\n') {
          broken("no line break after the opening marker");
        } else {
          mode = Mode.LINE;
        }
      }
      case LINE -> lineChar(c);
      case DATA -> dataChar(c);
      default -> {
        // BROKEN: dropped
      }
    }
  }

  private void lineChar(char c) {
    if (c == '\n') {
      endLine();
      return;
    }
    if (line.length() >= MAX_LINE) {
      broken("a line longer than " + MAX_LINE + " characters");
      return;
    }
    line.append(c);
    if (c == ' ' && line.charAt(0) != '[' && spaces() == 3) {
      startFile();
    }
  }

  private long spaces() {
    return line.chars().filter(c -> c == ' ').count();
  }

  /** "KIND SIZE NAME " read: with data, its bytes follow; without, "-" and the line's end. */
  private void startFile() {
    String[] parts = line.toString().split(" ", -1);
    Kind k = parts[0].length() == 1 ? Kind.of(parts[0].charAt(0)) : null;
    if (k == null || !k.hasData()) {
      return; // read to the line's end, checked there
    }
    long size = number(parts[1]);
    String n = name(parts[2]);
    if (size < 0 || n == null) {
      broken("a malformed line");
      return;
    }
    boolean fits =
        k == Kind.PICTURE
            ? size <= WrittenFiles.MAX_FILE_BYTES
                && pictureBytes + size <= WrittenFiles.MAX_TOTAL_BYTES
                && count(Kind.PICTURE) < WrittenFiles.MAX_PICTURES
            : size <= WrittenFiles.MAX_TEXT_BYTES && texts < WrittenFiles.MAX_TEXTS;
    if (!fits) {
      broken("more than its limits allow");
      return;
    }
    kind = k;
    name = n;
    data = new byte[(int) size];
    filled = 0;
    quad = 0;
    quadChars = 0;
    padding = 0;
    if (k == Kind.PICTURE) {
      pictureBytes += size;
    } else {
      texts++;
    }
    mode = Mode.DATA;
  }

  private void dataChar(char c) {
    if (c == '\n') {
      if (quadChars != 0 || filled != data.length) {
        broken("a file whose bytes do not match its size");
        return;
      }
      files.add(new WrittenFile(name, data.length, kind, data));
      data = null;
      lines++;
      line.setLength(0);
      mode = Mode.LINE;
      return;
    }
    int v = c == '=' ? 0 : c < 128 ? BASE64[c] : -1;
    if (v < 0 || (padding > 0 && c != '=')) {
      broken("a file's bytes that are not base64");
      return;
    }
    if (c == '=') {
      padding++;
    }
    quad = (quad << 6) | v;
    if (++quadChars == 4) {
      int n = 3 - padding;
      if (padding > 2 || filled + n > data.length) {
        broken("a file whose bytes do not match its size");
        return;
      }
      for (int k = 0; k < n; k++) {
        data[filled++] = (byte) (quad >> (16 - 8 * k));
      }
      quad = 0;
      quadChars = 0;
    }
  }

  private void endLine() {
    String text = line.toString();
    line.setLength(0);
    if (text.startsWith("[")) {
      if (text.equals(close + " " + lines)) {
        mode = Mode.AFTER;
      } else {
        broken("an end line that does not match");
      }
      return;
    }
    String[] parts = text.split(" ", -1);
    if (parts.length == 3 && parts[0].equals("m")) {
      unlisted = number(parts[1]);
      unlistedBytes = number(parts[2]);
      if (unlisted < 0 || unlistedBytes < 0) {
        broken("a malformed line");
        return;
      }
      lines++;
      return;
    }
    if (parts.length != 4 || !parts[3].equals("-")) {
      broken("a malformed line");
      return;
    }
    String n = name(parts[2]);
    long size = number(parts[1]);
    if (parts[0].equals("!") && n != null) {
      problem = n;
      lines++;
      return;
    }
    Kind k = parts[0].length() == 1 ? Kind.of(parts[0].charAt(0)) : null;
    if (k == null
        || k.hasData()
        || n == null
        || size < 0
        || files.size() >= WrittenFiles.MAX_LISTED) {
      broken("a malformed line");
      return;
    }
    files.add(new WrittenFile(n, size, k, null));
    lines++;
  }

  private long count(Kind k) {
    return files.stream().filter(f -> f.kind() == k).count();
  }

  private void broken(String why) {
    mode = Mode.BROKEN;
    problem = "the frame held " + why;
    data = null;
    files.clear();
  }

  private static long number(String digits) {
    if (digits.isEmpty() || digits.length() > 15 || !digits.chars().allMatch(Character::isDigit)) {
      return -1;
    }
    return Long.parseLong(digits);
  }

  /** A name in base64 of its UTF-8 (invalid bytes become U+FFFD), or null. */
  private static String name(String base64) {
    try {
      return new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static final int[] BASE64 = new int[128];

  static {
    java.util.Arrays.fill(BASE64, -1);
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (int i = 0; i < alphabet.length(); i++) {
      BASE64[alphabet.charAt(i)] = i;
    }
  }
}
