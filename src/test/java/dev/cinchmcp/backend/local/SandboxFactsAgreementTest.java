package dev.cinchmcp.backend.local;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cinchmcp.backend.SandboxFacts;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The local sandbox enforces the limits that SandboxFacts promises in the tool's description: if
 * one side changes, this fails until the other does.
 */
class SandboxFactsAgreementTest {

  private final LocalSandboxSettings defaults = LocalSandboxSettings.defaults();

  @Test
  void theTimeLimitIsThePromisedOne() {
    assertEquals(Duration.ofSeconds(SandboxFacts.TIME_LIMIT_SECONDS), defaults.wallClock());
  }

  @Test
  void theMemoryLimitIsThePromisedOne() {
    assertEquals((long) SandboxFacts.MEMORY_MEGABYTES << 20, defaults.memoryBytes());
  }

  @Test
  void theCpuShareIsHalfACpuAsPromised() {
    assertEquals(0.5, defaults.cpuShare());
    assertEquals(true, SandboxFacts.SERVICE_LIMITS.endsWith("half a CPU"));
  }

  @Test
  void tmpIsThePromisedSize() {
    assertEquals(SandboxFacts.TMP_MEGABYTES + "m", OciSpec.TMP_SIZE);
  }
}
