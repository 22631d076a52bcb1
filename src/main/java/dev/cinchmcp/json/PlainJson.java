package dev.cinchmcp.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.util.RawValue;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * Writes a message made only of plain values (maps with string keys, lists, strings, numbers,
 * booleans, nulls, and the raw number ids of {@code transport.RequestId}) straight to a JSON
 * generator, as Jackson's own serialisers would write them. What {@link
 * dev.cinchmcp.json.SdkResults} makes is all of that, so a call's answer needs none of the mapper's
 * serialiser machinery: no per-value serialiser look-up on each call, and no reflection over {@code
 * Integer} or {@code Boolean} (annotations, method handles) the first time one is written, which a
 * fresh JVM pays for in tens of milliseconds. A message with anything else goes to Jackson, whole
 * (big numbers too: the mapper's settings decide how those are written).
 */
public final class PlainJson {

  /** Deeper than any message of ours; anything deeper is left to Jackson and its limits. */
  private static final int MAX_DEPTH = 32;

  private PlainJson() {}

  /** Whether {@link #write} can write this value. */
  public static boolean isPlain(Object value) {
    return isPlain(value, 0);
  }

  private static boolean isPlain(Object value, int depth) {
    if (value == null
        || value instanceof String
        || value instanceof Boolean
        || value instanceof Integer
        || value instanceof Long
        || value instanceof Double
        || value instanceof RawValue) {
      return true;
    }
    if (depth >= MAX_DEPTH) {
      return false;
    }
    if (value instanceof Map<?, ?> map) {
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        if (!(entry.getKey() instanceof String) || !isPlain(entry.getValue(), depth + 1)) {
          return false;
        }
      }
      return true;
    }
    if (value instanceof List<?> list) {
      for (Object item : list) {
        if (!isPlain(item, depth + 1)) {
          return false;
        }
      }
      return true;
    }
    return false;
  }

  /** Writes a value that {@link #isPlain}. */
  public static void write(JsonGenerator out, Object value) throws IOException {
    if (value == null) {
      out.writeNull();
    } else if (value instanceof String text) {
      out.writeString(text);
    } else if (value instanceof Boolean bool) {
      out.writeBoolean(bool);
    } else if (value instanceof Integer number) {
      out.writeNumber(number);
    } else if (value instanceof Long number) {
      out.writeNumber(number);
    } else if (value instanceof Double number) {
      out.writeNumber(number);
    } else if (value instanceof RawValue raw) {
      raw.serialize(out, null); // a number id, as the client wrote it
    } else if (value instanceof Map<?, ?> map) {
      out.writeStartObject();
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        out.writeFieldName((String) entry.getKey());
        write(out, entry.getValue());
      }
      out.writeEndObject();
    } else if (value instanceof List<?> list) {
      out.writeStartArray();
      for (Object item : list) {
        write(out, item);
      }
      out.writeEndArray();
    } else {
      throw new IllegalArgumentException("not a plain value: " + value.getClass().getName());
    }
  }
}
