package dev.cinchmcp.backend.local;

import dev.cinchmcp.backend.CpuReserve;

/**
 * How much CPU all of this backend's sandboxes may use together ({@link CpuReserve}), held on the
 * parent of their run cgroups. The period is short, so that the reserve is there within
 * milliseconds, not once a 100 ms period's quota has run out. Unlike a lower priority, the cap does
 * not make sandboxes yield to the user's other programs.
 */
final class AllSandboxesCpu {

  /** The period of the cap, in microseconds. */
  static final long PERIOD_US = 5_000;

  private AllSandboxesCpu() {}

  /** The quota per {@link #PERIOD_US} of {@code cpus}, in microseconds. */
  static long quotaUs(double cpus) {
    return Math.round(cpus * PERIOD_US);
  }

  /** "all sandboxes together at most 1.5 of 2 cores", for the ready line. */
  static String describe(double cpus, int cores) {
    return "all sandboxes together at most "
        + (cpus == Math.rint(cpus) ? Long.toString((long) cpus) : Double.toString(cpus))
        + " of "
        + cores
        + (cores == 1 ? " core" : " cores");
  }
}
