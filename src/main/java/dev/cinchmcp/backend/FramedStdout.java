package dev.cinchmcp.backend;

import dev.cinchmcp.backend.WrittenFiles.Kind;
import dev.cinchmcp.backend.WrittenFiles.State;
import dev.cinchmcp.backend.WrittenFiles.WrittenFile;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Stdout with the launcher's {@link OutFrame} taken out before the rest reaches {@code text}. A
 * file's size is checked against the limits as soon as its line names it: nothing past them is
 * held.
 */
final class FramedStdout implements TextSink {

  /** The longest line without data: a name of 1,024 bytes in base64, and room around it. */
  private static final int MAX_LINE = 1_500;

  private final TextSink text;
  private final String open;
  private final String close;
  private int matched; // characters of the opening marker seen, held back
  // MISSING: text, watching for the marker; CUT: in the frame; COMPLETE: text again; DAMAGED:
  // the frame did not read as one, the rest is dropped.
  private State state = State.MISSING;
  private boolean lineBreakNext; // the marker seen: its newline next

  private final StringBuilder line = new StringBuilder();
  private int spaces;
  private WrittenFile header; // a file whose data is being read, still without it
  private byte[] encoded; // its data as read, base64
  private int filled;

  private int lines;
  private final List<WrittenFile> files = new ArrayList<>();
  private long pictureBytes;
  private int pictures;
  private int texts;
  private long unlisted;
  private long unlistedBytes;
  private String problem;

  FramedStdout(TextSink text, OutFrame frame) {
    this.text = text;
    this.open = frame.open();
    this.close = frame.close();
  }

  @Override
  public void append(char[] buf, int off, int len) {
    int end = off + len;
    for (int i = off; i < end; ) {
      if (state == State.COMPLETE || state == State.DAMAGED) {
        if (state == State.COMPLETE) {
          text.append(buf, i, end - i);
        }
        return;
      }
      if (state == State.CUT) {
        frameChar(buf[i++]);
      } else if (matched > 0) {
        if (buf[i] == open.charAt(matched)) {
          i++;
          if (++matched == open.length()) {
            matched = 0;
            state = State.CUT;
            lineBreakNext = true;
          }
        } else {
          finish(); // not the marker: what was held is text ('[' occurs only at its start)
        }
      } else {
        int j = i;
        while (j < end && buf[j] != '[') {
          j++;
        }
        text.append(buf, i, j - i);
        matched = j < end ? 1 : 0;
        i = j + 1;
      }
    }
  }

  /** The end of the stream: a marker's start held back is text after all. */
  void finish() {
    if (state == State.MISSING && matched > 0) {
      text.append(open.substring(0, matched));
      matched = 0;
    }
  }

  /** What the frame brought, or why nothing came; call after {@link #finish()}. */
  WrittenFiles files() {
    return state == State.COMPLETE
        ? new WrittenFiles(state, files, unlisted, unlistedBytes, problem)
        : new WrittenFiles(state, List.of(), 0, 0, problem);
  }

  private void frameChar(char c) {
    if (lineBreakNext) {
      lineBreakNext = false;
      if (c != '\n') {
        broken("no line break after the opening marker");
      }
    } else if (c == '\n') {
      endLine();
    } else if (encoded != null) {
      if (filled == encoded.length) {
        broken("a file whose bytes do not match its size");
      } else if (c > 127) {
        broken("a file's bytes that are not base64");
      } else {
        encoded[filled++] = (byte) c;
      }
    } else if (line.length() >= MAX_LINE) {
      broken("a line longer than " + MAX_LINE + " characters");
    } else {
      line.append(c);
      if (c == ' ' && ++spaces == 3 && line.charAt(0) != '[') {
        startData();
      }
    }
  }

  /** "KIND SIZE NAME " read: a picture or small file's data follows, up to the line's end. */
  private void startData() {
    String[] parts = line.toString().split(" ", -1);
    Kind kind = parts[0].length() == 1 ? Kind.of(parts[0].charAt(0)) : null;
    if (kind == null || !kind.hasData()) {
      return; // read to the line's end, checked there
    }
    long size = number(parts[1]);
    String name = name(parts[2]);
    boolean picture = kind == Kind.PICTURE;
    if (size < 0 || name == null) {
      broken("a malformed line");
    } else if (picture
        ? size > WrittenFiles.MAX_FILE_BYTES
            || pictureBytes + size > WrittenFiles.MAX_TOTAL_BYTES
            || pictures >= WrittenFiles.MAX_PICTURES
        : size > WrittenFiles.MAX_TEXT_BYTES || texts >= WrittenFiles.MAX_TEXTS) {
      broken("more than its limits allow");
    } else {
      pictureBytes += picture ? size : 0;
      pictures += picture ? 1 : 0;
      texts += picture ? 0 : 1;
      header = new WrittenFile(name, size, kind, null);
      encoded = new byte[(int) (4 * ((size + 2) / 3))];
      filled = 0;
    }
  }

  private void endLine() {
    String read = line.toString();
    line.setLength(0);
    spaces = 0;
    lines++;
    if (encoded != null) {
      byte[] data = filled < encoded.length ? new byte[0] : decode(encoded);
      if (data == null) {
        broken("a file's bytes that are not base64");
      } else if (data.length != header.size()) {
        broken("a file whose bytes do not match its size");
      } else {
        files.add(new WrittenFile(header.name(), data.length, header.kind(), data));
      }
      encoded = null;
      return;
    }
    if (read.startsWith("[")) {
      if (read.equals(close + " " + (lines - 1))) {
        state = State.COMPLETE;
      } else {
        broken("an end line that does not match");
      }
      return;
    }
    String[] parts = read.split(" ", -1);
    if (parts.length == 3 && parts[0].equals("m")) {
      unlisted = number(parts[1]);
      unlistedBytes = number(parts[2]);
      if (unlisted < 0 || unlistedBytes < 0) {
        broken("a malformed line");
      }
      return;
    }
    String name = parts.length == 4 && parts[3].equals("-") ? name(parts[2]) : null;
    if (parts[0].equals("!") && name != null) {
      problem = name;
      return;
    }
    Kind kind = parts[0].length() == 1 ? Kind.of(parts[0].charAt(0)) : null;
    long size = name == null ? -1 : number(parts[1]);
    if (kind == null || kind.hasData() || size < 0 || files.size() >= WrittenFiles.MAX_LISTED) {
      broken("a malformed line");
    } else {
      files.add(new WrittenFile(name, size, kind, null));
    }
  }

  private void broken(String why) {
    state = State.DAMAGED;
    problem = "the frame held " + why;
    encoded = null;
    files.clear();
  }

  private static byte[] decode(byte[] base64) {
    try {
      return Base64.getDecoder().decode(base64);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static long number(String digits) {
    return digits.matches("[0-9]{1,15}") ? Long.parseLong(digits) : -1;
  }

  /** A name in base64 of its UTF-8 (invalid bytes become U+FFFD), or null. */
  private static String name(String base64) {
    byte[] bytes = decode(base64.getBytes(StandardCharsets.ISO_8859_1));
    return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
  }
}
