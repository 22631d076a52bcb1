package dev.cinchmcp.backend.local;

import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.testkit.LocalRunners;
import java.util.concurrent.CompletableFuture;

/**
 * Every wall of {@link LocalSandboxContainmentTest}, each case in a sandbox started ahead of time:
 * the pool is made big enough for all of them and full before they start, and each run fails unless
 * it was warm. .ci/run runs this package as an ordinary user too.
 */
class LocalSandboxWarmContainmentTest extends LocalSandboxContainmentTest {

  /** 11 Python and 3 Node cases; the pool is filled once, before the first. */
  private static final int POOL = 11;

  @Override
  LocalSandboxSettings settings(LocalSandboxSettings base) {
    return base.withPoolSize(POOL);
  }

  @Override
  void ready(LocalSandboxRunner started) {
    LocalRunners.usable(started);
    LocalRunners.awaitPoolFull(started);
  }

  @Override
  CompletableFuture<RunResult> python(LocalSandboxRunner on, String code) {
    return on == runner ? LocalRunners.warmPython(on, code) : super.python(on, code);
  }

  @Override
  CompletableFuture<RunResult> javascript(LocalSandboxRunner on, String code) {
    return on == runner ? LocalRunners.warmJavascript(on, code) : super.javascript(on, code);
  }
}
