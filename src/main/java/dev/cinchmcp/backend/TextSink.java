package dev.cinchmcp.backend;

/** A stream's characters as read: a {@link StreamCapture}, or a {@link FramedStdout} before one. */
public interface TextSink {

  void append(char[] buf, int off, int len);

  void append(char c);

  default void append(String text) {
    char[] chars = text.toCharArray();
    append(chars, 0, chars.length);
  }
}
