package dev.cinchmcp.transport;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One line of stdin as the one JSON value it must hold, the id as written. Strict UTF-8 ({@code C0
 * AF} is no '/'); a line of several values is refused whole, each request on it with a readable id
 * getting the error (no client waits for an answer that will not come).
 */
final class LineParser {

  record Value(JsonNode node, RequestId id) {}

  /** Exactly one value, or an error for the line with the ids of the requests seen on it. */
  record Line(Value value, int errorCode, String error, List<RequestId> ids) {
    boolean ok() {
      return error == null;
    }
  }

  private final ObjectMapper mapper;

  LineParser(ObjectMapper mapper) {
    this.mapper = mapper;
  }

  Line parse(byte[] bytes) {
    CharBuffer chars;
    try {
      chars = strictUtf8().decode(ByteBuffer.wrap(bytes));
    } catch (CharacterCodingException e) {
      return failed(
          JsonRpcWriter.PARSE_ERROR,
          "Parse error: the line is not valid UTF-8 (an invalid or overlong byte sequence); it was"
              + " discarded.",
          List.of());
    }
    List<Value> values = new ArrayList<>(1);
    try (JsonParser p =
        mapper.getFactory().createParser(chars.array(), chars.arrayOffset(), chars.limit())) {
      while (p.nextToken() != null) {
        values.add(readValue(p));
      }
    } catch (JacksonException | RuntimeException e) {
      return failed(
          JsonRpcWriter.PARSE_ERROR, "Parse error: the line is not valid JSON.", ids(values));
    } catch (IOException e) {
      return failed(
          JsonRpcWriter.PARSE_ERROR, "Parse error: the line could not be read.", List.of());
    }
    if (values.size() == 1) {
      return new Line(values.get(0), 0, null, List.of());
    }
    return failed(
        JsonRpcWriter.INVALID_REQUEST,
        "Invalid request: a line must hold exactly one JSON-RPC message, this one held "
            + values.size()
            + " JSON values; none of them was handled. Send each message on its own line.",
        ids(values));
  }

  private Value readValue(JsonParser p) throws IOException {
    if (p.currentToken() != JsonToken.START_OBJECT) {
      return new Value(mapper.readTree(p), null);
    }
    ObjectNode object = mapper.createObjectNode();
    RequestId id = null;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      JsonToken token = p.nextToken();
      if ("id".equals(name)) {
        id =
            switch (token) {
              case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> RequestId.ofNumber(p.getText());
              case VALUE_STRING -> RequestId.ofString(p.getText());
              default -> null;
            };
      }
      object.set(name, mapper.readTree(p));
    }
    return new Value(object, id);
  }

  private static List<RequestId> ids(List<Value> values) {
    List<RequestId> ids = new ArrayList<>();
    for (Value v : values) {
      if (v.id() != null && v.node().has("method")) {
        ids.add(v.id());
      }
    }
    return ids;
  }

  private static Line failed(int code, String message, List<RequestId> ids) {
    return new Line(null, code, message, ids);
  }

  private static CharsetDecoder strictUtf8() {
    return StandardCharsets.UTF_8
        .newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
  }
}
