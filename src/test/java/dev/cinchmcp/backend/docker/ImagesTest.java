package dev.cinchmcp.backend.docker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.backend.RunFailure;
import dev.cinchmcp.backend.RunListener;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pull on first use, against an engine socket that answers as dockerd does when it pulls from a
 * registry (none is reachable here): progress reaches the run's listener, a failed pull says what
 * to do, and the version negotiation happened first.
 */
class ImagesTest {

  private static final String VERSION =
      RawEngine.json(200, "{\"ApiVersion\":\"1.43\",\"MinAPIVersion\":\"1.12\"}");

  @TempDir Path dir;
  private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
  private final ExecutorService workers = Executors.newCachedThreadPool();

  @AfterEach
  void stop() {
    timers.shutdownNow();
    workers.shutdownNow();
  }

  private static final class Heard implements RunListener {
    final List<String> messages = new CopyOnWriteArrayList<>();

    @Override
    public void log(Level level, String message) {
      messages.add(message);
    }
  }

  /** An engine of API 1.43 that answers everything else with {@code answer}. */
  private RawEngine engine(Function<String, String> answer) throws IOException {
    return new RawEngine(
        dir.resolve("e.sock"),
        request -> request.equals("GET /version") ? VERSION : answer.apply(request));
  }

  private static void ensureNode(Images images) throws Exception {
    images.ensure("node:22-slim", "CINCH_DOCKER_NODE_IMAGE", new Heard()).get(10, TimeUnit.SECONDS);
  }

  @Test
  void aMissingImageIsPulledOnceWithItsProgressTold() throws Exception {
    AtomicBoolean pulled = new AtomicBoolean();
    try (RawEngine engine =
        engine(
            request -> {
              if (request.equals("GET /v1.43/images/python:3.12-slim/json")) {
                return pulled.get()
                    ? RawEngine.json(200, "{\"Config\":{\"Env\":[\"PYTHON_VERSION=3.12.7\"]}}")
                    : RawEngine.json(404, "{\"message\":\"No such image: python:3.12-slim\"}");
              }
              if (request.equals("POST /v1.43/images/create?fromImage=python%3A3.12-slim")) {
                pulled.set(true);
                return RawEngine.chunkedLines(
                    "{\"status\":\"Pulling from library/python\",\"id\":\"3.12-slim\"}",
                    "{\"status\":\"Downloading\",\"progressDetail\":{\"current\":1048576,\"total\":29360128},\"id\":\"a1b2\"}",
                    "{\"status\":\"Status: Downloaded newer image for python:3.12-slim\"}");
              }
              return RawEngine.json(500, "{\"message\":\"unexpected " + request + "\"}");
            })) {
      Images images = new Images(Engine.connect(engine.address(), timers), workers);
      Heard heard = new Heard();
      images
          .ensure("python:3.12-slim", "CINCH_DOCKER_PYTHON_IMAGE", heard)
          .get(10, TimeUnit.SECONDS);
      assertTrue(
          heard.messages.get(0).startsWith("Pulling image python:3.12-slim"),
          heard.messages.toString());
      assertTrue(
          heard
              .messages
              .get(heard.messages.size() - 1)
              .startsWith("Pulled image python:3.12-slim in "));
      // Known now: the next run neither looks nor pulls again.
      int before = engine.requests().size();
      images
          .ensure("python:3.12-slim", "CINCH_DOCKER_PYTHON_IMAGE", new Heard())
          .get(10, TimeUnit.SECONDS);
      assertEquals(before, engine.requests().size(), engine.requests().toString());
      assertEquals("3.12.7", images.version("python:3.12-slim", "PYTHON_VERSION"));
    }
  }

  @Test
  void aFailedPullSaysWhatToDoAndIsTriedAgainNextTime() throws Exception {
    try (RawEngine engine =
        engine(
            request -> {
              if (request.startsWith("GET /v1.43/images/")) {
                return RawEngine.json(404, "{\"message\":\"No such image\"}");
              }
              return RawEngine.chunkedLines(
                  "{\"status\":\"Pulling from library/node\"}",
                  "{\"errorDetail\":{\"message\":\"Get https://registry-1.docker.io/v2/: dial tcp: lookup registry-1.docker.io: no such host\"},"
                      + "\"error\":\"Get https://registry-1.docker.io/v2/: dial tcp: lookup registry-1.docker.io: no such host\"}");
            })) {
      Images images = new Images(Engine.connect(engine.address(), timers), workers);
      ExecutionException e = assertThrows(ExecutionException.class, () -> ensureNode(images));
      RunFailure failure = assertInstanceOf(RunFailure.class, e.getCause());
      assertTrue(failure.getMessage().contains("no such host"), failure.getMessage());
      assertTrue(failure.getMessage().contains("docker pull node:22-slim"), failure.getMessage());
      assertTrue(failure.getMessage().contains("CINCH_DOCKER_NODE_IMAGE"), failure.getMessage());
      int before = engine.requests().size();
      assertThrows(ExecutionException.class, () -> ensureNode(images));
      assertTrue(engine.requests().size() > before, "a failed pull is not remembered");
    }
  }

  @Test
  void anEngineTooOldForThisClientIsRefusedByName() throws Exception {
    try (RawEngine engine =
        new RawEngine(
            dir.resolve("e.sock"), request -> RawEngine.json(200, "{\"ApiVersion\":\"1.40\"}"))) {
      java.io.IOException e =
          assertThrows(java.io.IOException.class, () -> Engine.connect(engine.address(), timers));
      assertTrue(e.getMessage().contains("speaks API 1.40"), e.getMessage());
      assertTrue(e.getMessage().contains("update the engine"), e.getMessage());
    }
  }

  @Test
  void progressEventsReadAsPhrases() throws Exception {
    var json = Engine.JSON;
    assertEquals(
        "Downloading layer a1b2: 1 of 28 MB",
        Images.describe(
            json.readTree(
                "{\"status\":\"Downloading\",\"progressDetail\":{\"current\":1048576,\"total\":29360128},\"id\":\"a1b2\"}")));
    assertEquals(
        "Pull complete layer a1b2",
        Images.describe(json.readTree("{\"status\":\"Pull complete\",\"id\":\"a1b2\"}")));
  }
}
