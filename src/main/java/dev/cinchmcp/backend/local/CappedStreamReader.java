package dev.cinchmcp.backend.local;

import dev.cinchmcp.backend.CapturedStream;
import dev.cinchmcp.backend.FramedStdout;
import dev.cinchmcp.backend.OutFrame;
import dev.cinchmcp.backend.StreamCapture;
import dev.cinchmcp.backend.WrittenFiles;
import dev.cinchmcp.text.CappedText;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;

/**
 * Drains one output stream of a sandbox to its end, keeping its start and its end ({@link
 * StreamCapture}) and counting the rest. Draining everything matters: a program blocked on a full
 * pipe would never exit. Keeping only the two ends matters: a flood must not fill the server's
 * heap.
 *
 * <p>Runs on its own thread ({@link #run()}); {@link #result()} is read once the stream has ended.
 */
final class CappedStreamReader implements Runnable, CapturedStream {

  private final InputStream stream;
  private final StreamCapture capture = new StreamCapture();
  private final FramedStdout framed;

  CappedStreamReader(InputStream stream) {
    this(stream, null);
  }

  /**
   * With {@code out} not null, the launcher's frame is taken out of the stream ({@link #files}).
   */
  CappedStreamReader(InputStream stream, OutFrame out) {
    this.stream = stream;
    this.framed = out == null ? null : new FramedStdout(capture, out);
  }

  @Override
  public void run() {
    char[] buffer = new char[8192];
    // Invalid UTF-8 becomes U+FFFD, as a terminal would show it.
    try (Reader reader = new InputStreamReader(stream, StandardCharsets.UTF_8)) {
      int n;
      while ((n = reader.read(buffer)) >= 0) {
        if (n > 0) {
          synchronized (this) {
            if (framed != null) {
              framed.append(buffer, 0, n);
            } else {
              capture.append(buffer, 0, n);
            }
          }
        }
      }
    } catch (IOException e) {
      // The pipe closes when the sandbox is killed; what was read so far is the output.
    }
  }

  /** The kept start and end of the stream and its full length, so far. */
  synchronized CappedText result() {
    return result(null);
  }

  /**
   * The kept start and end of the stream and its full length, so far; with {@code note} not null, a
   * line of the sandbox's own appended: it is the last thing in the stream, so it is always shown,
   * and it counts in the length.
   */
  @Override
  public synchronized CappedText result(String note) {
    if (framed != null) {
      framed.finish();
    }
    return capture.resultWithNote(note);
  }

  @Override
  public synchronized WrittenFiles files() {
    if (framed == null) {
      return WrittenFiles.NOT_ASKED;
    }
    framed.finish();
    return framed.files();
  }
}
