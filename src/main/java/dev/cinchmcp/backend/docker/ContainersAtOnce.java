package dev.cinchmcp.backend.docker;

import dev.cinchmcp.backend.CpuReserve;
import java.util.OptionalDouble;

/**
 * How many containers run at once. Where they share this machine's kernel, all of them together
 * leave the CPU reserve of {@link CpuReserve} free, as the local backend's sandboxes do. The local
 * backend caps the parent cgroup of its sandboxes; an engine's containers have none that a server
 * without root could cap, so here the reserve is kept by running fewer at once: 3 on 2 cores, 1 on
 * 1, each still with its whole share. An engine in a VM of its own (Docker Desktop, and every
 * engine on macOS and Windows) has CPUs of its own, and runs them all.
 *
 * @param count how many run at once
 * @param cores the cores of this machine
 * @param most how many would run at once without the reserve
 */
record ContainersAtOnce(int count, int cores, int most) {

  /** For {@code most} containers of {@code share} each, on an engine that may share this kernel. */
  static ContainersAtOnce of(int most, double share, int cores, boolean sharesKernel) {
    OptionalDouble cap = sharesKernel ? CpuReserve.cap(cores, most, share) : OptionalDouble.empty();
    int count =
        cap.isPresent() ? Math.max(1, (int) Math.floor(cap.getAsDouble() / share + 1e-9)) : most;
    return new ContainersAtOnce(count, cores, most);
  }

  /**
   * "3 containers at once (not 4), to leave part of 2 cores free", or empty when none are held
   * back.
   */
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
