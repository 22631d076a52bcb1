package dev.cinchmcp.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launch the README recommends (target/launch-args.txt, made by the build) starts the server,
 * and so does the same launch with its class-data archive missing, stale or from another JDK: then
 * it only starts at normal speed, and whatever the JVM says about the archive goes to stderr, never
 * stdout.
 */
class RecommendedLaunchIT {

  private static final String INIT =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
          + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}\n";

  @TempDir Path tmp;

  private static List<String> launchArgs() throws IOException {
    Path file = JarProcess.jar().resolveSibling("launch-args.txt");
    assertTrue(Files.isRegularFile(file), "the build must write " + file);
    List<String> args = new ArrayList<>();
    for (String line : Files.readAllLines(file)) {
      if (!line.isBlank()) {
        args.add(line.strip());
      }
    }
    assertTrue(
        args.stream().anyMatch(a -> a.startsWith("-XX:SharedArchiveFile=")), args.toString());
    return args;
  }

  private static List<String> withArchive(List<String> args, Path archive) {
    List<String> out = new ArrayList<>();
    for (String a : args) {
      out.add(a.startsWith("-XX:SharedArchiveFile=") ? "-XX:SharedArchiveFile=" + archive : a);
    }
    return out;
  }

  /**
   * Starts java with the args, sends initialize, and checks stdout is exactly one JSON-RPC reply.
   */
  private static void assertStartsCleanly(String java, List<String> jvmArgs) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(java);
    command.addAll(jvmArgs);
    command.add("-jar");
    command.add(JarProcess.jar().toString());
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().put("CINCH_API_KEY", JarProcess.KEY);
    pb.environment().put("CINCH_BASE_URL", "http://127.0.0.1:9");
    pb.redirectError(ProcessBuilder.Redirect.DISCARD);
    Process p = pb.start();
    p.getOutputStream().write(INIT.getBytes(StandardCharsets.UTF_8));
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(30, TimeUnit.SECONDS), "did not exit");
    assertEquals(0, p.exitValue(), command + "\n" + out);
    String[] lines = out.strip().split("\n");
    assertEquals(
        1, lines.length, "stdout must hold the reply alone, with " + command + ":\n" + out);
    JsonNode reply = JarProcess.JSON.readTree(lines[0]);
    assertEquals("cinch-mcp", reply.path("result").path("serverInfo").path("name").asText(), out);
  }

  @Test
  void recommendedLaunchStarts() throws Exception {
    assertStartsCleanly(JarProcess.java(), launchArgs());
  }

  @Test
  void missingArchiveOnlyCostsSpeed() throws Exception {
    assertStartsCleanly(JarProcess.java(), withArchive(launchArgs(), tmp.resolve("missing.jsa")));
  }

  @Test
  void corruptArchiveOnlyCostsSpeed() throws Exception {
    Path junk = tmp.resolve("junk.jsa");
    Files.write(junk, new byte[64 * 1024]);
    assertStartsCleanly(JarProcess.java(), withArchive(launchArgs(), junk));
  }

  @Test
  void anotherJdkIgnoresTheArchive() throws Exception {
    // Debian's and Temurin's JDKs are both on these machines; an archive is tied to one JDK build.
    Path other = Path.of("/usr/lib/jvm/temurin-25-jdk-amd64/bin/java");
    String java = Files.isExecutable(other) ? other.toString() : JarProcess.java();
    assertStartsCleanly(java, launchArgs());
  }
}
