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
    if (value.isNumber()) {
      return "a number";
    }
    if (value.isBoolean()) {
      return value.asText();
    }
    if (value.isArray()) {
      return "an array";
    }
    if (value.isObject()) {
      return "an object";
    }
    return "null";
  }
}
