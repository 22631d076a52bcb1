package dev.cinchmcp;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Marks tests that run real gVisor sandboxes. On a machine without gVisor (macOS, say) they are
 * skipped, with the reason; with CINCH_REQUIRE_GVISOR set (.ci/run sets it, after installing runsc)
 * they always run, so a missing runsc fails loudly there instead of passing quietly.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@ExtendWith(RequiresGvisor.Condition.class)
public @interface RequiresGvisor {

  /** Enabled when runsc is installed, or whenever CINCH_REQUIRE_GVISOR is set. */
  final class Condition implements ExecutionCondition {
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
      if (System.getenv("CINCH_REQUIRE_GVISOR") != null) {
        return ConditionEvaluationResult.enabled("CINCH_REQUIRE_GVISOR: gVisor tests must run");
      }
      if (Files.isExecutable(Path.of("/usr/bin/runsc")) || onPath("runsc")) {
        return ConditionEvaluationResult.enabled("runsc is installed");
      }
      return ConditionEvaluationResult.disabled(
          "gVisor's runsc is not installed (apt-get install runsc; .ci/run installs it)");
    }

    private static boolean onPath(String name) {
      for (String dir :
          System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
        if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) {
          return true;
        }
      }
      return false;
    }
  }
}
