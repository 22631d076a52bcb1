package dev.cinchmcp.testkit;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;

/**
 * The tests' one rule for a real dependency (gVisor, a container engine, a second Unix user, a
 * private /tmp, the built bundle): where it is there, the test runs; where it is missing, the test
 * is skipped with the reason, unless the dependency's CINCH_REQUIRE_ variable is set (CI sets
 * them), and then the test FAILS, so that a missing dependency is never a quiet pass. {@link
 * Requires} is this rule as a JUnit condition; {@link #assumePresent} is it for a test's body.
 */
public final class Dependency {

  private Dependency() {}

  /** True when this environment variable is set: the dependency must be there. */
  public static boolean required(String variable) {
    return System.getenv(variable) != null;
  }

  /** The rule, as a JUnit condition's answer; throws (a failure) when required and missing. */
  static ConditionEvaluationResult evaluate(
      boolean required, boolean present, String found, String missing) {
    if (present) {
      return ConditionEvaluationResult.enabled(found);
    }
    if (required) {
      throw new IllegalStateException("required, but missing: " + missing);
    }
    return ConditionEvaluationResult.disabled(missing);
  }

  /** The rule, inside a test: fails when required and missing, else skips when missing. */
  public static void assumePresent(boolean required, boolean present, String missing) {
    if (!present && required) {
      throw new AssertionError("required, but missing: " + missing);
    }
    assumeTrue(present, missing);
  }

  /** gVisor's runsc: /usr/bin/runsc (Debian's package), else the first on PATH, else null. */
  public static Path runsc() {
    Path debian = Path.of("/usr/bin/runsc");
    if (Files.isExecutable(debian)) {
      return debian;
    }
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "runsc"))) {
        return Path.of(dir, "runsc");
      }
    }
    return null;
  }

  /** True when this machine lets a test give a process a private /tmp (root, unshare -m). */
  public static boolean canIsolateTmp() {
    return succeeds("unshare", "-m", "sh", "-c", "mount -t tmpfs -o size=1m tmpfs /tmp");
  }

  /** True when this Unix user exists. */
  public static boolean userExists(String name) {
    return succeeds("id", "-u", name);
  }

  /** True when this command runs and exits 0 within 10 s. */
  private static boolean succeeds(String... command) {
    try {
      Process p =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      if (!p.waitFor(10, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return false;
      }
      return p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
