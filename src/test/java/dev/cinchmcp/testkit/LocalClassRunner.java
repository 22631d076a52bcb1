package dev.cinchmcp.testkit;

import dev.cinchmcp.backend.local.LocalSandboxRunner;
import java.nio.file.Path;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One cold {@link LocalRunners#runner runner} shared by the tests of a class: started before them
 * in the class's {@code @TempDir}, and closed after them once it is shown to have left nothing
 * behind.
 *
 * <pre>
 * &#64;TempDir static Path state;
 * &#64;RegisterExtension static final ClassRunner local = new LocalClassRunner(() -&gt; state);
 * </pre>
 *
 * JUnit fills the static {@code @TempDir} before this extension starts and deletes it after this
 * extension has stopped.
 */
public final class LocalClassRunner implements BeforeAllCallback, AfterAllCallback {

  private final Supplier<Path> stateDir;
  private LocalSandboxRunner runner;

  public LocalClassRunner(Supplier<Path> stateDir) {
    this.stateDir = stateDir;
  }

  public LocalSandboxRunner runner() {
    return runner;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    runner = LocalRunners.runner(stateDir.get());
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    try {
      LocalRunners.assertNothingLeft(runner);
    } finally {
      runner.close();
    }
  }
}
