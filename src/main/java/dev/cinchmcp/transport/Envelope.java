package dev.cinchmcp.transport;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;

/**
 * What one parsed line is, by the JSON-RPC 2.0 rules: a request, a notification, a response, a
 * cancellation (handled by the transport itself), or not a message at all, with the reason why.
 *
 * @param id the request's id (String or Number) where one could be read, else null
 * @param problem why the line is not a valid message, or null
 */
record Envelope(Kind kind, Object id, String problem) {

  enum Kind {
    REQUEST,
    NOTIFICATION,
    RESPONSE,
    CANCELLED,
    INVALID
  }

  static final String CANCELLED_METHOD = "notifications/cancelled";

  static Envelope classify(JsonNode node) {
    if (node.isArray()) {
      return invalid(null, "Batches (JSON arrays) are not supported: send one JSON-RPC message per line.");
    }
    if (!node.isObject()) {
      return invalid(null, "Invalid request: a message must be a JSON object.");
    }
    JsonNode idNode = node.get("id");
    boolean hasId = idNode != null;
    boolean validId = hasId && (idNode.isTextual() || idNode.isIntegralNumber() || idNode.isNumber());
    Object id = validId ? idValue(idNode) : null;
    if (!"2.0".equals(node.path("jsonrpc").asText(null)) || !node.path("jsonrpc").isTextual()) {
      return invalid(id, "Invalid request: \"jsonrpc\" must be \"2.0\".");
    }
    if (hasId && !validId) {
      return invalid(null, "Invalid request: \"id\" must be a string or a number.");
    }
    JsonNode method = node.get("method");
    if (method != null) {
      if (!method.isTextual() || method.asText().isEmpty()) {
        return invalid(id, "Invalid request: \"method\" must be a non-empty string.");
      }
      JsonNode params = node.get("params");
      if (params != null && !params.isObject() && !params.isArray() && !params.isNull()) {
        return invalid(id, "Invalid request: \"params\" must be an object.");
      }
      if (!hasId) {
        return new Envelope(CANCELLED_METHOD.equals(method.asText()) ? Kind.CANCELLED : Kind.NOTIFICATION, null, null);
      }
      return new Envelope(Kind.REQUEST, id, null);
    }
    if (hasId && (node.has("result") || node.has("error"))) {
      return new Envelope(Kind.RESPONSE, id, null);
    }
    return invalid(id, "Invalid request: a message needs a \"method\" (or, for a response, \"result\" or \"error\").");
  }

  /** The id as the SDK carries it: a String, or an Integer / Long / BigInteger / Double. */
  static Object idValue(JsonNode idNode) {
    if (idNode == null || idNode.isNull()) {
      return null;
    }
    return idNode.isNumber() ? idNode.numberValue() : idNode.asText();
  }

  /** Converts a classified node into the SDK's message type. */
  static JSONRPCMessage toMessage(ObjectMapper mapper, JsonNode node) {
    Class<? extends JSONRPCMessage> type = node.has("method")
        ? (node.has("id") ? McpSchema.JSONRPCRequest.class : McpSchema.JSONRPCNotification.class)
        : McpSchema.JSONRPCResponse.class;
    return mapper.convertValue(node, type);
  }

  private static Envelope invalid(Object id, String problem) {
    return new Envelope(Kind.INVALID, id, problem);
  }
}
