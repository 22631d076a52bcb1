package dev.cinchmcp.backend.docker;

import java.util.Set;

/**
 * Which engine runtime runs the programs: gVisor when the engine offers {@code runsc}; else the
 * default where the engine runs in its own Linux VM (the boundary then). A plain container on Linux
 * shares this machine's kernel: only when the user names the runtime.
 *
 * @param runtime the name to put in {@code HostConfig.Runtime}, or null for the engine's default
 * @param isolation the boundary, as a phrase for the ready line and {@code --check}
 * @param problem why no runtime can be used, or null
 */
record RuntimeChoice(String runtime, boolean gvisor, String isolation, String problem) {

  static final String GVISOR = "runsc";

  static final String SETTING = "CINCH_DOCKER_RUNTIME";

  static RuntimeChoice of(
      String requested, Set<String> offered, String defaultRuntime, boolean ownVm) {
    if (requested != null && !offered.contains(requested)) {
      return refused(
          "the engine has no runtime \""
              + requested
              + "\" (it has "
              + String.join(", ", offered.stream().sorted().toList())
              + "): set "
              + SETTING
              + " to one of those, or unset it");
    }
    if (requested == null ? offered.contains(GVISOR) : requested.equals(GVISOR)) {
      return new RuntimeChoice(GVISOR, true, "gVisor (runsc) inside the engine's containers", null);
    }
    if (ownVm) {
      String name =
          requested != null
              ? requested
              : defaultRuntime == null || defaultRuntime.isBlank() ? "default" : defaultRuntime;
      return new RuntimeChoice(
          requested, false, "a container (" + name + ") in the engine's own Linux VM", null);
    }
    if (requested != null) {
      return new RuntimeChoice(
          requested,
          false,
          "a plain container ("
              + requested
              + ") that shares this machine's kernel, as "
              + SETTING
              + " asks; no gVisor",
          null);
    }
    return refused(
        "the engine offers no gVisor runtime (runsc), and on Linux a plain container shares this"
            + " machine's kernel: register runsc with the engine (runsc install, then restart"
            + " dockerd), or set "
            + SETTING
            + "=runc to accept plain containers");
  }

  /** For the tool's description: "isolated sandbox (...)". */
  String shortIsolation() {
    if (gvisor) {
      return "gVisor";
    }
    return isolation != null && isolation.contains("own Linux VM")
        ? "a container in its own Linux VM"
        : "a plain container, no gVisor";
  }

  private static RuntimeChoice refused(String problem) {
    return new RuntimeChoice(null, false, null, problem);
  }

  /**
   * Whether the engine runs containers in its own VM: off Linux always, on Linux Docker Desktop.
   */
  static boolean ownVm(boolean linuxHost, String operatingSystem) {
    return !linuxHost || (operatingSystem != null && operatingSystem.contains("Docker Desktop"));
  }
}
