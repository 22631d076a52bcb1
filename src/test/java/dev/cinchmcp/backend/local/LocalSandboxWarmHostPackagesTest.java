package dev.cinchmcp.backend.local;

import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.testkit.LocalRunners;
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
    LocalRunners.usable(started);
    LocalRunners.awaitPoolFull(started);
  }

  @Override
  CompletableFuture<RunResult> python(String code) {
    return LocalRunners.warmPython(runner, code);
  }

  @Override
  CompletableFuture<RunResult> javascript(String code) {
    return LocalRunners.warmJavascript(runner, code);
  }
}
