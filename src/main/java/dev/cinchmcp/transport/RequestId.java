package dev.cinchmcp.transport;

import com.fasterxml.jackson.databind.util.RawValue;
import java.math.BigDecimal;

/**
 * A JSON-RPC id as written: a number is echoed as its text ({@code 1e400}, not Infinity); two ids
 * are the same when their values are (1 and 1.0), which {@link #key} compares.
 */
record RequestId(Object key, Object echo, String text) {

  static RequestId ofString(String value) {
    return new RequestId(value, value, '"' + value + '"');
  }

  static RequestId ofNumber(String literal) {
    Object key;
    try {
      key = new BigDecimal(literal).stripTrailingZeros();
    } catch (NumberFormatException | ArithmeticException e) {
      key = literal; // an exponent beyond BigDecimal: the text itself must then match
    }
    return new RequestId(key, new RawValue(literal), literal);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RequestId other && key.equals(other.key);
  }

  @Override
  public int hashCode() {
    return key.hashCode();
  }

  @Override
  public String toString() {
    return text.length() > 80 ? text.substring(0, 80) + "..." : text;
  }
}
