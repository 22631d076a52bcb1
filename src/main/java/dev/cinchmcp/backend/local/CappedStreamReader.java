package dev.cinchmcp.backend.local;

import dev.cinchmcp.backend.CappedText;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;

/**
 * Drains one output stream of a sandbox to its end, keeping only its first {@link CappedText#LIMIT}
 * characters and counting the rest. Draining everything matters: a program blocked on a full pipe
 * would never exit. Keeping only the start matters: a flood must not fill the server's heap.
 *
 * <p>Runs on its own thread ({@link #run()}); {@link #result()} is read once the stream has ended.
 */
final class CappedStreamReader implements Runnable {

  private final InputStream stream;
  // One character beyond the limit, so that CappedText.cutIndex can see whether the kept text would
  // end in half a surrogate pair.
  private final StringBuilder kept = new StringBuilder();
  private long length;

  CappedStreamReader(InputStream stream) {
    this.stream = stream;
  }

  @Override
  public void run() {
    char[] buffer = new char[8192];
    // Invalid UTF-8 becomes U+FFFD, as a terminal would show it.
    try (Reader reader = new InputStreamReader(stream, StandardCharsets.UTF_8)) {
      int n;
      while ((n = reader.read(buffer)) >= 0) {
        synchronized (this) {
          int room = CappedText.LIMIT + 1 - kept.length();
          if (room > 0) {
            kept.append(buffer, 0, Math.min(room, n));
          }
          length += n;
        }
      }
    } catch (IOException e) {
      // The pipe closes when the sandbox is killed; what was read so far is the output.
    }
  }

  /** The kept start of the stream and its full length, so far. */
  synchronized CappedText result() {
    return new CappedText(kept.substring(0, CappedText.cutIndex(kept, CappedText.LIMIT)), length);
  }

  /**
   * Like {@link #result()}, with a line of the sandbox's own appended (e.g. why it was stopped).
   */
  synchronized CappedText resultWithNote(String note) {
    CappedText text = result();
    if (note == null) {
      return text;
    }
    String separator = text.text().isEmpty() || text.text().endsWith("\n") ? "" : "\n";
    String line = separator + note + "\n";
    // A stream already cut keeps its cut; the note then only counts in the length.
    return text.truncated()
        ? new CappedText(text.text(), text.originalLength() + line.length())
        : CappedText.of(text.text() + line);
  }
}
