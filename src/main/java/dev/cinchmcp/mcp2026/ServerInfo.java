package dev.cinchmcp.mcp2026;

import dev.cinchmcp.config.Version;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the server says of itself in both eras: its name and instructions, the versions served per
 * request, the {@code server/discover} result and the cache hints cacheable results carry. Nothing
 * of the SDK, Jackson or a logger is reached from here: the fast launch's launcher uses it.
 */
public final class ServerInfo {

  public static final String NAME = "cinch-mcp";
  public static final String DISCOVER = "server/discover";

  /** For the model, in the 2026 discover result: what the server is for, not what the tool says. */
  public static final String INSTRUCTIONS =
      "cinch-mcp runs code in disposable sandboxes, never on the user's machine. Call"
          + " execute_code with a complete program whenever running it gives a surer answer than"
          + " reasoning; each call starts from nothing.";

  /** The versions served per request; the 2025 ones are served through {@code initialize}. */
  public static final List<String> SUPPORTED_VERSIONS = List.of("2026-07-28");

  private ServerInfo() {}

  /** The answer to a discover read before the server is built, in the server or its launcher. */
  public static EarlyDiscover earlyDiscover() {
    return new EarlyDiscover();
  }

  /** The result of every discover: it depends on nothing a request says. */
  static Map<String, Object> discoverResult() {
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("resultType", "complete");
    result.put("supportedVersions", SUPPORTED_VERSIONS);
    Map<String, Object> capabilities = new LinkedHashMap<>();
    capabilities.put("tools", Map.of());
    capabilities.put("logging", Map.of()); // only for requests that set a log level
    result.put("capabilities", capabilities);
    result.put("instructions", INSTRUCTIONS);
    cacheable(result);
    return result;
  }

  /** Adds the cache hints and the server's identity to a result that may be kept. */
  static void cacheable(Map<String, Object> result) {
    // not kept: they describe this machine's backend and interpreters, which a restart may change
    result.put("ttlMs", 0L);
    result.put("cacheScope", "private"); // this user's machine: not for sharing
    result.put("_meta", withIdentity(null));
  }

  /** A result's {@code _meta} (a map, or null for none) with the server's identity added. */
  static Map<String, Object> withIdentity(Object meta) {
    Map<String, Object> withInfo = new LinkedHashMap<>();
    if (meta instanceof Map<?, ?> m) {
      m.forEach((k, v) -> withInfo.put((String) k, v));
    }
    Map<String, Object> identity = new LinkedHashMap<>();
    identity.put("name", NAME);
    identity.put("version", Version.get());
    withInfo.put(RequestContext.SERVER_INFO, identity);
    return withInfo;
  }
}
