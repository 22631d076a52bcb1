package dev.cinchmcp.backend.docker;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cinchmcp.backend.RunFailure;
import dev.cinchmcp.backend.RunListener;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The images the programs run in: each is looked for once, and pulled on first use when missing
 * (one pull per image); its progress goes to stderr and to the log of every run that waits.
 */
final class Images {

  private static final Logger log = LoggerFactory.getLogger(Images.class);

  /** Progress lines are passed on at most this often per layer state (every few seconds). */
  private static final long PROGRESS_EVERY_NANOS = 3_000_000_000L;

  private final Engine engine;
  private final ExecutorService workers;
  private final Map<String, CompletableFuture<Void>> ready = new ConcurrentHashMap<>();
  private final Map<String, Consumer<String>> watchers = new ConcurrentHashMap<>();

  Images(Engine engine, ExecutorService workers) {
    this.engine = engine;
    this.workers = workers;
  }

  /** Completes when the image is there, else fails with a {@link RunFailure} saying what to do. */
  CompletableFuture<Void> ensure(String image, String setting, RunListener listener) {
    Consumer<String> tell = message -> listener.log(RunListener.Level.INFO, message);
    watchers.merge(image, tell, Consumer::andThen);
    CompletableFuture<Void> future =
        ready.computeIfAbsent(
            image, name -> CompletableFuture.runAsync(() -> fetch(name, setting), workers));
    // A failed look-up is not kept: the next run tries again (the user may have pulled it).
    future.whenComplete(
        (done, error) -> {
          watchers.remove(image);
          if (error != null) {
            ready.remove(image, future);
          }
        });
    return future;
  }

  /** Whether the engine has the image, never pulling (a call does); a find counts as ensure's. */
  boolean present(String image) throws IOException {
    CompletableFuture<Void> known = ready.get(image);
    if (known != null) {
      return known.isDone() && !known.isCompletedExceptionally();
    }
    if (engine.image(image).isEmpty()) {
      return false;
    }
    ready.putIfAbsent(image, CompletableFuture.completedFuture(null));
    return true;
  }

  void forget(String image) {
    ready.remove(image);
  }

  /** For the ready line: the image's {@code variable} (PYTHON_VERSION), if here, else its name. */
  String version(String image, String variable) {
    try {
      for (JsonNode entry :
          engine.image(image).map(i -> i.path("Config").path("Env")).orElseThrow()) {
        if (entry.asText().startsWith(variable + "=")) {
          return entry.asText().substring(variable.length() + 1);
        }
      }
    } catch (IOException | RuntimeException e) {
      // not here, or the engine failed: the ready line names the image
    }
    return "(" + image + ")";
  }

  private void fetch(String image, String setting) {
    try {
      if (engine.image(image).isEmpty()) {
        pull(image);
      }
    } catch (IOException e) {
      String why = e instanceof EngineError refused ? refused.engineMessage() : e.getMessage();
      throw new RunFailure(
          RunFailure.Reason.IMAGE_UNUSABLE,
          "The container engine could not get the image "
              + image
              + " ("
              + why
              + "). Nothing was run. Tell the user to check the network and run docker pull "
              + image
              + ", or to set "
              + setting
              + " to an image the engine has.");
    }
  }

  private void pull(String image) throws IOException {
    say(
        image,
        "Pulling image " + image + " for the docker backend (first use; this can take a minute)");
    long started = System.nanoTime();
    try (EngineHttp.Connection answer = engine.pull(image);
        BufferedReader lines =
            new BufferedReader(new InputStreamReader(answer.input(), StandardCharsets.UTF_8))) {
      long lastSaid = System.nanoTime();
      String line;
      while ((line = lines.readLine()) != null) {
        if (line.isBlank()) {
          continue;
        }
        JsonNode event = Engine.JSON.readTree(line);
        if (event.hasNonNull("error") || event.hasNonNull("errorDetail")) {
          String error =
              event.path("error").asText(event.path("errorDetail").path("message").asText());
          throw new IOException(error);
        }
        if (System.nanoTime() - lastSaid >= PROGRESS_EVERY_NANOS) {
          lastSaid = System.nanoTime();
          say(image, "Pulling " + image + ": " + describe(event));
        }
      }
    }
    long seconds = (System.nanoTime() - started) / 1_000_000_000;
    say(image, "Pulled image " + image + " in " + seconds + " s");
  }

  private void say(String image, String message) {
    log.info(message);
    Consumer<String> tell = watchers.get(image);
    if (tell != null) {
      tell.accept(message);
    }
  }

  /** One progress event as a phrase: "Downloading layer 1a2b: 12 of 30 MB". */
  static String describe(JsonNode event) {
    String status = event.path("status").asText("working");
    String id = event.path("id").asText("");
    JsonNode detail = event.path("progressDetail");
    long current = detail.path("current").asLong(0);
    long total = detail.path("total").asLong(0);
    StringBuilder out = new StringBuilder(status);
    if (!id.isEmpty()) {
      out.append(" layer ").append(id);
    }
    if (total > 0) {
      out.append(": ").append(current >> 20).append(" of ").append(total >> 20).append(" MB");
    }
    return out.toString();
  }
}
