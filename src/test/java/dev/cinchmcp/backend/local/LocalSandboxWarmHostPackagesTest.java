package dev.cinchmcp.backend.local;

import dev.cinchmcp.backend.RunResult;
import java.util.concurrent.CompletableFuture;

/** {@link LocalSandboxHostPackagesTest}'s cases, each in a sandbox started ahead of time. */
class LocalSandboxWarmHostPackagesTest extends LocalSandboxHostPackagesTest {

  @Override
  LocalSandboxSettings settings(LocalSandboxSettings base) {
    return base.withPoolSize(4)
        .withWallClock(WALL_CLOCK); // one per Python case (four), filled before the first
  }

  @Override
  void ready(LocalSandboxRunner started) {
    Sandboxes.usable(started);
    Sandboxes.awaitPoolFull(started);
  }

  @Override
  CompletableFuture<RunResult> python(String code) {
    return Sandboxes.warmPython(runner, code);
  }

  @Override
  CompletableFuture<RunResult> javascript(String code) {
    return Sandboxes.warmJavascript(runner, code);
  }
}
