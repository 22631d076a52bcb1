package dev.cinchmcp.testkit;

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
 * Marks tests that run a real container engine (the docker backend). Without one they are skipped,
 * with the reason; with CINCH_REQUIRE_ENGINE set (.ci/run sets it, after starting its own dockerd
 * with .ci/engine.sh) a missing engine fails them loudly ({@link Dependency}).
 *
 * <p>The engine is {@link TestEngine#host()}: CINCH_TEST_DOCKER_HOST, else DOCKER_HOST, else the
 * system socket; its image for both languages is {@link TestEngine#image()} (CINCH_TEST_IMAGE, else
 * cinch-test:1, which .ci/engine.sh builds: no registry is reachable here).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@ExtendWith(RequiresEngine.Condition.class)
public @interface RequiresEngine {

  /** Enabled when the engine's socket is there. */
  final class Condition implements ExecutionCondition {
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
      String host = TestEngine.host();
      // A TCP engine cannot be looked at without a request: it is used only when required, and its
      // tests then say whether it answers.
      boolean present =
          host.startsWith("unix://")
              ? Files.exists(Path.of(host.substring("unix://".length())))
              : TestEngine.required();
      return Dependency.evaluate(
          TestEngine.required(),
          present,
          "an engine is at " + host,
          "no container engine at "
              + host
              + " (bash .ci/engine.sh start DIR starts one; set CINCH_TEST_DOCKER_HOST)");
    }
  }
}
