package dev.cinchmcp.e2e;

import static dev.cinchmcp.testkit.Requires.Need.ENGINE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.testkit.Await;
import dev.cinchmcp.testkit.DockerCli;
import dev.cinchmcp.testkit.JarProcess;
import dev.cinchmcp.testkit.LimitAnswers;
import dev.cinchmcp.testkit.Requires;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The sandbox limits a user sets (CINCH_SANDBOX_*) through the jar and the docker backend, under
 * gVisor: the container is made with them (Memory, NanoCpus, the in-container backstop), the
 * description and the ready line state them, a sleep of 5 s is stopped at 2 s and 200 MB is refused
 * at 128.
 */
@Requires(ENGINE)
class DockerLimitsIT {

  @Test
  void theContainerIsMadeWithTheLimitsSetAndTheyHold() throws Exception {
    Map<String, String> env = new HashMap<>(DockerCli.jarEnvironment("runsc"));
    env.put("CINCH_SANDBOX_TIME_LIMIT_S", "2");
    env.put("CINCH_SANDBOX_MEMORY_MB", "128");
    env.put("CINCH_SANDBOX_CPUS", "1");
    try (JarProcess jar = JarProcess.start(env)) {
      jar.initialize();
      String description = LimitAnswers.toolDescription(jar);
      assertTrue(
          description.contains(
              "2 seconds, 128 MB of memory (gVisor's own share included), 64 processes, 1 CPU"),
          description);

      jar.send(JarProcess.call(1, "import time\nprint('before', flush=True)\ntime.sleep(5)"));
      // While it sleeps: the container as the engine holds it.
      List<String> container =
          Await.untilPresent(
              () -> {
                List<String> running =
                    DockerCli.docker(
                        "ps",
                        "-q",
                        "--filter",
                        "label=dev.cinchmcp.owner",
                        "--filter",
                        "status=running");
                if (running.isEmpty()) {
                  return Optional.empty();
                }
                return Optional.of(
                    DockerCli.docker(
                        "inspect",
                        "--format",
                        "{{.HostConfig.Memory}} {{.HostConfig.MemorySwap}} {{.HostConfig.NanoCpus}}"
                            + " {{json .Config.Cmd}}",
                        running.get(0)));
              },
              Duration.ofSeconds(60),
              "the sleeping program's container");
      String facts = String.join(" ", container);
      assertTrue(facts.startsWith("134217728 134217728 1000000000 "), facts);
      assertTrue(
          facts.contains("[\"timeout\",\"-s\",\"KILL\",\"3\",\"python3\""),
          "the backstop: 2 s + 1: " + facts);

      LimitAnswers.assertTimedOut(jar.awaitReply(1, Duration.ofSeconds(120)).path("result"));
      jar.send(JarProcess.call(2, LimitAnswers.BIG));
      LimitAnswers.assertMemoryRefused(jar.awaitReply(2, Duration.ofSeconds(60)).path("result"));

      jar.closeStdin();
      assertEquals(0, jar.waitForExit(Duration.ofSeconds(30)));
      String log = jar.stderr();
      assertTrue(
          log.contains("limits held: 2 seconds, 128 MB of memory (gVisor's own share included)"),
          log);
      jar.assertProtocolClean();
    }
    DockerCli.assertNoContainers(Duration.ofSeconds(10));
  }
}
