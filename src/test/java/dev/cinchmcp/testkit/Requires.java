package dev.cinchmcp.testkit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Marks tests that need real dependencies of the machine: {@code @Requires(GVISOR)},
 * {@code @Requires({GVISOR, OTHER_USER})}. Where one is missing the test is skipped with the
 * reason, unless its CINCH_REQUIRE_ variable is set (CI sets them), and then it FAILS ({@link
 * Dependency}).
 */
@Inherited // DockerRuncIT and DockerRunscIT take DockerContainment's
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@ExtendWith(Requires.Condition.class)
public @interface Requires {

  /** The second Unix user of the machine (.ci/run makes it). */
  String OTHER_USER_NAME = "cinchmcp-other";

  Need[] value();

  /** One real dependency, and how to tell that it is here. */
  enum Need {
    /** gVisor's runsc, for real sandboxes; CINCH_REQUIRE_GVISOR (.ci/run installs runsc). */
    GVISOR(
        "CINCH_REQUIRE_GVISOR",
        () -> Dependency.runsc() != null,
        "runsc is installed",
        "gVisor's runsc is not installed (apt-get install runsc; .ci/run installs it)"),
    /**
     * A container engine that answers at {@link TestEngine#host()} ({@link TestEngine#answers()});
     * CINCH_REQUIRE_ENGINE (.ci/run starts its own dockerd with .ci/engine.sh).
     */
    ENGINE(
        "CINCH_REQUIRE_ENGINE",
        TestEngine::answers,
        "an engine answers at " + TestEngine.host(),
        "no container engine answers at "
            + TestEngine.host()
            + " (bash .ci/engine.sh start DIR starts one; set CINCH_TEST_DOCKER_HOST)"),
    /** The second Unix user {@value #OTHER_USER_NAME}; CINCH_REQUIRE_OTHER_USER. */
    OTHER_USER(
        "CINCH_REQUIRE_OTHER_USER",
        () -> Dependency.userExists(OTHER_USER_NAME),
        "user " + OTHER_USER_NAME + " exists",
        "no user "
            + OTHER_USER_NAME
            + " (.ci/run makes it: useradd --system "
            + OTHER_USER_NAME
            + ")"),
    /**
     * A private /tmp for a process (root and unshare), for the fake API that really runs code. No
     * variable makes this one required.
     */
    PRIVATE_TMP(
        null,
        Dependency::canIsolateTmp,
        "a process can have a private /tmp",
        "needs root: each run gets its own /tmp");

    private final String variable;
    private final BooleanSupplier present;
    private final String found;
    private final String missing;

    Need(String variable, BooleanSupplier present, String found, String missing) {
      this.variable = variable;
      this.present = present;
      this.found = found;
      this.missing = missing;
    }

    /** True when its CINCH_REQUIRE_ variable is set: it must be here. */
    public boolean required() {
      return variable != null && Dependency.required(variable);
    }

    ConditionEvaluationResult evaluate() {
      return Dependency.evaluate(required(), present.getAsBoolean(), found, missing);
    }
  }

  /** Enabled when every dependency named is here; see {@link Dependency} for the rule. */
  final class Condition implements ExecutionCondition {
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
      Need[] needs =
          context
              .getElement()
              .flatMap(e -> AnnotationSupport.findAnnotation(e, Requires.class))
              .map(Requires::value)
              .orElse(new Need[0]);
      ConditionEvaluationResult result = ConditionEvaluationResult.enabled("no dependency named");
      for (Need need : needs) {
        result = need.evaluate();
        if (result.isDisabled()) {
          return result;
        }
      }
      return result;
    }
  }
}
