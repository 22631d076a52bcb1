package dev.cinchmcp.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A plain {@code java -jar} restarts itself with the recommended options when the build's archive
 * was made by the same JVM (FastStart), and only then: never with options of the user's, never when
 * turned off, never for another JVM. Either way the client sees one server that answers.
 */
class FastStartIT {

  private static final String INIT =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
          + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}\n";

  /**
   * Starts the command, waits for the initialize reply, and returns the command line of its child
   * JVM, if any.
   */
  private static Optional<String> childOf(List<String> command, Map<String, String> env)
      throws Exception {
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().put("CINCH_API_KEY", JarProcess.KEY);
    pb.environment().put("CINCH_BASE_URL", "http://127.0.0.1:9");
    pb.environment().putAll(env);
    pb.redirectError(ProcessBuilder.Redirect.DISCARD);
    Process p = pb.start();
    try {
      p.getOutputStream().write(INIT.getBytes(StandardCharsets.UTF_8));
      p.getOutputStream().flush();
      String line =
          new java.io.BufferedReader(
                  new java.io.InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))
              .readLine();
      JsonNode reply = JarProcess.JSON.readTree(line);
      assertEquals(
          "cinch-mcp", reply.path("result").path("serverInfo").path("name").asText(), line);
      Optional<String> child =
          p.toHandle().children().findFirst().flatMap(h -> h.info().commandLine());
      p.getOutputStream().close();
      assertTrue(p.waitFor(30, TimeUnit.SECONDS));
      assertEquals(0, p.exitValue());
      return child;
    } finally {
      p.destroyForcibly();
    }
  }

  private static List<String> command(String java, String... jvmOptions) {
    List<String> command = new ArrayList<>();
    command.add(java);
    command.addAll(List.of(jvmOptions));
    command.add("-jar");
    command.add(JarProcess.jar().toString());
    return command;
  }

  @Test
  void plainLaunchRunsTheServerWithTheRecommendedOptions() throws Exception {
    Optional<String> child = childOf(command(JarProcess.java()), Map.of());
    assertTrue(child.isPresent(), "a plain java -jar should relaunch with the archive");
    assertTrue(child.get().contains("-XX:SharedArchiveFile="), child.get());
  }

  @Test
  void turnedOffItRunsInTheSameJvm() throws Exception {
    assertTrue(childOf(command(JarProcess.java()), Map.of("CINCH_FAST_START", "0")).isEmpty());
  }

  @Test
  void theUsersOwnJvmOptionsAreKept() throws Exception {
    assertTrue(childOf(command(JarProcess.java(), "-Xmx200m"), Map.of()).isEmpty());
  }

  @Test
  void anotherJvmDoesNotRelaunch() throws Exception {
    Path other = Path.of("/usr/lib/jvm/temurin-25-jdk-amd64/bin/java");
    if (Files.isExecutable(other)) {
      assertTrue(
          childOf(command(other.toString()), Map.of()).isEmpty(),
          "the archive was made by another JVM");
    }
  }
}
