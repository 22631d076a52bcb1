package dev.cinchmcp.mcp2026;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A 2026-era request answered with an error: bad envelope, version not served, no such method. */
public final class ProtocolError extends RuntimeException {

  private final transient Map<String, Object> error = new LinkedHashMap<>();

  private ProtocolError(int code, String message, Object data) {
    super(message, null, false, false);
    error.put("code", code);
    error.put("message", message);
    if (data != null) {
      error.put("data", data);
    }
  }

  static ProtocolError invalidParams(String message) {
    return new ProtocolError(-32602, message, null);
  }

  static ProtocolError methodNotFound(String message) {
    return new ProtocolError(-32601, message, null);
  }

  static ProtocolError unsupportedVersion(String requested, List<String> supported) {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("supported", supported);
    data.put("requested", requested);
    return new ProtocolError(
        -32022, // UNSUPPORTED_PROTOCOL_VERSION
        "Unsupported protocol version \""
            + requested
            + "\": send requests with "
            + String.join(" or ", supported)
            + " in params._meta[\""
            + RequestContext.PROTOCOL_VERSION
            + "\"], or open a 2025 session with initialize.",
        data);
  }

  public int code() {
    return (int) error.get("code");
  }

  /** The JSON-RPC {@code error} object. */
  public Map<String, Object> error() {
    return error;
  }
}
