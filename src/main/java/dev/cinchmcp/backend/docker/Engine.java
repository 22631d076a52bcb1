package dev.cinchmcp.backend.docker;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Engine API calls of this backend, at one negotiated version, each on a fresh connection;
 * {@code versionInfo} is the engine's {@code GET /version}, {@link #JSON} the package's mapper.
 */
record Engine(EngineHttp http, ApiVersion version, JsonNode versionInfo) {

  static final ObjectMapper JSON = new ObjectMapper();

  private static final Logger log = LoggerFactory.getLogger(Engine.class);

  /** How long a kill or a removal may take before it is given up on. */
  static final Duration REMOVE_LIMIT = Duration.ofSeconds(10);

  /** Control calls (create, start, remove, inspect) on an engine that is slow for a moment. */
  static final Duration CONTROL = Duration.ofSeconds(30);

  /** A socket that takes the connection but does not answer: an engine still starting. */
  private static final Duration PING = Duration.ofSeconds(10);

  private static final String FORCE_REMOVE = "?force=1&v=1";

  /** How long a removal under way is waited for (exit to removed: 10-140 ms, median 28). */
  private static final Duration REMOVAL_WAIT = Duration.ofSeconds(3);

  /**
   * An Engine API version such as 1.41. Debian's dockerd 20.10 and Podman 4 speak 1.41 at most;
   * Docker Engine 29 (current Docker Desktop) refuses clients below 1.44.
   */
  record ApiVersion(int major, int minor) {

    /** The oldest API this client can use: what Docker 20.10 and Podman 4 speak. */
    static final ApiVersion OLDEST = new ApiVersion(1, 41);

    /** The newest API asked for (Docker 27); every field sent exists from 1.41 on. */
    static final ApiVersion NEWEST = new ApiVersion(1, 47);

    /** "1.41" (a null or anything else: empty). */
    static Optional<ApiVersion> parse(String text) {
      try {
        String[] parts = text.strip().split("\\.", 3);
        return Optional.of(new ApiVersion(Integer.parseInt(parts[0]), Integer.parseInt(parts[1])));
      } catch (RuntimeException e) {
        return Optional.empty();
      }
    }

    /** Docker's negotiation: the lower maximum, not below the engine's minimum (null: none). */
    static Optional<ApiVersion> negotiate(ApiVersion engineMax, ApiVersion engineMin) {
      ApiVersion chosen = engineMax.below(NEWEST) ? engineMax : NEWEST;
      if (engineMin != null && chosen.below(engineMin)) {
        chosen = engineMin; // newer than this client asks for, but the engine takes nothing older
      }
      return chosen.below(OLDEST) || engineMax.below(chosen)
          ? Optional.empty()
          : Optional.of(chosen);
    }

    private boolean below(ApiVersion other) {
      return major != other.major ? major < other.major : minor < other.minor;
    }

    @Override
    public String toString() {
      return major + "." + minor;
    }
  }

