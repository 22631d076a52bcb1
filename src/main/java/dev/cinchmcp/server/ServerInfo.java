package dev.cinchmcp.server;

import dev.cinchmcp.config.Version;
import dev.cinchmcp.mcp2026.EarlyDiscover;
import dev.cinchmcp.transport.EarlyInput;
import dev.cinchmcp.transport.FirstLineHandOver;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * What the server says of itself to a client, and its answer to a {@code server/discover} that
 * comes before the server is built ({@link #answerEarly}). No logger here: this runs before the
 * first one is made.
 */
public final class ServerInfo {

  public static final String NAME = "cinch-mcp";

  /** For the model, in the 2026 discover result: what the server is for, not what the tool says. */
  public static final String INSTRUCTIONS =
      "cinch-mcp runs code in disposable sandboxes, never on the user's machine. Call"
          + " execute_code with a complete program whenever running it gives a surer answer than"
          + " reasoning; each call starts from nothing.";

  /**
   * How long the start waits for the client's first message before it builds the server. A client
   * writes it as soon as it has started the server, so it is there by the time a JVM gets here; a
   * later one costs the start at most this.
   */
  static final long FIRST_MESSAGE_WAIT_MS = 50;

  private ServerInfo() {}

  /**
   * Starts reading {@code in} and answers a first {@code server/discover} on {@code out} at once,
   * before anything else is built; or, after the fast launch's launcher has read the first line,
   * takes over what it did with it ({@link FirstLineHandOver#NONE} where nothing was read). Serve
   * the stream returned; {@link EarlyInput#answeredFirst} tells whether the client has its first
   * answer.
   */
  public static EarlyInput answerEarly(
      InputStream in, OutputStream out, FirstLineHandOver handedOver) {
    EarlyInput input = new EarlyInput(in, handedOver);
    input.answerFirst(earlyDiscover(), out, FIRST_MESSAGE_WAIT_MS);
    return input;
  }

  /** The answer to a discover read before the server is built, here or in the launcher. */
  public static EarlyDiscover earlyDiscover() {
    return new EarlyDiscover(NAME, Version.get(), INSTRUCTIONS);
  }
}
