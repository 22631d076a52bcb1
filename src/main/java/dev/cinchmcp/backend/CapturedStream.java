package dev.cinchmcp.backend;

import dev.cinchmcp.text.CappedText;

/** One output stream of a sandbox of this machine as captured, read once the sandbox has ended. */
public interface CapturedStream {

  /**
   * The stream as shown; with {@code note} not null, a line of the sandbox's own after it (why it
   * was stopped).
   */
  CappedText result(String note);

  /** What the launcher's frame brought; {@link WrittenFiles#NOT_ASKED} without one. */
  WrittenFiles files();
}
