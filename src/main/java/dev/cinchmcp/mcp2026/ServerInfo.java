package dev.cinchmcp.mcp2026;

import dev.cinchmcp.config.Version;

/**
 * What the server says of itself to a client, in both eras, and its answer to a {@code
 * server/discover} read before the server is built. No logger here: this runs before the first one
 * is made.
 */
public final class ServerInfo {

  public static final String NAME = "cinch-mcp";

  /** For the model, in the 2026 discover result: what the server is for, not what the tool says. */
  public static final String INSTRUCTIONS =
      "cinch-mcp runs code in disposable sandboxes, never on the user's machine. Call"
          + " execute_code with a complete program whenever running it gives a surer answer than"
          + " reasoning; each call starts from nothing.";

  private ServerInfo() {}

  /** The answer to a discover read before the server is built, in the server or its launcher. */
  public static EarlyDiscover earlyDiscover() {
    return new EarlyDiscover(NAME, Version.get(), INSTRUCTIONS);
  }
}
