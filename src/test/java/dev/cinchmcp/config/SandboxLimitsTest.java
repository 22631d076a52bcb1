package dev.cinchmcp.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code CINCH_SANDBOX_TIME_LIMIT_S}, {@code CINCH_SANDBOX_MEMORY_MB} and {@code
 * CINCH_SANDBOX_CPUS}: the service's limits unless set, any value in range taken, and a bad value
 * refused with a message that names the variable, the value and the range. Read as for a machine of
 * 2 cores, so the CPU range does not depend on the machine the test runs on.
 */
class SandboxLimitsTest {

  private static final int CORES = 2;

  private static Settings read(String... pairs) {
    Map<String, String> env = new HashMap<>();
    env.put(Settings.API_KEY, "cinch_live_test_5f2c9a1b7e");
    for (int i = 0; i < pairs.length; i += 2) {
      env.put(pairs[i], pairs[i + 1]);
    }
    return SettingsReader.read(env, CORES);
  }

  @Test
  void unsetTheyAreExactlyTheServiceLimits() {
    SandboxLimits limits = read().limits();
    assertEquals(new SandboxLimits(10, 256, 0.5), limits);
    assertEquals(SandboxLimits.SERVICE, limits);
    assertTrue(limits.isService());
    assertFalse(new SandboxLimits(11, 256, 0.5).isService());
    assertFalse(new SandboxLimits(10, 255, 0.5).isService());
    assertFalse(new SandboxLimits(10, 256, 1).isService());
    assertEquals(Duration.ofSeconds(10), limits.timeLimit());
    assertEquals(256L << 20, limits.memoryBytes());
    assertEquals(SandboxLimits.SERVICE, read(SandboxLimits.MEMORY_MB, " ").limits());
  }

  @ParameterizedTest(name = "{0}=\"{1}\"")
  @CsvSource(
      delimiter = '|',
      value = {
        "CINCH_SANDBOX_TIME_LIMIT_S | 1 | 1 | 256 | 0.5",
        "CINCH_SANDBOX_TIME_LIMIT_S | 300 | 300 | 256 | 0.5",
        "CINCH_SANDBOX_TIME_LIMIT_S | ' 60 ' | 60 | 256 | 0.5",
        "CINCH_SANDBOX_MEMORY_MB | 64 | 10 | 64 | 0.5",
        "CINCH_SANDBOX_MEMORY_MB | 8192 | 10 | 8192 | 0.5",
        "CINCH_SANDBOX_MEMORY_MB | 1024 | 10 | 1024 | 0.5",
        "CINCH_SANDBOX_CPUS | 0.1 | 10 | 256 | 0.1",
        "CINCH_SANDBOX_CPUS | 2 | 10 | 256 | 2",
        "CINCH_SANDBOX_CPUS | 2.0 | 10 | 256 | 2",
        "CINCH_SANDBOX_CPUS | 1.25 | 10 | 256 | 1.25",
        "CINCH_SANDBOX_CPUS | 0.333 | 10 | 256 | 0.333",
      })
  void aValueInRangeIsTaken(
      String variable, String given, int seconds, int megabytes, double cpus) {
    Settings s = read(variable, given);
    assertTrue(s.usable(), s.problems()::toString);
    assertEquals(new SandboxLimits(seconds, megabytes, cpus), s.limits());
  }

