package dev.cinchmcp.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.testkit.JarProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * On one or two CPUs the jar gives the common pool two threads (Java 17 would otherwise start a
 * thread for every step the HTTP client hands on); with more CPUs, or a parallelism of the user's
 * own, it leaves the pool alone. Read from the running server with jcmd.
 */
class CommonPoolIT {

  private static final String PARALLELISM = "java.util.concurrent.ForkJoinPool.common.parallelism";

  @Test
  void twoCpusGetAPoolOfTwo() throws Exception {
    assertEquals("2", parallelismWith(List.of("-XX:ActiveProcessorCount=2")));
    assertEquals("2", parallelismWith(List.of("-XX:ActiveProcessorCount=1")));
  }

  @Test
  void moreCpusOrTheUsersOwnValueAreLeftAlone() throws Exception {
    assertEquals("", parallelismWith(List.of("-XX:ActiveProcessorCount=4")));
    assertEquals(
        "5", parallelismWith(List.of("-XX:ActiveProcessorCount=2", "-D" + PARALLELISM + "=5")));
  }

  /** The property as the running server has it; empty if unset. */
  private static String parallelismWith(List<String> jvmArgs) throws Exception {
    try (JarProcess jar =
        JarProcess.start(
            Map.of("CINCH_API_KEY", JarProcess.KEY, "CINCH_FAST_START", "0"), jvmArgs)) {
      jar.initialize();
      Process jcmd =
          new ProcessBuilder(
                  Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                  Long.toString(jar.process().pid()),
                  "VM.system_properties")
              .redirectErrorStream(true)
              .start();
      String out = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(jcmd.waitFor(30, TimeUnit.SECONDS));
      assertTrue(out.contains("java.home="), "jcmd answered: " + out);
      for (String line : out.split("\n")) {
        if (line.startsWith(PARALLELISM + "=")) {
          return line.substring(PARALLELISM.length() + 1).strip();
        }
      }
      return "";
    }
  }
}
