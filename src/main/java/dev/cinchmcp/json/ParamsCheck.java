package dev.cinchmcp.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Set;

/**
 * The shape of a request's {@code params}, checked before the SDK sees them: it answers a wrong
 * shape with -32603 and a Java exception's text, where the client should get -32602 and the field.
 */
public final class ParamsCheck {

  public static final String ONE_OF_LEVELS =
      "one of debug, info, notice, warning, error, critical, alert, emergency";

  public static final Set<String> LOG_LEVELS =
      Set.of("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency");

  private ParamsCheck() {}

  /** Why these params are wrong for the method, as a sentence; null if fine. */
  public static String problem(String method, JsonNode params) {
    boolean required =
        switch (method) {
          case "initialize", "tools/call", "logging/setLevel" -> true;
          default -> false;
        };
    if (params == null) {
      return required ? "\"params\" is required for " + method + " (an object)." : null;
    }
    if (!params.isObject()) {
      return mustBe("params", "an object", params);
    }
    String meta = metaProblem(params.get("_meta"));
    return meta != null
        ? meta
        : switch (method) {
          case "tools/call" -> toolsCall(params);
          case "logging/setLevel" -> setLevel(params);
          case "initialize" -> initialize(params);
          case "tools/list" -> optional(params, "cursor", JsonNode::isTextual, "a string");
          default -> null;
        };
  }

  private static String metaProblem(JsonNode meta) {
    if (meta == null) {
      return null;
    }
    if (!meta.isObject()) {
      return mustBe("params._meta", "an object", meta);
    }
    JsonNode token = meta.get("progressToken");
    if (token != null
        && !token.isTextual()
        && !(token.isIntegralNumber() && token.canConvertToLong())) {
      return mustBe("params._meta.progressToken", "a string or an integer", token);
    }
    return null;
  }

  private static String toolsCall(JsonNode params) {
    JsonNode name = params.get("name");
    if (name == null || !name.isTextual() || name.asText().isEmpty()) {
      return mustBe("params.name", "the tool's name, a non-empty string", name);
    }
    JsonNode arguments = params.get("arguments");
    if (arguments != null && !arguments.isNull() && !arguments.isObject()) {
      return mustBe("params.arguments", "an object of the tool's arguments", arguments);
    }
    return null;
  }

  private static String setLevel(JsonNode params) {
    JsonNode level = params.get("level");
    if (level == null || !level.isTextual() || !LOG_LEVELS.contains(level.asText())) {
      return mustBe("params.level", ONE_OF_LEVELS, level);
    }
    return null;
  }

  private static String initialize(JsonNode params) {
    JsonNode version = params.get("protocolVersion");
    if (version == null || !version.isTextual()) {
      return mustBe("params.protocolVersion", "a string such as \"2025-06-18\"", version);
    }
    String capabilities = optional(params, "capabilities", JsonNode::isObject, "an object");
    return capabilities != null
        ? capabilities
        : optional(params, "clientInfo", JsonNode::isObject, "an object");
  }

  private static String optional(
      JsonNode params, String field, java.util.function.Predicate<JsonNode> ok, String expected) {
    JsonNode value = params.get(field);
    return value == null || ok.test(value) ? null : mustBe("params." + field, expected, value);
  }

  /** Words for a JSON value in a message to a client: what it sent, never a Java type. */
  public static String describe(JsonNode value) {
    if (value == null || value.isMissingNode()) {
      return "nothing";
    }
    if (value.isTextual()) {
      String text = value.asText();
      return "the string \"" + (text.length() > 40 ? text.substring(0, 40) + "..." : text) + "\"";
    }
    return value.isNumber()
        ? "a number"
        : value.isBoolean()
            ? value.asText()
            : value.isArray() ? "an array" : value.isObject() ? "an object" : "null";
  }

  private static String mustBe(String field, String expected, JsonNode got) {
    return "\"" + field + "\" must be " + expected + " (got " + describe(got) + ").";
  }
}
