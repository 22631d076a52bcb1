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
 * Marks tests whose fake Cinch API really runs programs, each in a private /tmp of its own (a tmpfs
 * in a new mount namespace: root and unshare). Elsewhere they are skipped ({@link Dependency}); no
 * variable makes this one required.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@ExtendWith(RequiresPrivateTmp.Condition.class)
public @interface RequiresPrivateTmp {

  /** Enabled when a process can be given a private /tmp. */
  final class Condition implements ExecutionCondition {
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
      return Dependency.evaluate(
          false,
          Dependency.canIsolateTmp(),
          "a process can have a private /tmp",
          "needs root: each run gets its own /tmp");
    }
  }
}
