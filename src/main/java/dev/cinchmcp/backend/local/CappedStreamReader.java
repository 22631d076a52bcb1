package dev.cinchmcp.backend.local;

import dev.cinchmcp.backend.OutFrame;
import dev.cinchmcp.backend.StreamCapture;
import java.io.IOException;
import java.io.InputStream;

/**
 * Drains one output stream of a sandbox to its end into a {@link StreamCapture}. Draining
 * everything matters: a program blocked on a full pipe would never exit.
 *
 * <p>Runs on its own thread ({@link #run()}); the result is read once the stream has ended.
 */
final class CappedStreamReader extends StreamCapture implements Runnable {

  private final InputStream stream;

  CappedStreamReader(InputStream stream) {
    this(stream, null);
  }

  CappedStreamReader(InputStream stream, OutFrame out) {
    super(out);
    this.stream = stream;
  }

  @Override
  public void run() {
    byte[] buffer = new byte[8192];
    try (stream) {
      for (int n; (n = stream.read(buffer)) >= 0; ) {
        feed(buffer, 0, n);
      }
    } catch (IOException e) {
      // The pipe closes when the sandbox is killed; what was read so far is the output.
    }
  }
}
