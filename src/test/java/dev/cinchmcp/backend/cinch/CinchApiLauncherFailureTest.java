package dev.cinchmcp.backend.cinch;

import static dev.cinchmcp.testkit.Requires.Need.PRIVATE_TMP;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cinchmcp.backend.InputLauncher;
import dev.cinchmcp.backend.Language;
import dev.cinchmcp.backend.Program;
import dev.cinchmcp.backend.ProgramInput;
import dev.cinchmcp.backend.RunFailure;
import dev.cinchmcp.backend.RunListener;
import dev.cinchmcp.backend.RunResult;
import dev.cinchmcp.testkit.CodeRunningApi;
import dev.cinchmcp.testkit.Requires;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A launcher that really fails (its sandbox's /tmp is too small for the files) is reported as a
 * failure to deliver the input, not as the program's error.
 */
@Requires(PRIVATE_TMP)
class CinchApiLauncherFailureTest {

  @RegisterExtension static final CodeRunningApi api = new CodeRunningApi().withTmp("1m");

  @ParameterizedTest
  @EnumSource(Language.class)
  void aFullTmpIsTheLaunchersFailureNamingTheFile(Language language) throws Exception {
    ProgramInput input =
        new ProgramInput(null, Map.of("data/big.csv", "x".repeat(2_000_000)), List.of());
    InputLauncher.Launch launch = InputLauncher.prepare(new Program("print(1)", language), input);
    RunResult run = api.runner().run(launch.program(), RunListener.NONE).get(30, TimeUnit.SECONDS);

    RunFailure failure = assertThrows(RunFailure.class, () -> launch.delivered(run));

    assertEquals(RunFailure.Kind.INPUT_NOT_DELIVERED, failure.kind());
    assertTrue(failure.getMessage().contains("could not write data/big.csv"), failure.getMessage());
    assertTrue(failure.getMessage().contains("not an error in the program's code"));
  }
}
