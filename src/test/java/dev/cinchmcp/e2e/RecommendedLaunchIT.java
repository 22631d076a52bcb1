package dev.cinchmcp.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cinchmcp.launch.LaunchOptions;
import dev.cinchmcp.testkit.JarProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fast launch's options (jvm-options.txt, the ones FastStart and the bundle use) start the
 * server, and so does the same launch with a class-data archive that is missing, corrupt or from
 * another JDK: then it only starts at normal speed, and whatever the JVM says about the archive
 * goes to stderr, never stdout.
 */
class RecommendedLaunchIT {

  private static final String INIT =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
          + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}\n";

  @TempDir Path tmp;

  private static List<String> launchArgs() {
    List<String> args = new ArrayList<>(LaunchOptions.fast());
    args.add("-XX:SharedArchiveFile=" + JarProcess.jar().resolveSibling("no-such-archive.jsa"));
    args.add("-Dcinch.faststart.child=true");
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
    Path archive = tmp.resolve("java17.jsa");
    ProcessBuilder dump =
        new ProcessBuilder(
            JarProcess.java(),
            "-XX:ArchiveClassesAtExit=" + archive,
            "-jar",
            JarProcess.jar().toString(),
            "--version");
    dump.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
    dump.environment().put("CINCH_FAST_START", "0");
    assertEquals(0, dump.start().waitFor());
    assertTrue(Files.isRegularFile(archive));
    Path other = Path.of("/usr/lib/jvm/temurin-25-jdk-amd64/bin/java");
    String java = Files.isExecutable(other) ? other.toString() : JarProcess.java();
    assertStartsCleanly(java, withArchive(launchArgs(), archive));
  }
}
