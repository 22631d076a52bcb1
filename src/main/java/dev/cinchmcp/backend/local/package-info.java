/**
 * The local backend: each program runs once in a fresh gVisor sandbox on this machine.
 *
 * <p>Use: {@code LocalSandboxRunner.start(settings, after)}, which returns in tens of milliseconds
 * and runs the gVisor self-test in the background (a run that arrives first waits for it); then
 * {@link dev.cinchmcp.backend.local.LocalSandboxRunner#usable()} / {@link
 * dev.cinchmcp.backend.local.LocalSandboxRunner#unavailableReason()}, {@link
 * dev.cinchmcp.backend.local.LocalSandboxRunner#versions()} ("Python 3.11.2, Node.js 20.20.2"),
 * {@link dev.cinchmcp.backend.local.LocalSandboxRunner#packages()} (the well-known ones found) and
 * {@link dev.cinchmcp.backend.local.LocalSandboxRunner#limits()} (which limits hold here) for the
 * ready line and the tool description. When gVisor is missing every run fails with
 * SANDBOX_UNAVAILABLE and what to install; code is never run outside gVisor.
 *
 * <p>The walls, and where each is enforced:
 *
 * <ul>
 *   <li>files: an empty read-only root plus read-only /usr, /lib, /lib64, /bin and the three pieces
 *       of /etc installed packages need ({@link dev.cinchmcp.backend.local.HostEtc}); 64 MB tmpfs
 *       /tmp; uid 65534; no new privileges ({@link dev.cinchmcp.backend.local.OciSpec});
 *   <li>network: {@code runsc --network=none} (loopback only, the sandbox's own);
 *   <li>environment: written from scratch in config.json (PATH, HOME=/tmp, LANG, LC_CTYPE, one
 *       BLAS/OpenMP thread; NODE_PATH for Node);
 *   <li>the server's state: a directory only its user can reach, checked without following links
 *       ({@link dev.cinchmcp.backend.local.StateDirectory});
 *   <li>memory for the program (256 MB unless {@code CINCH_SANDBOX_MEMORY_MB} says otherwise), host
 *       tasks, a CPU share (half a CPU unless {@code CINCH_SANDBOX_CPUS}): a host cgroup per run,
 *       v1 as root or a delegated v2 subtree ({@link dev.cinchmcp.backend.local.HostCgroups});
 *       without one, RLIMIT_AS (Python) and a watchdog thread (Node) per process, and no CPU share
 *       ({@link dev.cinchmcp.backend.local.EnforcedLimits} says which); RLIMIT_NPROC 64 inside
 *       gVisor; on a machine of two cores or fewer, all sandboxes together keep off a reserve of
 *       the CPU ({@link dev.cinchmcp.backend.local.HostCgroups#capAll});
 *   <li>time: 10 s (or {@code CINCH_SANDBOX_TIME_LIMIT_S}) from the start of runsc, then the
 *       sandbox is killed; {@code timeout} kills it a second later even if the server is gone
 *       (SIGKILL included). In a sandbox started ahead of time, from the hand-over, and its
 *       supervisor shell is the backstop ({@link
 *       dev.cinchmcp.backend.local.WarmLauncher#SUPERVISOR}).
 * </ul>
 *
 * <p>Sandboxes started ahead of time: {@link
 * dev.cinchmcp.backend.local.LocalSandboxSettings#poolSize()} per language wait for a call in a
 * {@link dev.cinchmcp.backend.WarmPool}; each is used once, has the walls above fixed before its
 * start, and shows its program what a cold one shows ({@link
 * dev.cinchmcp.backend.local.WarmLauncher}).
 *
 * <p>Needs: Linux, {@code apt-get install -y runsc} (Debian's 2022 build works) with rootless runsc
 * allowed for the user, coreutils' {@code timeout}, and python3 / node installed under /usr
 * (Debian's {@code python3} and {@code nodejs} packages) — a pyenv or nvm interpreter under /root
 * or /opt is invisible inside the sandbox. The tests need the same; .ci/run runs them as root and
 * as an ordinary user.
 */
package dev.cinchmcp.backend.local;
