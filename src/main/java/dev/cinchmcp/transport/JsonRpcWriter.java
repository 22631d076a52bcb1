package dev.cinchmcp.transport;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.OutputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The only writer of the real stdout: each message goes out whole, as one line, flushed at once,
 * and never interleaved with another (one lock around serialise-and-write). Jackson escapes line
 * breaks inside strings, so a message can never span two lines.
 */
final class JsonRpcWriter {

  private static final Logger log = LoggerFactory.getLogger(JsonRpcWriter.class);

  private final ObjectMapper mapper;
  private final OutputStream out;
  private boolean broken;

  JsonRpcWriter(ObjectMapper mapper, OutputStream out) {
    this.mapper = mapper;
    this.out = out;
  }

  /** Writes one message; returns false if stdout is gone (the client went away). */
  synchronized boolean write(Object message) {
    if (broken) {
      return false;
    }
    try {
      byte[] bytes = mapper.writeValueAsBytes(message);
      out.write(bytes);
      out.write('\n');
      out.flush();
      return true;
    } catch (IOException e) {
      broken = true;
      log.warn("stdout is closed; the client is gone ({})", e.toString());
      return false;
    }
  }

  synchronized void flush() {
    try {
      out.flush();
    } catch (IOException e) {
      broken = true;
    }
  }
}
