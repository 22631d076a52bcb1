package dev.cinchmcp.config;

import java.math.BigDecimal;
import java.time.Duration;

/**
 * What one program may use in a local or docker sandbox: wall-clock seconds, MB (2^20 bytes) and
 * CPUs. The defaults are the hosted service's ({@link #SERVICE}), so a program behaves the same.
 */
public record SandboxLimits(int timeLimitSeconds, int memoryMegabytes, double cpus) {

  public static final String TIME_LIMIT_S = "CINCH_SANDBOX_TIME_LIMIT_S";
  public static final String MEMORY_MB = "CINCH_SANDBOX_MEMORY_MB";
  public static final String CPUS = "CINCH_SANDBOX_CPUS";

  public static final SandboxLimits SERVICE = new SandboxLimits(10, 256, 0.5);

  /** At least a second: a Python start alone takes a good part of one under gVisor. */
  public static final int MIN_TIME_LIMIT_SECONDS = 1;

  /** At most five minutes: a call longer than that is no longer interactive for the assistant. */
  public static final int MAX_TIME_LIMIT_SECONDS = 300;

  /** Below 64 MB an interpreter under gVisor hardly starts. */
  public static final int MIN_MEMORY_MEGABYTES = 64;

  public static final int MAX_MEMORY_MEGABYTES = 8192;

  /** The most is all the machine's cores. */
  public static final double MIN_CPUS = 0.1;

  public SandboxLimits {
    if (timeLimitSeconds < 1 || memoryMegabytes < 1 || !(cpus > 0)) {
      throw new IllegalArgumentException(
          "limits must be positive: %d s, %d MB, %s"
              .formatted(timeLimitSeconds, memoryMegabytes, cpus));
    }
  }

  public Duration timeLimit() {
    return Duration.ofSeconds(timeLimitSeconds);
  }

  public long memoryBytes() {
    return (long) memoryMegabytes << 20;
  }

  public boolean isService() {
    // Not the record's equals: its first call spins method handles, 20-40 ms of the 2025 start.
    return timeLimitSeconds == SERVICE.timeLimitSeconds
        && memoryMegabytes == SERVICE.memoryMegabytes
        && Double.compare(cpus, SERVICE.cpus) == 0;
  }

  /** A number as a person writes it: "0.5", "2", "1.25" (never "2.0" or "1E+1"). */
  public static String number(double value) {
    return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
  }
}
