package dev.cinchmcp.backend.docker;

import dev.cinchmcp.backend.Language;
import dev.cinchmcp.backend.RunFailure;
import java.io.IOException;
import java.util.Locale;

/**
 * An answer of the engine that is not a success: the status and the engine's own message (its JSON
 * {@code message}, which says what it refused and why); and what a failed run tells the model.
 */
final class EngineError extends IOException {

  private final int status;
  private final String engineMessage;

  private EngineError(int status, String engineMessage, String request) {
    super(request + " answered " + status + ": " + engineMessage, null);
    this.status = status;
    this.engineMessage = engineMessage;
  }

  /** The engine's answer to {@code request} (its query left out: it may be long). */
  static EngineError of(EngineHttp.Response answer, String request) {
    String message = answer.text().strip();
    try {
      message = Engine.JSON.readTree(message).path("message").asText(message);
    } catch (IOException notJson) {
      // the body as it is
    }
    if (message.length() > 400) {
      message = message.substring(0, 400) + "...";
    }
    return new EngineError(
        answer.status(), message.isEmpty() ? "(no message)" : message, request.split("\\?", 2)[0]);
  }

  int status() {
    return status;
  }

  /** What the engine said, without the request. */
  String engineMessage() {
    return engineMessage;
  }

  /** The engine no longer has the image a container was to be made of. */
  boolean imageGone() {
    return status == 404 && engineMessage.toLowerCase(Locale.ROOT).contains("image");
  }

  /** What a run of {@code image} that the engine refused tells the model. */
  RunFailure runFailure(String image, Language language) {
    String said = engineMessage.toLowerCase(Locale.ROOT);
    if (imageGone()) {
      return new RunFailure(
          RunFailure.Reason.IMAGE_GONE,
          "The container engine has no image "
              + image
              + " any more ("
              + engineMessage
              + "). Nothing was run. Try again: the next run pulls it (or tell the user to run"
              + " docker pull "
              + image
              + ").");
    }
    if (said.contains("executable file not found") || said.contains("no such file or directory")) {
      return new RunFailure(
          RunFailure.Reason.IMAGE_UNUSABLE,
          "The image "
              + image
              + " cannot run programs here ("
              + engineMessage
              + "): it needs "
              + (language == Language.PYTHON ? "python3" : "node")
              + " and timeout (coreutils or busybox) on its PATH. Nothing was run. Tell the user to"
              + " set "
              + DockerSettings.imageSetting(language)
              + " to such an image, e.g. the default.");
    }
    return new RunFailure(
        RunFailure.Reason.ENGINE_REFUSED,
        "The container engine refused the run ("
            + getMessage()
            + "). Nothing was run. Tell the user; --check shows the engine's set-up.");
  }

  /** The engine failed ({@code what}) and said {@code cause}: it may not be running. */
  static RunFailure failed(String what, Throwable cause) {
    return new RunFailure(
        RunFailure.Reason.SANDBOX_FAILED,
        "The container engine "
            + what
            + " ("
            + cause.getMessage()
            + "). Check that the engine is running (docker info), then try again.");
  }
}
