package dev.cinchmcp.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.testkit.JarProcess;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * The last guard of a stop on a signal: when the backend's own stop hangs (an engine that never
 * answers, say), the process still ends, by its own SIGKILL, a second after the signal; nothing
 * else would end it, since the fast launch's launcher has already gone. A stop that does not hang
 * ends at once, the ordinary way, without that wait. Each case runs {@link StopBackstopMain} in a
 * JVM of its own and sends it SIGTERM, as a client's stop does.
 */
@EnabledOnOs({OS.LINUX, OS.MAC})
class StopBackstopTest {

  private static final long BACKSTOP_MS = 1_000;

  @Test
  void aStopThatHangsIsEndedBySIGKILLAfterASecond() throws Exception {
    Stopped stopped = stop("hang");
    assertEquals(137, stopped.status(), "ended by its own SIGKILL; stderr:\n" + stopped.stderr());
    assertTrue(
        stopped.millis() >= BACKSTOP_MS,
        "it did not wait for the hung stop: " + stopped.millis() + " ms");
    assertTrue(
        stopped.stderr().contains("The stop took over " + BACKSTOP_MS + " ms"), stopped.stderr());
  }

  @Test
  void aStopThatDoesNotHangEndsTheOrdinaryWay() throws Exception {
    Stopped stopped = stop("quick");
    assertEquals(0, stopped.status(), "stderr:\n" + stopped.stderr());
    assertFalse(stopped.stderr().contains("The stop took over"), stopped.stderr());
  }

  private record Stopped(int status, long millis, String stderr) {}

  /** Starts the fixture, sends SIGTERM once it is ready, and waits for its end. */
  private static Stopped stop(String backend) throws Exception {
    Process process =
        new ProcessBuilder(
                JarProcess.java(),
                "-cp",
                System.getProperty("java.class.path"),
                StopBackstopMain.class.getName(),
                backend)
            .start();
    try {
      CompletableFuture<String> stderr = readAll(process);
      BufferedReader stdout =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      assertEquals("ready", stdout.readLine(), "the fixture did not start");
      long signalled = System.nanoTime();
      assertTrue(process.toHandle().destroy(), "SIGTERM");
      // Generous: the backstop acts after one second; a stop that is never ended fails here.
      assertTrue(process.waitFor(30, TimeUnit.SECONDS), "the process never ended");
      long millis = (System.nanoTime() - signalled) / 1_000_000;
      assertEquals(null, stdout.readLine(), "nothing more on stdout");
      return new Stopped(process.exitValue(), millis, stderr.get(10, TimeUnit.SECONDS));
    } finally {
      process.destroyForcibly();
    }
  }

  private static CompletableFuture<String> readAll(Process process) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
          } catch (IOException e) {
            return "(stderr unreadable: " + e + ")";
          }
        });
  }
}
