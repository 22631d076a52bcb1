/**
 * The local backend: each program runs once in a fresh gVisor sandbox on this machine ({@link
 * dev.cinchmcp.backend.local.LocalSandboxRunner}). What the program can reach is in {@link
 * dev.cinchmcp.backend.local.OciSpec}, which limits hold here in {@link
 * dev.cinchmcp.backend.local.EnforcedLimits}, one sandbox's life in {@link
 * dev.cinchmcp.backend.local.Sandbox}; code never runs outside gVisor.
 *
 * <p>Needs: Linux, runsc ({@code apt-get install -y runsc}) with rootless runsc allowed for the
 * user, coreutils' {@code timeout}, and python3 / node under /usr (an interpreter under /root or
 * /opt is invisible inside the sandbox). docs/local-sandbox.md describes the walls.
 */
package dev.cinchmcp.backend.local;
