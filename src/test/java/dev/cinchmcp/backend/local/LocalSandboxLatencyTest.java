package dev.cinchmcp.backend.local;

import static dev.cinchmcp.testkit.LocalRunners.await;
import static dev.cinchmcp.testkit.LocalRunners.python;
import static dev.cinchmcp.testkit.Requires.Need.GVISOR;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.testkit.LocalRunners;
import dev.cinchmcp.testkit.Requires;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Latency of the local backend, measured through the real runner (probe excluded). Off by default;
 * run with {@code ./mvnw -B -q test -Dtest=LocalSandboxLatencyTest -Dcinch.local.latency=true}.
 */
@EnabledIfSystemProperty(named = "cinch.local.latency", matches = "true")
@Requires(GVISOR)
class LocalSandboxLatencyTest {

  private static final Logger log = LoggerFactory.getLogger(LocalSandboxLatencyTest.class);

  @TempDir Path state;

  @Test
  void measure() {
    try (LocalSandboxRunner runner = LocalRunners.runner(state)) {
      await(python(runner, "print(2+2)")); // warm the page cache and the JIT
      long[] millis = new long[20];
      for (int i = 0; i < millis.length; i++) {
        long start = System.nanoTime();
        RunResult result = await(python(runner, "print(2+2)"));
        millis[i] = (System.nanoTime() - start) / 1_000_000;
        assertEquals("4\n", result.stdout().text());
      }
      Arrays.sort(millis);
      log.info(
          "print(2+2), 20 sequential runs: p50 {} ms, min {} ms, max {} ms",
          millis[millis.length / 2],
          millis[0],
          millis[millis.length - 1]);

      for (String language : List.of("python", "javascript")) {
        long start = System.nanoTime();
        List<CompletableFuture<RunResult>> runs = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
          runs.add(
              language.equals("python")
                  ? python(runner, "print(2+2)")
                  : LocalRunners.javascript(runner, "console.log(2+2)"));
        }
        runs.forEach(run -> assertEquals("4\n", await(run).stdout().text()));
        log.info(
            "8 parallel {} runs ({} at once): {} ms wall",
            language,
            runner.settings().maxConcurrent(),
            (System.nanoTime() - start) / 1_000_000);
      }
    }
  }
}
