package dev.cinchmcp.transport;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * Stdin's lines, each split at '\n' (a trailing '\r' dropped; the rest of a line over {@link
 * StdioTransport#MAX_LINE_BYTES} thrown away, it is {@link #TOO_LONG}), and each line as the one
 * JSON-RPC 2.0 message it must hold, the id as written. Strict UTF-8 ({@code C0 AF} is no '/'); a
 * line of several values is refused whole, each request on it with a readable id getting the error
 * (no client waits for an answer that will not come).
 */
final class LineParser {

  enum Kind {
    REQUEST,
    NOTIFICATION,
    RESPONSE,
    CANCELLED,
    INVALID
  }

  /**
   * A message ({@code node}, its string or number {@code id}), or, INVALID, the error ({@code
   * code}, {@code problem}) each of {@code ids} gets (a null id when none could be read).
   */
  record Message(
      Kind kind, JsonNode node, RequestId id, int code, String problem, List<RequestId> ids) {}

  private static final String CANCELLED_METHOD = "notifications/cancelled";
  // deepest nesting accepted: the SDK converts recursively; a thousand deep exhausts a stack
  private static final int MAX_DEPTH = 64;
  private static final List<RequestId> NO_ID = Collections.singletonList(null);

  private record Value(JsonNode node, RequestId id) {}

  static final byte[] TOO_LONG = new byte[0];

  private final ObjectMapper mapper;
  private final InputStream in;
  private final byte[] chunk = new byte[64 * 1024];
  private int chunkPos;
  private int chunkEnd;
  private byte[] line = new byte[8 * 1024];
  private int lineLength;

  LineParser(ObjectMapper mapper, InputStream in) {
    this.mapper = mapper;
    this.in = in;
  }

  /** The next line (a copy), {@link #TOO_LONG}, or null at the end; a last unended line counts. */
  byte[] next() throws IOException {
    if (line.length > 1024 * 1024) {
      line = new byte[8 * 1024]; // give back the buffer of a huge line once it has passed
    }
    lineLength = 0;
    boolean overflow = false;
    while (true) {
      if (chunkPos == chunkEnd) {
        int n = in.read(chunk);
        if (n < 0) {
          return overflow ? TOO_LONG : lineLength == 0 ? null : finish();
        }
        chunkPos = 0;
        chunkEnd = n;
      }
      int newline = indexOf(chunk, chunkPos, chunkEnd);
      int stop = newline < 0 ? chunkEnd : newline;
      if (!overflow) {
        int count = stop - chunkPos;
        if (lineLength + count > StdioTransport.MAX_LINE_BYTES) {
          overflow = true;
          lineLength = 0;
        } else {
          append(chunk, chunkPos, count);
        }
      }
      chunkPos = newline < 0 ? chunkEnd : newline + 1;
      if (newline >= 0) {
        return overflow ? TOO_LONG : finish();
      }
    }
  }

  private byte[] finish() {
    int n = lineLength;
    if (n > 0 && line[n - 1] == '\r') {
      n--;
    }
    return Arrays.copyOf(line, n);
  }

  private void append(byte[] src, int from, int count) {
    if (lineLength + count > line.length) {
      line = Arrays.copyOf(line, Math.max(line.length * 2, lineLength + count));
    }
    System.arraycopy(src, from, line, lineLength, count);
    lineLength += count;
  }

  private static int indexOf(byte[] bytes, int from, int to) {
    for (int i = from; i < to; i++) {
      if (bytes[i] == '\n') {
        return i;
      }
    }
    return -1;
  }

  Message parse(byte[] bytes) {
    CharBuffer chars;
    try {
      chars =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes));
    } catch (CharacterCodingException e) {
      return invalid(
          JsonRpcWriter.PARSE_ERROR,
          "Parse error: the line is not valid UTF-8 (an invalid or overlong byte sequence); it was"
              + " discarded.",
          NO_ID);
    }
    List<Value> values = new ArrayList<>(1);
    try (JsonParser p =
        mapper.getFactory().createParser(chars.array(), chars.arrayOffset(), chars.limit())) {
      while (p.nextToken() != null) {
        values.add(readValue(p));
      }
    } catch (JacksonException | RuntimeException e) {
      return invalid(
          JsonRpcWriter.PARSE_ERROR, "Parse error: the line is not valid JSON.", ids(values));
    } catch (IOException e) {
      return invalid(JsonRpcWriter.PARSE_ERROR, "Parse error: the line could not be read.", NO_ID);
    }
    if (values.size() == 1) {
      return classify(values.get(0).node(), values.get(0).id());
    }
    return invalid(
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

  private static Message classify(JsonNode node, RequestId id) {
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
      Kind kind =
          hasId
              ? Kind.REQUEST
              : CANCELLED_METHOD.equals(method.asText()) ? Kind.CANCELLED : Kind.NOTIFICATION;
      return new Message(kind, node, id, 0, null, List.of());
    }
    if (hasId && (node.has("result") || node.has("error"))) {
      return new Message(Kind.RESPONSE, node, id, 0, null, List.of());
    }
    return invalid(
        id,
        "Invalid request: a message needs a \"method\" (or, for a response, \"result\" or \"error\").");
  }

  private static boolean deeperThan(JsonNode root, int limit) {
    ArrayDeque<JsonNode> level = new ArrayDeque<>();
    level.add(root);
    for (int depth = 1; !level.isEmpty(); depth++) {
      if (depth > limit) {
        return true;
      }
      ArrayDeque<JsonNode> next = new ArrayDeque<>();
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

  private static List<RequestId> ids(List<Value> values) {
    List<RequestId> ids = new ArrayList<>();
    for (Value v : values) {
      if (v.id() != null && v.node().has("method")) {
        ids.add(v.id());
      }
    }
    return ids.isEmpty() ? NO_ID : ids;
  }

  private static Message invalid(RequestId id, String problem) {
    return invalid(JsonRpcWriter.INVALID_REQUEST, problem, Collections.singletonList(id));
  }

  private static Message invalid(int code, String problem, List<RequestId> ids) {
    return new Message(Kind.INVALID, null, null, code, problem, ids);
  }
}
