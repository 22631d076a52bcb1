package dev.cinchmcp.testkit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Marks tests that run real gVisor sandboxes. On a machine without gVisor (macOS, say) they are
 * skipped, with the reason; with CINCH_REQUIRE_GVISOR set (.ci/run sets it, after installing runsc)
 * a missing runsc fails them loudly instead of passing quietly ({@link Dependency}).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@ExtendWith(RequiresGvisor.Condition.class)
public @interface RequiresGvisor {

  /** The variable that makes gVisor required. */
  String REQUIRE = "CINCH_REQUIRE_GVISOR";

  /** Enabled when runsc is installed. */
  final class Condition implements ExecutionCondition {
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
      return Dependency.evaluate(
          Dependency.required(REQUIRE),
          Dependency.runsc() != null,
          "runsc is installed",
          "gVisor's runsc is not installed (apt-get install runsc; .ci/run installs it)");
    }
  }
}
