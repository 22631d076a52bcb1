package dev.cinchmcp.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * How a launch is prepared and how its result is read (the runs themselves:
 * testkit.InputScenarios).
 */
class InputLauncherTest {

  private static final Program PROGRAM = new Program("print(1)", Language.PYTHON);
  private static final ProgramInput ARGS = new ProgramInput(null, Map.of(), List.of("a"));

  private static RunResult withStderr(String stderr) {
    return new RunResult(StreamCapture.of(""), StreamCapture.of(stderr), 1, false, 3L, "cinch");
  }

  @Test
  void withoutInputTheProgramItselfIsSent() {
    InputLauncher.Launch launch = InputLauncher.prepare(PROGRAM, ProgramInput.NONE);
    assertSame(PROGRAM, launch.program());
    assertNull(launch.marker());
    RunResult run = withStderr("anything at all");
    assertSame(run, launch.delivered(run));
  }

  @Test
  void eachLaunchHasItsOwnMarkerInTheSameLanguage() {
    InputLauncher.Launch one = InputLauncher.prepare(PROGRAM, ARGS);
    InputLauncher.Launch two = InputLauncher.prepare(PROGRAM, ARGS);
    assertNotEquals(one.marker(), two.marker());
    assertEquals(Language.PYTHON, one.program().language());
    assertTrue(one.program().code().contains(one.marker()));
    assertEquals(
        Language.JAVASCRIPT,
        InputLauncher.prepare(new Program("1", Language.JAVASCRIPT), ARGS).program().language());
  }

  @Test
  void theLaunchersOwnFailureIsToldApartFromTheProgram() {
    InputLauncher.Launch launch = InputLauncher.prepare(PROGRAM, ARGS);
    RunResult failed =
        withStderr(launch.marker() + " could not write data/x.csv: No space left on device\n");

    RunFailure failure = assertThrows(RunFailure.class, () -> launch.delivered(failed));

    assertEquals(RunFailure.Kind.INPUT_NOT_DELIVERED, failure.kind());
    assertTrue(
        failure
            .getMessage()
            .startsWith("The program did not run: the sandbox could not be given its input"),
        failure.getMessage());
    assertTrue(
        failure.getMessage().contains("could not write data/x.csv: No space left on device"),
        failure.getMessage());
  }

  @Test
  void aProgramPrintingSomethingLikeAMarkerIsStillTheProgram() {
    InputLauncher.Launch launch = InputLauncher.prepare(PROGRAM, ARGS);
    RunResult run = withStderr("[cinch-mcp launcher 0000000000000000] could not write x: nope\n");
    assertSame(run, launch.delivered(run));
  }
}
