package dev.cinchmcp.transport;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.util.RawValue;
import java.io.IOException;
import java.io.OutputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The only writer of stdout, and the JSON-RPC replies: each message whole, as one line, flushed,
 * never interleaved. U+2028, U+2029 and U+0085 are escaped too: some readers (JavaScript's,
 * Python's splitlines) take them for line ends. Plain values (all that {@code json.SdkResults}
 * makes) are written by hand on a generator, without the serialiser look-ups and reflection a fresh
 * JVM pays tens of milliseconds for on first use; anything else goes to Jackson, whole.
 */
final class JsonRpcWriter {

  static final int PARSE_ERROR = -32700;
  static final int INVALID_REQUEST = -32600;
  static final int METHOD_NOT_FOUND = -32601;
  static final int INVALID_PARAMS = -32602;
  static final int INTERNAL_ERROR = -32603;
  static final int SERVER_BUSY = -32000; // implementation-defined (-32000 to -32099)

  private static final Logger log = LoggerFactory.getLogger(JsonRpcWriter.class);
  private static final int MAX_PLAIN_DEPTH = 32; // deeper than ours: left to Jackson's limits

  private final ObjectWriter json;
  private final OutputStream out;
  private final ReentrantLock lock = new ReentrantLock();
  private final AtomicInteger unfinished = new AtomicInteger();
  private final AtomicInteger dropped = new AtomicInteger();
  private final CompletableFuture<Void> firstWritten;
  private volatile boolean closed;
  private boolean broken;

  JsonRpcWriter(ObjectMapper mapper, OutputStream out) {
    this(mapper, out, new CompletableFuture<>());
  }

  JsonRpcWriter(ObjectMapper mapper, OutputStream out, CompletableFuture<Void> firstWritten) {
    this.json = mapper.writer().with(new LineSafeEscapes());
    this.out = out;
    this.firstWritten = firstWritten;
  }

  /** The message written by hand when it is all plain values; null when it is not. */
  byte[] plain(Object message) throws IOException {
    ByteArrayBuilder buffer = new ByteArrayBuilder();
    try (JsonGenerator generator = json.createGenerator(buffer, JsonEncoding.UTF8)) {
      if (!writePlain(generator, message, 0)) {
        generator.disable(JsonGenerator.Feature.AUTO_CLOSE_JSON_CONTENT); // left half-written
        return null;
      }
    }
    return buffer.toByteArray();
  }

  // loops, not streams: on the way to the first answer a lambda's first use costs milliseconds
  private static boolean writePlain(JsonGenerator out, Object value, int depth) throws IOException {
    if (value instanceof Map<?, ?> map && depth < MAX_PLAIN_DEPTH) {
      out.writeStartObject();
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        if (!(entry.getKey() instanceof String key)) {
          return false;
        }
        out.writeFieldName(key);
        if (!writePlain(out, entry.getValue(), depth + 1)) {
          return false;
        }
      }
      out.writeEndObject();
    } else if (value instanceof List<?> list && depth < MAX_PLAIN_DEPTH) {
      out.writeStartArray();
      for (Object item : list) {
        if (!writePlain(out, item, depth + 1)) {
          return false;
        }
      }
      out.writeEndArray();
    } else if (value instanceof RawValue raw) {
      raw.serialize(out, null); // a number id, as the client wrote it
    } else if (value instanceof String text) {
      out.writeString(text);
    } else if (value instanceof Boolean bool) {
      out.writeBoolean(bool);
    } else if (value instanceof Integer || value instanceof Long) {
      out.writeNumber(((Number) value).longValue());
    } else if (value instanceof Double number) {
      out.writeNumber(number);
    } else if (value == null) {
      out.writeNull();
    } else {
      return false;
    }
    return true;
  }

  /** Writes one message; returns false if it was not written (stdout gone, or closed). */
  boolean write(Object message) {
    byte[] bytes;
    try {
      byte[] plain = plain(message);
      bytes = plain != null ? plain : json.writeValueAsBytes(message);
    } catch (IOException | RuntimeException e) {
      // our bug, not the client's: later messages still go out
      log.error("A message could not be serialised ({}); it was not sent", e.toString());
      return false;
    }
    if (closed) {
      dropped.incrementAndGet();
      return false;
    }
    unfinished.incrementAndGet();
    lock.lock();
    try {
      if (broken || closed) {
        dropped.incrementAndGet();
        return false;
      }
      out.write(bytes);
      out.write('\n');
      out.flush();
      firstWritten.complete(null);
      return true;
    } catch (IOException e) {
      broken = true;
      dropped.incrementAndGet();
      log.warn("stdout is closed; the client is gone ({})", e.toString());
      return false;
    } finally {
      unfinished.decrementAndGet();
      lock.unlock();
    }
  }

  /**
   * Stops writing: writes under way get until {@code deadlineNanos} to finish, never longer, even
   * if stuck on a client not reading. Returns how many messages were not written.
   */
  int close(long deadlineNanos) {
    closed = true;
    try {
      long left = deadlineNanos - System.nanoTime();
      if (lock.tryLock(Math.max(0, left), TimeUnit.NANOSECONDS)) {
        try {
          if (!broken) {
            out.flush();
          }
        } catch (IOException e) {
          broken = true;
        } finally {
          lock.unlock();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return dropped.get() + unfinished.get();
  }

  static final class LineSafeEscapes extends CharacterEscapes {
    private final int[] ascii = standardAsciiEscapesForJSON();

    @Override
    public int[] getEscapeCodesForAscii() {
      return ascii;
    }

    @Override
    public SerializableString getEscapeSequence(int ch) {
      return switch (ch) {
        case 0x2028, 0x2029, 0x85 ->
            new SerializedString("\\u" + Integer.toHexString(0x10000 | ch).substring(1));
        default -> null;
      };
    }
  }

  static Map<String, Object> reply(Object id, int code, String message) {
    Map<String, Object> error = new LinkedHashMap<>();
    error.put("code", code);
    error.put("message", message);
    return reply(id, error);
  }

  static Map<String, Object> result(Object id, Object result) {
    return message(id, "result", result);
  }

  static Map<String, Object> reply(Object id, Object error) {
    return message(id, "error", error);
  }

  private static Map<String, Object> message(Object id, String key, Object value) {
    Map<String, Object> reply = new LinkedHashMap<>();
    reply.put("jsonrpc", "2.0");
    reply.put("id", id);
    reply.put(key, value);
    return reply;
  }
}
