package dev.cinchmcp.transport;

import java.util.LinkedHashMap;
import java.util.Map;

/** JSON-RPC replies as the transport writes them, with the id exactly as the client wrote it. */
final class JsonRpcReplies {

  static final int PARSE_ERROR = -32700;
  static final int INVALID_REQUEST = -32600;
  static final int METHOD_NOT_FOUND = -32601;
  static final int INVALID_PARAMS = -32602;
  static final int INTERNAL_ERROR = -32603;

  /** Implementation-defined server error (JSON-RPC reserves -32000 to -32099): too much at once. */
  static final int SERVER_BUSY = -32000;

  private JsonRpcReplies() {}

  static Map<String, Object> reply(Object id, int code, String message) {
    Map<String, Object> error = new LinkedHashMap<>();
    error.put("code", code);
    error.put("message", message);
    return reply(id, error);
  }

  static Map<String, Object> result(Object id, Object result) {
    Map<String, Object> reply = new LinkedHashMap<>();
    reply.put("jsonrpc", "2.0");
    reply.put("id", id);
    reply.put("result", result);
    return reply;
  }

  /** The reply carrying this JSON-RPC {@code error} object. */
  static Map<String, Object> reply(Object id, Object error) {
    Map<String, Object> reply = new LinkedHashMap<>();
    reply.put("jsonrpc", "2.0");
    reply.put("id", id); // null when the id could not be read, as JSON-RPC asks
    reply.put("error", error);
    return reply;
  }
}
