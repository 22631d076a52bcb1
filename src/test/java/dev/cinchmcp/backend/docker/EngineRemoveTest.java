package dev.cinchmcp.backend.docker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A removal returns only once the container is gone, against a socket that answers as dockerd does
 * when our removal meets its own ({@code AutoRemove} after an exit): one of the two is refused with
 * 409, and the other may fail, which leaves the container there for good unless it is asked again
 * (seen once in CI: a container of an out-of-memory run left behind after its answer).
 */
class EngineRemoveTest {

  private static final String VERSION =
      RawEngine.json(200, "{\"ApiVersion\":\"1.43\",\"MinAPIVersion\":\"1.12\"}");
  private static final String DELETE = "DELETE /v1.43/containers/c1?force=1&v=1";
  private static final String WAIT = "POST /v1.43/containers/c1/wait?condition=removed";
  private static final String IN_PROGRESS =
      RawEngine.json(409, "{\"message\":\"removal of container c1 is already in progress\"}");

  @TempDir Path dir;
  private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();

  @AfterEach
  void stop() {
    timers.shutdownNow();
  }

  /** An engine that answers each request but the version's with the next of {@code answers}. */
  private RawEngine engine(String... answers) throws IOException {
    Iterator<String> next = List.of(answers).iterator();
    return new RawEngine(
        dir.resolve("e.sock"),
        request ->
            request.equals("GET /version")
                ? VERSION
                : next.hasNext()
                    ? next.next()
                    : RawEngine.json(500, "{\"message\":\"unexpected " + request + "\"}"));
  }

  private List<String> removing(RawEngine raw) throws IOException {
    Engine.connect(raw.address(), timers).remove("c1", Duration.ofSeconds(10));
    return raw.requests().subList(1, raw.requests().size());
  }

  @Test
  void aContainerGoneAlreadyTakesOneRequest() throws Exception {
    try (RawEngine raw = engine(RawEngine.json(404, "{\"message\":\"No such container: c1\"}"))) {
      assertEquals(List.of(DELETE), removing(raw));
    }
  }

  @Test
  void aRemovalUnderWayIsWaitedForToTheEnd() throws Exception {
    try (RawEngine raw =
        engine(IN_PROGRESS, RawEngine.json(200, "{\"Error\":null,\"StatusCode\":0}"))) {
      assertEquals(List.of(DELETE, WAIT), removing(raw));
    }
  }

  @Test
  void aRemovalUnderWayThatFailsIsAskedForAgain() throws Exception {
    try (RawEngine raw =
        engine(
            IN_PROGRESS,
            RawEngine.json(
                200,
                "{\"Error\":{\"Message\":\"unable to remove filesystem: device or resource busy\"},"
                    + "\"StatusCode\":137}"),
            "HTTP/1.1 204 No Content\r\n\r\n")) {
      assertEquals(List.of(DELETE, WAIT, DELETE), removing(raw));
    }
  }

  @Test
  void aRemovalThatFailsIsAskedForAgain() throws Exception {
    try (RawEngine raw =
        engine(
            RawEngine.json(500, "{\"message\":\"could not kill: container not found\"}"),
            "HTTP/1.1 204 No Content\r\n\r\n")) {
      assertEquals(List.of(DELETE, DELETE), removing(raw));
    }
  }

  @Test
  void aContainerThatStaysIsReportedWithTheEnginesWords() throws Exception {
    String refused =
        RawEngine.json(500, "{\"message\":\"driver failed to remove root filesystem\"}");
    try (RawEngine raw = engine(refused, refused, refused)) {
      IOException e = assertThrows(IOException.class, () -> removing(raw));
      assertTrue(
          e.getMessage().contains("driver failed to remove root filesystem"), e.getMessage());
      assertEquals(List.of(DELETE, DELETE, DELETE), raw.requests().subList(1, 4));
      assertEquals(4, raw.requests().size(), "three removals, then it is given up on");
    }
  }
}
