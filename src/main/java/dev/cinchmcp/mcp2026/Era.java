package dev.cinchmcp.mcp2026;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Which revision a message belongs to, per message (2026-07-28's compatibility rules): a {@code
 * server/discover}, or one whose {@code params._meta} names the version, is 2026-era; all else
 * 2025.
 */
public final class Era {

  public static final String DISCOVER = "server/discover";

  private Era() {}

  /** Whether this request or notification is 2026-era. */
  public static boolean isModern(String method, JsonNode params) {
    if (DISCOVER.equals(method)) {
      return true;
    }
    JsonNode meta = params == null ? null : params.get("_meta");
    return meta != null && meta.isObject() && meta.has(RequestContext.PROTOCOL_VERSION);
  }
}
