package dev.cinchmcp.backend.local;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** What all sandboxes together may use, for machines of one to many cores. */
class AllSandboxesCpuTest {

  @Test
  void fourHalfCpusOnTwoCoresLeaveHalfACore() {
    assertEquals(OptionalDouble.of(1.5), AllSandboxesCpu.cap(2, 4, 0.5));
    assertEquals(7500, AllSandboxesCpu.quotaUs(1.5));
    assertEquals("all sandboxes together at most 1.5 of 2 cores", AllSandboxesCpu.describe(1.5, 2));
  }

  @Test
  void oneCoreKeepsAQuarter() {
    assertEquals(OptionalDouble.of(0.75), AllSandboxesCpu.cap(1, 4, 0.5));
    assertEquals(
        "all sandboxes together at most 0.75 of 1 core", AllSandboxesCpu.describe(0.75, 1));
  }

  @Test
  void machinesWithACoreToSpareAreNotHeldBack() {
    assertEquals(OptionalDouble.empty(), AllSandboxesCpu.cap(3, 4, 0.5));
    assertEquals(OptionalDouble.empty(), AllSandboxesCpu.cap(16, 4, 0.5));
    assertEquals(OptionalDouble.empty(), AllSandboxesCpu.cap(2, 1, 0.5), "one sandbox at a time");
  }

  @Test
  void neverBelowOneSandboxsShare() {
    // The kernel refuses a parent's quota below a child's (cgroup v1).
    assertEquals(OptionalDouble.of(1.0), AllSandboxesCpu.cap(1, 4, 1.0));
    assertEquals("all sandboxes together at most 1 of 1 core", AllSandboxesCpu.describe(1.0, 1));
  }
}
