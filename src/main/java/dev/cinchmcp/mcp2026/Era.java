package dev.cinchmcp.mcp2026;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Which revision a message belongs to, decided per message as the 2026-07-28 backward-compatibility
 * rules say: a {@code server/discover}, or a message whose {@code params._meta} names the protocol
 * version, is 2026-era; anything else is served as the 2025 revisions are. A probe does not settle
 * the connection: an {@code initialize} after it still opens a 2025 session.
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