  /** Whether something that speaks the Engine API answers at this address, quickly. */
  static boolean answers(EngineAddress address, ScheduledExecutorService timers) {
    try {
      return new EngineHttp(address, "", timers).call("GET", "/_ping", null, PING).ok();
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /** Connects and negotiates the API version (an unversioned {@code GET /version} first). */
  static Engine connect(EngineAddress address, ScheduledExecutorService timers) throws IOException {
    EngineHttp plain = new EngineHttp(address, "", timers);
    JsonNode node = new Engine(plain, null, null).json("GET", "/version", null);
    Optional<ApiVersion> max = ApiVersion.parse(node.path("ApiVersion").asText(null));
    // Top-level MinAPIVersion only: Podman repeats it, with another meaning, under Components.
    ApiVersion min = ApiVersion.parse(node.path("MinAPIVersion").asText(null)).orElse(null);
    if (max.isEmpty()) {
      throw new IOException("the engine did not say which API version it speaks");
    }
    ApiVersion chosen =
        ApiVersion.negotiate(max.get(), min)
            .orElseThrow(
                () ->
                    new IOException(
                        "the engine speaks API "
                            + max.get()
                            + (min == null ? "" : " (at least " + min + ")")
                            + ", and this server needs "
                            + ApiVersion.OLDEST
                            + " or newer: update the engine"));
    return new Engine(new EngineHttp(address, "/v" + chosen, timers), chosen, node);
  }

  EngineAddress address() {
    return http.address();
  }

  JsonNode info() throws IOException {
    return json("GET", "/info", null);
  }

  /** The image's inspection, or empty when the engine does not have it. */
  Optional<JsonNode> image(String name) throws IOException {
    try {
      return Optional.of(json("GET", "/images/" + name + "/json", null));
    } catch (EngineError e) {
      if (e.status() == 404) {
        return Optional.empty();
      }
      throw e;
    }
  }

  /** The body is the pull's progress, one JSON object per line. */
  EngineHttp.Connection pull(String image) throws IOException {
    return http.stream("/images/create?fromImage=" + encode(image), false, CONTROL);
  }

  String create(String name, ObjectNode spec) throws IOException {
    String path = "/containers/create?name=" + encode(name);
    return json("POST", path, JSON.writeValueAsString(spec)).path("Id").asText();
  }

  /** A started container's attach, and its exit status (the engine's wait, or an end mark). */
  record Attached(
      EngineHttp.Connection attach, EngineHttp.Connection exitWait, CompletableFuture<Integer> exit)
      implements AutoCloseable {
    @Override
    public void close() {
      attach.close();
      exitWait.close();
    }
  }

  /** Attaches, asks for the next exit (read on {@code reader}), starts; closes all on failure. */
  Attached attachAndStart(String id, Executor reader) throws IOException {
    String path = "/containers/" + id;
    EngineHttp.Connection attach =
        http.stream(path + "/attach?stream=1&stdin=1&stdout=1&stderr=1", true, CONTROL);
    EngineHttp.Connection exitWait = null;
    try {
      exitWait = http.stream(path + "/wait?condition=next-exit", false, CONTROL);
      Attached attached = new Attached(attach, exitWait, new CompletableFuture<>());
      reader.execute(
          () -> {
            try (InputStream body = attached.exitWait().input()) {
              JsonNode node = JSON.readTree(body.readNBytes(64 * 1024));
              if (node == null || !node.has("StatusCode")) {
                throw new IOException("the engine's wait gave no exit status");
              }
              attached.exit().complete(node.get("StatusCode").asInt());
            } catch (IOException | RuntimeException e) {
              attached.exit().completeExceptionally(e);
            }
          });
      EngineHttp.Response answer = http.call("POST", path + "/start", null, CONTROL);
      if (!answer.ok() && answer.status() != 304) {
        throw EngineError.of(answer, "POST /containers/start");
      }
      return attached;
    } catch (IOException | RuntimeException e) {
      attach.close();
      if (exitWait != null) {
        exitWait.close();
      }
      throw e;
    }
  }

  /**
   * Kills and removes the container within {@code limit} (gone already is fine). A removal under
   * way (409: AutoRemove, the usual case) is waited for; one that failed is asked for again.
   */
  void remove(String id, Duration limit) throws IOException {
    long deadline = System.nanoTime() + limit.toNanos();
    String path = "/containers/" + id;
    EngineError failed = null;
    for (int attempt = 0; attempt < 3; attempt++) {
      EngineHttp.Response answer = http.call("DELETE", path + FORCE_REMOVE, null, left(deadline));
      if (answer.ok() || answer.status() == 404) {
        return;
      }
      if (answer.status() == 409 && removedMeanwhile(path, left(deadline))) {
        return;
      }
      failed = EngineError.of(answer, "DELETE /containers");
    }
    throw failed;
  }

  /** Whether a removal under way ended with the container gone (bounded: it may have failed). */
  private boolean removedMeanwhile(String path, Duration limit) throws IOException {
    Duration bound = limit.compareTo(REMOVAL_WAIT) < 0 ? limit : REMOVAL_WAIT;
    EngineHttp.Response answer;
    try {
      answer = http.call("POST", path + "/wait?condition=removed", null, bound);
    } catch (IOException e) {
      return false; // not ended within the bound: the next removal tells
    }
    if (!answer.ok()) { // 404: gone; else an engine without this condition: the removal tells
      return answer.status() == 404;
    }
    return JSON.readTree(answer.body()).path("Error").path("Message").asText().isEmpty();
  }

  void removeQuietly(String id, String name) {
    try {
      remove(id, REMOVE_LIMIT);
    } catch (IOException e) {
      log.debug("Container {} could not be removed: {}", name, e.toString());
    }
  }

  /** {@link #removeQuietly} on {@code executor}; a closing runner's kills and sweep cover it. */
  void removeInBackground(String id, String name, Executor executor) {
    try {
      executor.execute(() -> removeQuietly(id, name));
    } catch (RejectedExecutionException e) {
      // closing: AutoRemove, the runner's kills and the next start's sweep cover it
    }
  }

  /**
   * Even from an interrupted thread, failures logged: with {@code sendRemove}, writes {@link
   * #remove}'s request and returns, for a process that ends next (the engine carries it out unread,
   * and removes a container not yet started); else SIGKILLs it ({@code AutoRemove} removes it; the
   * engine answers once it has ended, gVisor 50-150 ms). Gone or stopped already is fine. No
   * lambda, no {@code +} in the removal (linked on its first run): a stop on a signal runs it cold.
   */
  void killQuietly(String id, String name, boolean sendRemove) {
    boolean interrupted = Thread.interrupted(); // an interrupted thread's channel would not open
    try {
      if (sendRemove) {
        http.sendOnly(
            "DELETE", new StringBuilder("/containers/").append(id).append(FORCE_REMOVE).toString());
      } else {
        EngineHttp.Response answer =
            http.call("POST", "/containers/" + id + "/kill?signal=KILL", null, REMOVE_LIMIT);
        if (!answer.ok() && answer.status() != 404 && answer.status() != 409) {
          throw EngineError.of(answer, "POST /containers/kill");
        }
      }
    } catch (IOException e) {
      log.debug(
          "{} container {} failed: {}", sendRemove ? "Removing" : "Killing", name, e.toString());
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** The time left before {@code deadline}; none left is a time-out. */
  private static Duration left(long deadline) throws IOException {
    long nanos = deadline - System.nanoTime();
    if (nanos <= 0) {
      throw new IOException("the engine did not remove the container in time");
    }
    return Duration.ofNanos(nanos);
  }

  /** Every container (running or not) with this label key, as the JSON array. */
  JsonNode containersLabelled(String label) throws IOException {
    String filters = "{\"label\":[\"" + label + "\"]}";
    return json("GET", "/containers/json?all=1&filters=" + encode(filters), null);
  }

  private JsonNode json(String method, String path, String body) throws IOException {
    EngineHttp.Response answer = http.call(method, path, body, CONTROL);
    if (!answer.ok()) {
      throw EngineError.of(answer, method + " " + path);
    }
    return JSON.readTree(answer.body());
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }
}
