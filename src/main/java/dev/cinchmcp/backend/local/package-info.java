/**
 * The local backend: each program runs once in a fresh gVisor sandbox on this machine.
 *
 * <p>Use: {@code LocalSandboxRunner runner = LocalSandboxRunner.start();} then {@link
 * dev.cinchmcp.backend.local.LocalSandboxRunner#usable()} / {@link
 * dev.cinchmcp.backend.local.LocalSandboxRunner#unavailableReason()} for the ready line, and {@link
 * dev.cinchmcp.backend.local.LocalSandboxRunner#versions()} ("Python 3.11.2, Node.js 20.20.2") for
 * the tool description. When gVisor is missing every run fails with SANDBOX_UNAVAILABLE and what to
 * install; code is never run outside gVisor.
 *
 * <p>The walls, and where each is enforced:
 *
 * <ul>
 *   <li>files: an empty read-only root plus read-only /usr, /lib, /lib64, /bin; 64 MB tmpfs /tmp;
 *       uid 65534; no new privileges ({@link dev.cinchmcp.backend.local.OciSpec});
 *   <li>network: {@code runsc --network=none} (loopback only, the sandbox's own);
 *   <li>environment: written from scratch in config.json (PATH, HOME=/tmp, LANG, LC_CTYPE);
 *   <li>memory 256 MB (+64 MB for gVisor itself), host tasks, half a CPU: a cgroup v1 directory per
 *       run that runsc is started in ({@link dev.cinchmcp.backend.local.CgroupLimits}); Node's heap
 *       limit on top; RLIMIT_NPROC 64 inside gVisor;
 *   <li>time: 10 s from the start of runsc, then every process in the run's cgroup is killed.
 * </ul>
 *
 * <p>Needs: Linux, root (rootless runsc as root; cgroup v1 directories), {@code apt-get install -y
 * runsc} (Debian's 2022 build works), and python3 / node installed under /usr (Debian's {@code
 * python3} and {@code nodejs} packages) — a pyenv or nvm interpreter under /root or /opt is
 * invisible inside the sandbox. The tests need the same.
 */
package dev.cinchmcp.backend.local;
