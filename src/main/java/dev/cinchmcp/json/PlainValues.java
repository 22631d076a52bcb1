package dev.cinchmcp.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A JSON tree as the plain Java values the SDK takes for params (ordered maps, lists, strings,
 * Jackson's numbers, booleans, null): what {@code convertValue(node, Object.class)} gives, without
 * its first use's tens of milliseconds of set-up in a fresh JVM. Loops, not lambdas: on the way to
 * the first answer a lambda's first use costs milliseconds.
 */
public final class PlainValues {

  private PlainValues() {}

  public static Object of(JsonNode node) {
    if (node.isObject()) {
      Map<String, Object> map = new LinkedHashMap<>();
      for (Map.Entry<String, JsonNode> field : node.properties()) {
        map.put(field.getKey(), of(field.getValue()));
      }
      return map;
    }
    if (node.isArray()) {
      List<Object> list = new ArrayList<>(node.size());
      for (JsonNode element : node) {
        list.add(of(element));
      }
      return list;
    }
    return node.isTextual()
        ? node.textValue()
        : node.isNumber() ? node.numberValue() : node.isBoolean() ? node.booleanValue() : null;
  }
}
