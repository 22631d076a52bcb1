package dev.cinchmcp.mcp2026;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a 2026-07-28 client learns of the server without asking about a call: the versions served,
 * the {@code server/discover} result, and the cache hints and server identity every cacheable
 * result carries. Nothing of the SDK or of Jackson is reached from here, so the fast launch's
 * launcher can answer a discover with it in a JVM that has loaded next to nothing.
 */
public final class Discovery {

  /** The versions served per request; the 2025 ones are served through {@code initialize}. */
  public static final List<String> SUPPORTED_VERSIONS = List.of("2026-07-28");

  /**
   * How long a client may keep the discover and tools/list results. None: they cannot change while
   * this process runs, but they describe this machine's backend and interpreters, which a restart
   * with other settings changes, and a client may key its cache on less than the settings.
   */
  static final long TTL_MS = 0;

  /** The results describe this user's machine (its backend, its interpreters): not for sharing. */
  static final String CACHE_SCOPE = "private";

  private Discovery() {}

  /** The result of every discover: it depends on nothing a request says ({@link EarlyDiscover}). */
  static Map<String, Object> result(Map<String, Object> serverInfo, String instructions) {
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("resultType", "complete");
    result.put("supportedVersions", SUPPORTED_VERSIONS);
    Map<String, Object> capabilities = new LinkedHashMap<>();
    capabilities.put("tools", Map.of());
    capabilities.put("logging", Map.of()); // only for requests that set a log level
    result.put("capabilities", capabilities);
    result.put("instructions", instructions);
    cacheable(result, serverInfo);
    return result;
  }

  /** The server's identity as results carry it in {@code _meta}, in a fixed order. */
  static Map<String, Object> serverInfo(String name, String version) {
    Map<String, Object> info = new LinkedHashMap<>();
    info.put("name", name);
    info.put("version", version);
    return info;
  }

  /** Adds the cache hints and the server's identity to a result that may be kept. */
  static void cacheable(Map<String, Object> result, Map<String, Object> serverInfo) {
    result.put("ttlMs", TTL_MS);
    result.put("cacheScope", CACHE_SCOPE);
    result.put("_meta", withServerInfo(null, serverInfo));
  }

  /** A result's {@code _meta} (a map, or null for none) with the server's identity added. */
  static Map<String, Object> withServerInfo(Object meta, Map<String, Object> serverInfo) {
    Map<String, Object> withInfo = new LinkedHashMap<>();
    if (meta instanceof Map<?, ?> m) {
      m.forEach((k, v) -> withInfo.put((String) k, v));
    }
    withInfo.put(RequestContext.SERVER_INFO, serverInfo);
    return withInfo;
  }
}
