package dev.cinchmcp.backend.cinch;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** Reads the start of an error body, never all of it: an error page can be arbitrarily large. */
final class BoundedBody {

  private BoundedBody() {}

  /** Up to {@code limit} bytes of the body as UTF-8 text (a cut character becomes U+FFFD). */
  static String read(InputStream in, int limit) throws IOException {
    byte[] bytes = in.readNBytes(limit);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  /** Discards what is left of a small body (so the connection can be reused), up to a limit. */
  static void skip(InputStream in) throws IOException {
    in.readNBytes(64 * 1024);
  }
}
