package dev.cinchmcp.backend.local;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The cgroup quota of the cap on all sandboxes together, and how the ready line says it. */
class AllSandboxesCpuTest {

  @Test
  void oneAndAHalfCoresAreThreeQuartersOfEachPeriod() {
    assertEquals(7500, AllSandboxesCpu.quotaUs(1.5));
    assertEquals("all sandboxes together at most 1.5 of 2 cores", AllSandboxesCpu.describe(1.5, 2));
  }

  @Test
  void oneCoreIsNamedInTheSingular() {
    assertEquals(
        "all sandboxes together at most 0.75 of 1 core", AllSandboxesCpu.describe(0.75, 1));
    assertEquals("all sandboxes together at most 1 of 1 core", AllSandboxesCpu.describe(1.0, 1));
  }
}
