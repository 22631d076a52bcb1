package dev.cinchmcp.config;

import java.util.List;
import java.util.Map;

/**
 * Reads {@link SandboxLimits} from the environment. A bad value becomes a problem that names the
 * variable, the value and the range allowed (the service's default stands in for it, but the
 * problem keeps every backend from running code until the user fixes it).
 */
final class SandboxLimitsReader {

  /** The tail of every message: what the limit is for, and that the hosted service has its own. */
  private static final String APPLIES =
      " in a local or docker sandbox (the hosted Cinch service keeps its own limits)";

  private SandboxLimitsReader() {}

  /**
   * @param cores the machine's cores: the most CPUs a sandbox may be given
   */
  static SandboxLimits read(Map<String, String> env, int cores, List<String> problems) {
    SandboxLimits service = SandboxLimits.SERVICE;
    int time =
        readWhole(
            env.get(SandboxLimits.TIME_LIMIT_S),
            SandboxLimits.MIN_TIME_LIMIT_SECONDS,
            SandboxLimits.MAX_TIME_LIMIT_SECONDS,
            service.timeLimitSeconds());
    if (time < 0) {
      problems.add(
          SandboxLimits.TIME_LIMIT_S
              + " must be a whole number of seconds from "
              + SandboxLimits.MIN_TIME_LIMIT_SECONDS
              + " to "
              + SandboxLimits.MAX_TIME_LIMIT_SECONDS
              + " (was \""
              + env.get(SandboxLimits.TIME_LIMIT_S)
              + "\"): how long a program may run"
              + APPLIES
              + "; unset means "
              + service.timeLimitSeconds()
              + ".");
      time = service.timeLimitSeconds();
    }
    int memory =
        readWhole(
            env.get(SandboxLimits.MEMORY_MB),
            SandboxLimits.MIN_MEMORY_MEGABYTES,
            SandboxLimits.MAX_MEMORY_MEGABYTES,
            service.memoryMegabytes());
    if (memory < 0) {
      problems.add(
          SandboxLimits.MEMORY_MB
              + " must be a whole number of megabytes from "
              + SandboxLimits.MIN_MEMORY_MEGABYTES
              + " to "
              + SandboxLimits.MAX_MEMORY_MEGABYTES
              + " (was \""
              + env.get(SandboxLimits.MEMORY_MB)
              + "\"): the memory a program may use"
              + APPLIES
              + "; unset means "
              + service.memoryMegabytes()
              + ".");
      memory = service.memoryMegabytes();
    }
    double cpus = readCpus(env.get(SandboxLimits.CPUS), SandboxLimits.maxCpus(cores));
    if (cpus < 0) {
      problems.add(
          SandboxLimits.CPUS
              + " must be a number of CPUs from "
              + SandboxLimits.number(SandboxLimits.MIN_CPUS)
              + " to "
              + SandboxLimits.number(SandboxLimits.maxCpus(cores))
              + " (this machine's "
              + (cores == 1 ? "core" : "cores")
              + "), e.g. 1 or 1.5 (was \""
              + env.get(SandboxLimits.CPUS)
              + "\"): the CPU a program may use"
              + APPLIES
              + "; unset means "
              + SandboxLimits.number(service.cpus())
              + ".");
      cpus = service.cpus();
    }
    return new SandboxLimits(time, memory, cpus);
  }

  /** A whole number from {@code min} to {@code max}; {@code fallback} when unset; -1 when bad. */
  private static int readWhole(String raw, int min, int max, int fallback) {
    if (raw == null || raw.isBlank()) {
      return fallback;
    }
    String text = raw.strip();
    if (!SettingsReader.digits(text, 1, 9)) {
      return -1;
    }
    int value = Integer.parseInt(text);
    return value < min || value > max ? -1 : value;
  }

  /**
   * Digits with at most one dot between them ("2", "0.5", "1.25"), from {@link
   * SandboxLimits#MIN_CPUS} to {@code max}; the default when unset; -1 when bad. No exponents,
   * signs or "NaN": what a person would write in a configuration file.
   */
  private static double readCpus(String raw, double max) {
    if (raw == null || raw.isBlank()) {
      return SandboxLimits.SERVICE.cpus();
    }
    String text = raw.strip();
    int dot = text.indexOf('.');
    String whole = dot < 0 ? text : text.substring(0, dot);
    String fraction = dot < 0 ? "0" : text.substring(dot + 1);
    if (!SettingsReader.digits(whole, 1, 4) || !SettingsReader.digits(fraction, 1, 6)) {
      return -1;
    }
    double value = Double.parseDouble(whole + "." + fraction);
    return value < SandboxLimits.MIN_CPUS || value > max ? -1 : value;
  }
}
