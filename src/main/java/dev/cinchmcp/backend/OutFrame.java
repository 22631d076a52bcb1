package dev.cinchmcp.backend;

import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * How the files a program wrote leave the sandbox on every backend: at the end of stdout in one
 * frame, which {@link FramedStdout} takes out before the stream is cut or shown.
 *
 * <pre>
 * [cinch-mcp files NONCE]\n
 * KIND SIZE NAME DATA\n        one line per file, in the order they were made
 * m COUNT BYTES\n              files past the list's limit, if any
 * [cinch-mcp end NONCE] LINES\n
 * </pre>
 *
 * KIND is a {@link WrittenFiles.Kind} code ({@code p} picture, {@code t} small file, both with
 * DATA; {@code P}, {@code C} pictures left in the sandbox; {@code f} other files), or {@code !}
 * when the launcher failed (NAME then holds its words); NAME and DATA are base64, DATA is {@code -}
 * when absent. The nonce is fresh per call: output never opens a frame by accident.
 */
public record OutFrame(String nonce) {

  private static final SecureRandom RANDOM = new SecureRandom();

  public static OutFrame fresh() {
    return new OutFrame(HexFormat.of().toHexDigits(RANDOM.nextLong()));
  }

  public String open() {
    return "[cinch-mcp files " + nonce + "]";
  }

  public String close() {
    return "[cinch-mcp end " + nonce + "]";
  }
}
