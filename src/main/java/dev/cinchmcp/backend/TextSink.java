package dev.cinchmcp.backend;

/**
 * Takes a stream's characters as they are read: a {@link StreamCapture}, or a {@link FramedStdout}
 * in front of one. A reader of output (the Cinch answer's JSON, a sandbox's pipe) hands them on
 * without knowing which.
 */
public interface TextSink {

  void append(char[] buf, int off, int len);

  void append(char c);

  default void append(String text) {
    char[] chars = text.toCharArray();
    append(chars, 0, chars.length);
  }
}