  @ParameterizedTest(name = "{0}=\"{1}\"")
  @CsvSource(
      delimiter = '|',
      value = {
        "CINCH_SANDBOX_TIME_LIMIT_S | 0 | a whole number of seconds from 1 to 300",
        "CINCH_SANDBOX_TIME_LIMIT_S | 301 | a whole number of seconds from 1 to 300",
        "CINCH_SANDBOX_TIME_LIMIT_S | -5 | a whole number of seconds from 1 to 300",
        "CINCH_SANDBOX_TIME_LIMIT_S | 2.5 | a whole number of seconds from 1 to 300",
        "CINCH_SANDBOX_TIME_LIMIT_S | 10s | a whole number of seconds from 1 to 300",
        "CINCH_SANDBOX_TIME_LIMIT_S | 99999999999 | a whole number of seconds from 1 to 300",
        "CINCH_SANDBOX_MEMORY_MB | 63 | a whole number of megabytes from 64 to 8192",
        "CINCH_SANDBOX_MEMORY_MB | 8193 | a whole number of megabytes from 64 to 8192",
        "CINCH_SANDBOX_MEMORY_MB | 512MB | a whole number of megabytes from 64 to 8192",
        "CINCH_SANDBOX_MEMORY_MB | 1e3 | a whole number of megabytes from 64 to 8192",
        "CINCH_SANDBOX_CPUS | 0 | a number of CPUs from 0.1 to 2 (this machine's cores)",
        "CINCH_SANDBOX_CPUS | 0.05 | a number of CPUs from 0.1 to 2 (this machine's cores)",
        "CINCH_SANDBOX_CPUS | 2.01 | a number of CPUs from 0.1 to 2 (this machine's cores)",
        "CINCH_SANDBOX_CPUS | 3 | a number of CPUs from 0.1 to 2 (this machine's cores)",
        "CINCH_SANDBOX_CPUS | -1 | a number of CPUs from 0.1 to 2 (this machine's cores)",
        "CINCH_SANDBOX_CPUS | NaN | a number of CPUs from 0.1 to 2 (this machine's cores)",
        "CINCH_SANDBOX_CPUS | 1e0 | a number of CPUs from 0.1 to 2 (this machine's cores)",
        "CINCH_SANDBOX_CPUS | .5 | a number of CPUs from 0.1 to 2 (this machine's cores)",
        "CINCH_SANDBOX_CPUS | 1. | a number of CPUs from 0.1 to 2 (this machine's cores)",
        "CINCH_SANDBOX_CPUS | 1,5 | a number of CPUs from 0.1 to 2 (this machine's cores)",
        "CINCH_SANDBOX_CPUS | half | a number of CPUs from 0.1 to 2 (this machine's cores)",
      })
  void aBadValueIsRefusedNamingTheVariableTheValueAndTheRange(
      String variable, String given, String range) {
    Settings s = read(variable, given);
    assertEquals(1, s.problems().size(), s.problems()::toString);
    String problem = s.problems().get(0);
    assertTrue(problem.startsWith(variable + " must be " + range), problem);
    assertTrue(problem.contains("(was \"" + given + "\")"), problem);
    assertTrue(problem.contains("in a local or docker sandbox"), problem);
    // It stops every backend: the Cinch API's too (as any bad setting does), and the local and
    // docker backends, which read it (limitProblems).
    assertFalse(s.usable());
    assertEquals(List.of(problem), s.limitProblems());
    assertEquals(SandboxLimits.SERVICE, s.limits(), "the default stands in, unused");
  }

  @Test
  void everyBadLimitIsReportedTogetherAndNoOtherProblemCountsAsOne() {
    Settings s =
        read(
            SandboxLimits.TIME_LIMIT_S,
            "600",
            SandboxLimits.MEMORY_MB,
            "32",
            SandboxLimits.CPUS,
            "9",
            Settings.LOCAL_POOL,
            "99");
    assertEquals(4, s.problems().size(), s.problems()::toString);
    List<String> limits = s.limitProblems();
    assertEquals(3, limits.size(), limits::toString);
    assertTrue(limits.get(0).startsWith(SandboxLimits.TIME_LIMIT_S), limits::toString);
    assertTrue(limits.get(1).startsWith(SandboxLimits.MEMORY_MB), limits::toString);
    assertTrue(limits.get(2).startsWith(SandboxLimits.CPUS), limits::toString);
  }

  @Test
  void onAMachineOfOneCoreTheMostIsOneCpu() {
    Map<String, String> env = Map.of(SandboxLimits.CPUS, "1.5");
    String problem = SettingsReader.read(env, 1).limitProblems().get(0);
    assertTrue(problem.contains("from 0.1 to 1 (this machine's core)"), problem);
    assertEquals(1.0, SettingsReader.read(Map.of(SandboxLimits.CPUS, "1"), 1).limits().cpus());
  }

  @Test
  void theTimeoutOfTheCinchApiIsNotOneOfThem() {
    assertTrue(read(Settings.TIMEOUT_MS, "soon").limitProblems().isEmpty());
  }
}
