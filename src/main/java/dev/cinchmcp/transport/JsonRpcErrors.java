package dev.cinchmcp.transport;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * JSON-RPC error replies the transport sends itself, for input that never reaches the MCP session.
 */
final class JsonRpcErrors {

  static final int PARSE_ERROR = -32700;
  static final int INVALID_REQUEST = -32600;
  static final int METHOD_NOT_FOUND = -32601;
  static final int INVALID_PARAMS = -32602;
  static final int INTERNAL_ERROR = -32603;

  /** Implementation-defined server error (JSON-RPC reserves -32000 to -32099): too much at once. */
  static final int SERVER_BUSY = -32000;

  private JsonRpcErrors() {}

  static Map<String, Object> reply(Object id, int code, String message) {
    Map<String, Object> error = new LinkedHashMap<>();
    error.put("code", code);
    error.put("message", message);
    return reply(id, error);
  }

  /** The reply carrying this JSON-RPC {@code error} object. */
  static Map<String, Object> reply(Object id, Map<String, Object> error) {
    Map<String, Object> reply = new LinkedHashMap<>();
    reply.put("jsonrpc", "2.0");
    reply.put("id", id); // null when the id could not be read, as JSON-RPC asks
    reply.put("error", error);
    return reply;
  }
}
