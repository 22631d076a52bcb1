package dev.cinchmcp.backend.local;

import java.util.OptionalDouble;

/**
 * How much CPU all of this backend's sandboxes may use together, held on the parent of their run
 * cgroups.
 *
 * <p>Each sandbox is held to its share (half a CPU) and four run at once: on a 2-core machine that
 * is every core, and the server, its stop and the user's other programs then wait for the CPU. A
 * stop that came while four sandboxes were being started took 133 ms, 312 at worst, most of it the
 * server's threads waiting 40-60 ms at a time to run. So together the sandboxes keep off a reserve:
 * half a core, or a quarter of the cores on a machine of one (with the stop's own changes, the same
 * stop then took 78-88 ms, 118-131 at worst: {@code bench/stop.mjs}). The period is short, so that
 * the reserve is there within milliseconds, not once a 100 ms period's quota has run out. Unlike a
 * lower priority, the cap does not make sandboxes yield to the user's other programs. Machines of
 * three cores or more are not held back at all (four half CPUs leave them a core).
 */
final class AllSandboxesCpu {

  /** The period of the cap, in microseconds. */
  static final long PERIOD_US = 5_000;

  private static final double RESERVE = 0.5;

  private AllSandboxesCpu() {}

  /**
   * The CPUs all sandboxes together may use, or empty when {@code atOnce} sandboxes of {@code
   * share} each leave the reserve free anyway. Never less than one sandbox's share: the kernel
   * refuses a parent quota below a child's.
   */
  static OptionalDouble cap(int cores, int atOnce, double share) {
    double reserve = Math.min(RESERVE, cores / 4.0);
    double cap = Math.max(share, cores - reserve);
    return atOnce * share > cap ? OptionalDouble.of(cap) : OptionalDouble.empty();
  }

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
