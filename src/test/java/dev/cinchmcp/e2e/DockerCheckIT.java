package dev.cinchmcp.e2e;

import static dev.cinchmcp.testkit.Requires.Need.ENGINE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.testkit.DockerCli;
import dev.cinchmcp.testkit.JarProcess;
import dev.cinchmcp.testkit.Requires;
import dev.cinchmcp.testkit.TestHomes;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@code --check} with the docker backend: which engine, runtime and limits, and a real run. */
@Requires(ENGINE)
class DockerCheckIT {

  @Test
  void checkRunsTheTestProgramInAContainerAndNamesTheEngine() throws Exception {
    ProcessBuilder pb =
        new ProcessBuilder(
            List.of(JarProcess.java(), "-jar", JarProcess.jar().toString(), "--check"));
    pb.environment().clear();
    pb.environment().put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
    pb.environment().put("HOME", TestHomes.shared().toString());
    pb.environment().putAll(DockerCli.jarEnvironment("runsc"));
    pb.redirectErrorStream(false);
    Process p = pb.start();
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue(), out);
    assertTrue(out.contains("backend docker: Docker Engine"), out);
    assertTrue(out.contains("isolation: gVisor (runsc)"), out);
    assertTrue(out.contains("ran the test program in a fresh container of the engine"), out);
    assertTrue(out.contains("OK: execute_code calls will work, in containers of the engine"), out);
    DockerCli.assertNoContainers(java.time.Duration.ofSeconds(5));
  }
}
