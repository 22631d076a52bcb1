package dev.cinchmcp.json;

import com.fasterxml.jackson.databind.JsonNode;

/** Words for JSON values in messages to a client: what it sent, never a Java type. */
public final class JsonWords {

  private JsonWords() {}

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
}
