package dev.cinchmcp.e2e;

import static dev.cinchmcp.testkit.Requires.Need.GVISOR;
import static dev.cinchmcp.testkit.Requires.Need.OTHER_USER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cinchmcp.testkit.Await;
import dev.cinchmcp.testkit.JarProcess;
import dev.cinchmcp.testkit.Requires;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Another user of the machine ({@value #OTHER}, made by .ci/run) plants the old shared state path
 * (directories open to all), a symbolic link and a plain file where a root server looks for its
 * state, then watches a run: the run works, and the other user can neither read a spec or program
 * nor write anywhere the server writes.
 */
@Requires({GVISOR, OTHER_USER})
class LocalStateAttackIT {

  static final String OTHER = Requires.OTHER_USER_NAME;

  Path shared;

  @BeforeEach
  void sharedTmp() throws Exception {
    assumeTrue(System.getProperty("user.name").equals("root"), "the attack is on a root server");
    // A /tmp of the test's own, like /tmp: anyone may create in it, each only their own names.
    shared = Files.createTempDirectory("cinchmcp-attack-");
    Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
    assertEquals(0, run(List.of("chmod", "1777", shared.toString())).exit());
  }

  @AfterEach
  void removeShared() throws Exception {
    if (shared != null) {
      run(List.of("rm", "-rf", shared.toString()));
    }
  }

  @Test
  void aSymbolicLinkAtTheServersPathIsRefusedAndTheRunStaysPrivate() throws Exception {
    asOther("mkdir -m 777 " + shared + "/bait && ln -s " + shared + "/bait " + stable());
    attackAndWatch();
    assertEquals(
        List.of(), list(shared.resolve("bait")), "the server wrote into the link's target");
  }

  @Test
  void aPlainFileAtTheServersPathIsRefusedAndTheRunStaysPrivate() throws Exception {
    asOther("echo x > " + stable());
    attackAndWatch();
  }

  /** The server's stable state path for root in the shared directory. */
  private Path stable() {
    return shared.resolve("cinchmcp-local-0");
  }

  private void attackAndWatch() throws Exception {
    // The old fixed path, world-writable, with its sub-directories, as before the fix.
    Path old = shared.resolve("cinchmcp-local");
    asOther("mkdir -m 777 " + old + " " + old + "/bundles " + old + "/runsc");
    try (JarProcess jar =
        JarProcess.start(
            Map.of("CINCH_BACKEND", "local", "CINCH_FAST_START", "0"),
            List.of("-Djava.io.tmpdir=" + shared))) {
      jar.initialize();
      jar.send(JarProcess.call(1, "import time\ntime.sleep(3)\nprint(6 * 7)"));
      Path state = awaitFreshStateDir();
      Path bundle = awaitBundle(state);
      // While the run is under way, the other user tries the state it can see.
      for (Path path : List.of(state, state.resolve("bundles"), state.resolve("runsc"), bundle)) {
        assertNotEquals(0, asOther("ls " + path), "listed " + path);
        assertNotEquals(0, asOther("touch " + path + "/planted"), "wrote into " + path);
      }
      assertNotEquals(0, asOther("cat " + bundle + "/config.json"), "read the spec");
      assertNotEquals(0, asOther("cat " + bundle + "/rootfs/code/main.py"), "read the program");
      assertNotEquals(0, asOther("find " + state + " -type f -readable | grep ."), "readable");
      assertEquals("rw-------", mode(bundle.resolve("config.json")));

      JsonNode result = jar.awaitReply(1, Duration.ofSeconds(60)).path("result");
      assertEquals("42\n", result.path("structuredContent").path("stdout").asText(), jar.stderr());
      assertTrue(jar.stderr().contains("Not using the sandbox state directory"), jar.stderr());
      assertEquals(List.of("bundles", "runsc"), list(old), "the server used the old shared path");
      assertEquals(List.of(), list(old.resolve("bundles")));
      jar.closeStdin();
      assertEquals(0, jar.waitForExit(Duration.ofSeconds(20)));
      assertFalse(Files.exists(state), "a fresh state directory goes with its server");
    }
  }

  private Path awaitFreshStateDir() throws Exception {
    Path fresh =
        Await.untilPresent(
            () -> {
              try (Stream<Path> entries = Files.list(shared)) {
                return entries
                    .filter(p -> p.getFileName().toString().startsWith("cinchmcp-local-0-"))
                    .findFirst();
              }
            },
            Duration.ofSeconds(20),
            () -> "a fresh state directory in " + shared + ": " + list(shared));
    assertEquals("rwx------", mode(fresh));
    return fresh;
  }

  private static Path awaitBundle(Path state) throws Exception {
    return Await.untilPresent(
        () -> {
          for (String name : list(state.resolve("bundles"))) {
            Path bundle = state.resolve("bundles").resolve(name);
            if (Files.exists(bundle.resolve("rootfs/code/main.py"))
                && Files.readString(bundle.resolve("rootfs/code/main.py")).contains("sleep(3)")) {
              return Optional.of(bundle);
            }
          }
          return Optional.empty();
        },
        Duration.ofSeconds(30),
        "the run's bundle in " + state);
  }

  private static int asOther(String script) throws Exception {
    return run(List.of("runuser", "-u", OTHER, "--", "sh", "-c", script)).exit();
  }

  private record Ran(int exit, String output) {}

  private static Ran run(List<String> command) throws Exception {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(30, TimeUnit.SECONDS), "hung: " + command);
    return new Ran(process.exitValue(), output);
  }

  private static List<String> list(Path dir) throws IOException {
    List<String> names = new ArrayList<>();
    if (Files.isDirectory(dir)) {
      try (Stream<Path> entries = Files.list(dir)) {
        entries.forEach(p -> names.add(p.getFileName().toString()));
      }
    }
    names.sort(null);
    return names;
  }

  private static String mode(Path path) throws IOException {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
  }
}
