package dev.cinchmcp.e2e;

import static dev.cinchmcp.testkit.Requires.Need.GVISOR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cinchmcp.testkit.Await;
import dev.cinchmcp.testkit.JarProcess;
import dev.cinchmcp.testkit.LimitAnswers;
import dev.cinchmcp.testkit.Requires;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The sandbox limits a user sets (CINCH_SANDBOX_TIME_LIMIT_S, CINCH_SANDBOX_MEMORY_MB,
 * CINCH_SANDBOX_CPUS) through the built jar and the local gVisor backend: the tool's description,
 * the ready line and --check state them, and each takes effect (a sleep of 5 s stopped at 2 s, 200
 * MB refused at 128, the CPU share the run cgroup's quota); a bad value is refused at start and on
 * every call, with the variable, the value and the range.
 */
@Requires(GVISOR)
class LocalSandboxLimitsIT {

  /** 2 s, 128 MB, 1 CPU; the pool (on by default) hands over sandboxes started with them. */
  private static final Map<String, String> SET =
      Map.of(
          "CINCH_BACKEND",
          "local",
          "CINCH_SANDBOX_TIME_LIMIT_S",
          "2",
          "CINCH_SANDBOX_MEMORY_MB",
          "128",
          "CINCH_SANDBOX_CPUS",
          "1");

  @Test
  void theLimitsSetAreStatedAndHold() throws Exception {
    try (JarProcess jar = JarProcess.start(SET)) {
      jar.initialize();
      String description = LimitAnswers.toolDescription(jar);
      boolean cgroups = description.contains("64 processes, 1 CPU.");
      assertTrue(
          description.contains(
              cgroups
                  ? "- 2 seconds, 128 MB of memory, 64 processes, 1 CPU."
                  : "- 2 seconds, 128 MB of memory per process"),
          description);

      jar.send(JarProcess.call(1, LimitAnswers.SLEEPER));
      LimitAnswers.assertTimedOut(jar.awaitReply(1, Duration.ofSeconds(30)).path("result"));
      jar.send(JarProcess.call(2, LimitAnswers.BIG));
      LimitAnswers.assertMemoryRefused(jar.awaitReply(2, Duration.ofSeconds(30)).path("result"));

      if (cgroups) {
        // Every run cgroup of this server, a waiting sandbox's included, carries 1 CPU's quota.
        Path cgroup = awaitRunCgroup(jar);
        assertEquals("100000", Files.readString(cgroup.resolve("cpu.cfs_quota_us")).strip());
        assertEquals("100000", Files.readString(cgroup.resolve("cpu.cfs_period_us")).strip());
      }

      jar.closeStdin();
      assertEquals(0, jar.waitForExit(Duration.ofSeconds(20)));
      String log = jar.stderr();
      assertTrue(
          log.contains(
              cgroups
                  ? "limits held: 2 s, 128 MB, 64 processes, 1 CPU"
                  : "limits held: 2 s, 128 MB per process"),
          log);
      jar.assertProtocolClean();
    }
  }

  @Test
  void checkStatesTheLimitsSet() throws Exception {
    JarProcess.Exited run = JarProcess.run(JarProcess.jar(), SET, "", "--check");
    assertEquals(0, run.exitCode(), run.out() + run.err());
    String out = oneLine(run.out());
    assertTrue(out.contains("limits held: 2 s, 128 MB"), out);
  }

  /** Each variable set wrong: refused at start, by --check and on every call, the value named. */
  @ParameterizedTest(name = "{0}={1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "CINCH_SANDBOX_TIME_LIMIT_S | 301 | a whole number of seconds from 1 to 300",
        "CINCH_SANDBOX_MEMORY_MB | 32 | a whole number of megabytes from 64 to 8192",
        "CINCH_SANDBOX_CPUS | 0.05 | a number of CPUs from 0.1 to"
      })
  void aBadValueIsRefusedAtStartAndOnEveryCall(String variable, String value, String range)
      throws Exception {
    String message = variable + " must be " + range;
    Map<String, String> env = Map.of("CINCH_BACKEND", "local", variable, value);
    try (JarProcess jar = JarProcess.start(env)) {
      jar.initialize();
      for (int call = 1; call <= 2; call++) {
        jar.send(JarProcess.call(call, "print(6 * 7)"));
        JsonNode result = jar.awaitReply(call, Duration.ofSeconds(30)).path("result");
        assertTrue(result.path("isError").asBoolean(), result.toString());
        String text = result.path("content").get(0).path("text").asText();
        assertTrue(text.contains(message), text);
        assertTrue(text.contains("(was \"" + value + "\")"), text);
        assertFalse(text.contains("42"), text);
      }
      jar.closeStdin();
      assertEquals(0, jar.waitForExit(Duration.ofSeconds(20)));
      String log = jar.stderr();
      assertTrue(log.contains("cannot run code until its configuration is fixed"), log);
      assertTrue(log.contains(message), log);
      assertFalse(log.contains("ready on stdio"), log);
      jar.assertProtocolClean();
    }
    JarProcess.Exited check = JarProcess.run(JarProcess.jar(), env, "", "--check");
    assertEquals(1, check.exitCode(), check.out() + check.err());
    String out = oneLine(check.out());
    assertTrue(out.contains(message), out);
    assertTrue(out.contains("(was \"" + value + "\")"), out);
  }

  /** The report wraps long lines; the test reads it as one. */
  private static String oneLine(String text) {
    return text.replaceAll("\\s+", " ");
  }

  /** A run cgroup (cgroup v1, cpu) of the jar's processes, once its quota is set. */
  private static Path awaitRunCgroup(JarProcess jar) throws Exception {
    Path parent = ownCpuCgroup().resolve("cinchmcp");
    List<String> prefixes = jar.tree().stream().map(p -> "cinchmcp-" + p.pid() + "-").toList();
    return Await.untilPresent(
        () -> {
          try (Stream<Path> runs = Files.list(parent)) {
            return runs.filter(
                    p -> prefixes.stream().anyMatch(p.getFileName().toString()::startsWith))
                .filter(p -> !p.getFileName().toString().endsWith("-cgroup-check"))
                .filter(LocalSandboxLimitsIT::hasQuota)
                .findFirst();
          } catch (IOException e) {
            return Optional.empty();
          }
        },
        Duration.ofSeconds(20),
        "a run cgroup of the jar under " + parent);
  }

  private static boolean hasQuota(Path cgroup) {
    try {
      return !Files.readString(cgroup.resolve("cpu.cfs_quota_us")).strip().equals("-1");
    } catch (IOException e) {
      return false; // not there yet, or gone
    }
  }

  /** This JVM's cgroup in the cgroup v1 cpu hierarchy (the jar it starts shares it). */
  private static Path ownCpuCgroup() throws IOException {
    String own = "/";
    for (String line : Files.readAllLines(Path.of("/proc/self/cgroup"))) {
      String[] parts = line.split(":", 3);
      if (parts.length == 3 && List.of(parts[1].split(",")).contains("cpu")) {
        own = parts[2];
      }
    }
    return Path.of("/sys/fs/cgroup/cpu", own.substring(1));
  }
}
