package dev.cinchmcp.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A JSON tree as the plain Java values the SDK takes for a message's params: maps (in the order
 * written), lists, strings, numbers (Integer, Long, BigInteger, Double, as Jackson's untyped
 * reading makes them), booleans and null. Jackson's {@code convertValue(node, Object.class)} gives
 * the same values, but in a fresh JVM its first use costs tens of milliseconds of set-up, paid by
 * {@code initialize} and again, in part, by every call.
 */
public final class PlainValues {

  private PlainValues() {}

  public static Object of(JsonNode node) {
    switch (node.getNodeType()) {
      case OBJECT:
        Map<String, Object> map = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> field : node.properties()) {
          map.put(field.getKey(), of(field.getValue()));
        }
        return map;
      case ARRAY:
        List<Object> list = new ArrayList<>(node.size());
        for (JsonNode element : node) {
          list.add(of(element));
        }
        return list;
      case STRING:
        return node.textValue();
      case NUMBER:
        return node.numberValue();
      case BOOLEAN:
        return node.booleanValue();
      default:
        return null;
    }
  }
}
