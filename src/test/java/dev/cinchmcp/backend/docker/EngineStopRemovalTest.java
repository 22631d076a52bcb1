package dev.cinchmcp.backend.docker;

import static dev.cinchmcp.testkit.Requires.Need.ENGINE;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cinchmcp.testkit.Await;
import dev.cinchmcp.testkit.Requires;
import dev.cinchmcp.testkit.TestEngine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a stop on a signal sends for each container, against the real engine: a container whose
 * create was answered but whose start was not yet sent must go too (a kill leaves it created, 409,
 * until the next server's sweep).
 */
@Requires(ENGINE)
class EngineStopRemovalTest {

  private static final String LABEL = "dev.cinchmcp.test-stop-removal";

  private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();

  @AfterEach
  void stop() {
    timers.shutdownNow();
  }

  @Test
  void theStopsRequestRemovesAContainerThatWasNeverStarted() throws Exception {
    Engine engine =
        Engine.connect(EngineAddress.parse(TestEngine.host(), "test").orElseThrow(), timers);
    ObjectNode spec = JsonNodeFactory.instance.objectNode();
    spec.put("Image", TestEngine.image());
    spec.putArray("Cmd").add("true");
    spec.putObject("Labels").put(LABEL, "1");
    String id = engine.create("cinchmcp-test-stop-removal-" + ProcessHandle.current().pid(), spec);
    try {
      assertEquals(List.of("created"), states(engine));

      engine.killQuietly(id, "test", true); // written only, as the stop does: the engine acts on it

      Await.until(
          () -> states(engine).isEmpty(),
          Duration.ofSeconds(10),
          () -> "the never-started container removed; left: " + states(engine));
    } finally {
      engine.remove(id, Duration.ofSeconds(10)); // gone already is fine
    }
  }

  private static List<String> states(Engine engine) throws Exception {
    List<String> states = new ArrayList<>();
    engine.containersLabelled(LABEL).forEach(c -> states.add(c.path("State").asText()));
    return states;
  }
}
