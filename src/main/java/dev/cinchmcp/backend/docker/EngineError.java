package dev.cinchmcp.backend.docker;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;

/**
 * An answer of the engine that is not a success: the status and the engine's own message (its JSON
 * {@code message}, which says what it refused and why).
 */
final class EngineError extends IOException {

  private final int status;
  private final String engineMessage;

  private EngineError(int status, String engineMessage, String request) {
    super(request + " answered " + status + ": " + engineMessage, null);
    this.status = status;
    this.engineMessage = engineMessage;
  }

  static EngineError of(int status, String body, String request) {
    String message = body.strip();
    try {
      JsonNode node = Engine.JSON.readTree(body);
      if (node != null && node.hasNonNull("message")) {
        message = node.get("message").asText();
      }
    } catch (IOException notJson) {
      // the body as it is
    }
    if (message.length() > 400) {
      message = message.substring(0, 400) + "...";
    }
    return new EngineError(status, message.isEmpty() ? "(no message)" : message, request);
  }

  int status() {
    return status;
  }

  /** What the engine said, without the request. */
  String engineMessage() {
    return engineMessage;
  }
}
