package dev.cinchmcp.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** What all sandboxes together may use, for machines of one to many cores. */
class CpuReserveTest {

  @Test
  void fourHalfCpusOnTwoCoresLeaveHalfACore() {
    assertEquals(OptionalDouble.of(1.5), CpuReserve.cap(2, 4, 0.5));
  }

  @Test
  void oneCoreKeepsAQuarter() {
    assertEquals(OptionalDouble.of(0.75), CpuReserve.cap(1, 4, 0.5));
  }

  @Test
  void machinesWithACoreToSpareAreNotHeldBack() {
    assertEquals(OptionalDouble.empty(), CpuReserve.cap(3, 4, 0.5));
    assertEquals(OptionalDouble.empty(), CpuReserve.cap(16, 4, 0.5));
    assertEquals(OptionalDouble.empty(), CpuReserve.cap(2, 1, 0.5), "one sandbox at a time");
  }

  @Test
  void neverBelowOneSandboxsShare() {
    assertEquals(OptionalDouble.of(1.0), CpuReserve.cap(1, 4, 1.0));
  }
}
