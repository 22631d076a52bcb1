package dev.cinchmcp.backend.docker;

import dev.cinchmcp.backend.CpuReserve;
import java.util.OptionalDouble;

/**
 * How many containers run at once. Where they share this machine's kernel, together they leave the
 * CPU reserve of {@link CpuReserve} free (an engine's containers have no parent cgroup a server
 * without root could cap): 3 on 2 cores, 1 on 1, each with its whole share. An engine in a VM of
 * its own has CPUs of its own, and runs them all.
 */
record ContainersAtOnce(int count, int cores, int most) {

  /** For {@code most} containers of {@code share} each, on an engine that may share this kernel. */
  static ContainersAtOnce of(int most, double share, int cores, boolean sharesKernel) {
    OptionalDouble cap = sharesKernel ? CpuReserve.cap(cores, most, share) : OptionalDouble.empty();
    int count =
        cap.isPresent() ? Math.max(1, (int) Math.floor(cap.getAsDouble() / share + 1e-9)) : most;
    return new ContainersAtOnce(count, cores, most);
  }

  /** "3 containers at once (not 4), to leave part of 2 cores free", or empty. */
  String describe() {
    if (count == most) {
      return "";
    }
    return count
        + (count == 1 ? " container" : " containers")
        + " at once (not "
        + most
        + "), to leave part of "
        + cores
        + (cores == 1 ? " core" : " cores")
        + " free";
  }
}
