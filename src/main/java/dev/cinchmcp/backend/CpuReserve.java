package dev.cinchmcp.backend;

import java.util.OptionalDouble;

/**
 * The CPU that sandboxes on this machine leave free together, for the server and the user's other
 * programs: half a core, or a quarter of the cores on a machine of one.
 *
 * <p>Each sandbox is held to its share (half a CPU unless {@code CINCH_SANDBOX_CPUS} says
 * otherwise, which {@link #cap} is given) and four run at once: on a 2-core machine that is every
 * core, and the server, its stop and the user's other programs then wait for the CPU (measured with
 * the local backend: a stop while four sandboxes were being started took 133 ms, 312 at worst; with
 * the reserve 78-88, 118-131 at worst; with the docker backend, a stop beside four spinning
 * containers took 163 and 230 ms once in 10, both cores busy throughout). Machines of three cores
 * or more are not held back (four half CPUs leave them a core).
 */
public final class CpuReserve {

  private static final double MOST = 0.5;

  private CpuReserve() {}

  /**
   * The CPUs {@code atOnce} sandboxes of {@code share} each may use together on a machine of {@code
   * cores}, or empty when they leave the reserve free anyway. Never less than one sandbox's share.
   */
  public static OptionalDouble cap(int cores, int atOnce, double share) {
    double reserve = Math.min(MOST, cores / 4.0);
    double cap = Math.max(share, cores - reserve);
    return atOnce * share > cap ? OptionalDouble.of(cap) : OptionalDouble.empty();
  }
}
