package dev.cinchmcp.backend;

import java.util.OptionalDouble;

/**
 * The CPU sandboxes leave free together for the server and the user: half a core (a quarter on a
 * machine of one). Four half-CPU sandboxes fill 2 cores: a stop while four were being started took
 * 133 ms, 312 at worst; with the reserve 78-88, 118-131 at worst (local backend, measured).
 */
public final class CpuReserve {

  private static final double MOST = 0.5;

  private CpuReserve() {}

  /** The CPUs {@code atOnce} sandboxes may use together, or empty when no cap is needed. */
  public static OptionalDouble cap(int cores, int atOnce, double share) {
    double reserve = Math.min(MOST, cores / 4.0);
    double cap = Math.max(share, cores - reserve);
    return atOnce * share > cap ? OptionalDouble.of(cap) : OptionalDouble.empty();
  }
}
