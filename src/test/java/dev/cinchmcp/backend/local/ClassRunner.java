package dev.cinchmcp.backend.local;

import java.nio.file.Path;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One cold {@link Sandboxes#runner runner} shared by the tests of a class: started before them in
 * the class's {@code @TempDir}, and closed after them once it is shown to have left nothing behind.
 *
 * <pre>
 * &#64;TempDir static Path state;
 * &#64;RegisterExtension static final ClassRunner local = new ClassRunner(() -&gt; state);
 * </pre>
 *
 * JUnit fills the static {@code @TempDir} before this extension starts and deletes it after this
 * extension has stopped.
 */
final class ClassRunner implements BeforeAllCallback, AfterAllCallback {

  private final Supplier<Path> stateDir;
  private LocalSandboxRunner runner;

  ClassRunner(Supplier<Path> stateDir) {
    this.stateDir = stateDir;
  }

  LocalSandboxRunner runner() {
    return runner;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    runner = Sandboxes.runner(stateDir.get());
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    try {
      Sandboxes.assertNothingLeft(runner);
    } finally {
      runner.close();
    }
  }
}
