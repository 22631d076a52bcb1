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
 * Marks tests that act as a second Unix user of the machine, {@value #NAME} (.ci/run makes it).
 * Without it they are skipped; with CINCH_REQUIRE_OTHER_USER set a missing user fails them ({@link
 * Dependency}).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@ExtendWith(RequiresOtherUser.Condition.class)
public @interface RequiresOtherUser {

  /** The second user. */
  String NAME = "cinchmcp-other";

  /** Enabled when the user exists. */
  final class Condition implements ExecutionCondition {
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
      return Dependency.evaluate(
          Dependency.required("CINCH_REQUIRE_OTHER_USER"),
          Dependency.userExists(NAME),
          "user " + NAME + " exists",
          "no user " + NAME + " (.ci/run makes it: useradd --system " + NAME + ")");
    }
  }
}
