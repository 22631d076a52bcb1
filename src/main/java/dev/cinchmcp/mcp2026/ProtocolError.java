package dev.cinchmcp.mcp2026;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A 2026-era request answered with an error: bad envelope, version not served, no such method. */
public final class ProtocolError extends RuntimeException {

  static final int METHOD_NOT_FOUND = -32601;
  static final int INVALID_PARAMS = -32602;
  static final int UNSUPPORTED_PROTOCOL_VERSION = -32022;

  private final int code;
  private final transient Object data;

  private ProtocolError(int code, String message, Object data) {
    super(message, null, false, false);
    this.code = code;
    this.data = data;
  }

  static ProtocolError invalidParams(String message) {
    return new ProtocolError(INVALID_PARAMS, message, null);
  }

  static ProtocolError methodNotFound(String message) {
    return new ProtocolError(METHOD_NOT_FOUND, message, null);
  }

  static ProtocolError unsupportedVersion(String requested, List<String> supported) {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("supported", supported);
    data.put("requested", requested);
    return new ProtocolError(
        UNSUPPORTED_PROTOCOL_VERSION,
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
    return code;
  }

  /** The JSON-RPC {@code error} object. */
  public Map<String, Object> error() {
    Map<String, Object> error = new LinkedHashMap<>();
    error.put("code", code);
    error.put("message", getMessage());
    if (data != null) {
      error.put("data", data);
    }
    return error;
  }
}
