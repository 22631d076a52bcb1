package dev.cinchmcp.transport;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cinchmcp.json.PlainValues;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;

/**
 * What one parsed value is by JSON-RPC 2.0's rules, or why it is not a message ({@code problem}).
 */
record Envelope(Kind kind, RequestId id, String problem) {

  enum Kind {
    REQUEST,
    NOTIFICATION,
    RESPONSE,
    CANCELLED,
    INVALID
  }

  static final String CANCELLED_METHOD = "notifications/cancelled";

  /** Deepest nesting accepted: the SDK converts recursively; a thousand deep exhausts a stack. */
  static final int MAX_DEPTH = 64;

  static Envelope classify(JsonNode node, RequestId id) {
    if (node.isArray()) {
      return invalid(
          null, "Batches (JSON arrays) are not supported: send one JSON-RPC message per line.");
    }
    if (!node.isObject()) {
      return invalid(null, "Invalid request: a message must be a JSON object.");
    }
    if (deeperThan(node, MAX_DEPTH)) {
      return invalid(id, "Invalid request: nested more than " + MAX_DEPTH + " levels deep.");
    }
    boolean hasId = node.has("id");
    if (!"2.0".equals(node.path("jsonrpc").asText(null)) || !node.path("jsonrpc").isTextual()) {
      return invalid(id, "Invalid request: \"jsonrpc\" must be \"2.0\".");
    }
    if (hasId && id == null) {
      return invalid(null, "Invalid request: \"id\" must be a string or a number.");
    }
    JsonNode method = node.get("method");
    if (method != null) {
      if (!method.isTextual() || method.asText().isEmpty()) {
        return invalid(id, "Invalid request: \"method\" must be a non-empty string.");
      }
      if (!hasId) {
        return new Envelope(
            CANCELLED_METHOD.equals(method.asText()) ? Kind.CANCELLED : Kind.NOTIFICATION,
            null,
            null);
      }
      return new Envelope(Kind.REQUEST, id, null);
    }
    if (hasId && (node.has("result") || node.has("error"))) {
      return new Envelope(Kind.RESPONSE, id, null);
    }
    return invalid(
        id,
        "Invalid request: a message needs a \"method\" (or, for a response, \"result\" or \"error\").");
  }

  /** A notification or a response as the SDK's message type. */
  static JSONRPCMessage toMessage(ObjectMapper mapper, JsonNode node) {
    if (node.has("method") && !node.has("id")) {
      // built directly: Jackson's first conversion costs a fresh JVM tens of milliseconds
      JsonNode params = node.get("params");
      return new McpSchema.JSONRPCNotification(
          McpSchema.JSONRPC_VERSION,
          node.get("method").asText(),
          params == null || params.isNull() ? null : PlainValues.of(params));
    }
    Class<? extends JSONRPCMessage> type =
        node.has("method") ? McpSchema.JSONRPCRequest.class : McpSchema.JSONRPCResponse.class;
    return mapper.convertValue(node, type);
  }

  /** Found without recursion. */
  static boolean deeperThan(JsonNode root, int limit) {
    java.util.ArrayDeque<JsonNode> level = new java.util.ArrayDeque<>();
    level.add(root);
    for (int depth = 1; !level.isEmpty(); depth++) {
      if (depth > limit) {
        return true;
      }
      java.util.ArrayDeque<JsonNode> next = new java.util.ArrayDeque<>();
      for (JsonNode n : level) {
        for (JsonNode child : n) {
          if (child.isContainerNode() && child.size() > 0) {
            next.add(child);
          }
        }
      }
      level = next;
    }
    return false;
  }

  private static Envelope invalid(RequestId id, String problem) {
    return new Envelope(Kind.INVALID, id, problem);
  }
}
