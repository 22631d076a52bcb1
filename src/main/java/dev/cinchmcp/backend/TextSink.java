package dev.cinchmcp.backend;

/** A stream's characters as read: a {@link StreamCapture}, or a {@link FramedStdout} before one. */
public interface TextSink {

  void append(char[] buf, int off, int len);

  default void append(char c) {
    append(new char[] {c}, 0, 1);
  }

  default void append(String text) {
    append(text.toCharArray(), 0, text.length());
  }
}
