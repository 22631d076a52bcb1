/**
 * The local backend: each program runs once in a fresh gVisor sandbox on this machine; what it can
 * reach is in {@code OciSpec}. Needs runsc, coreutils' {@code timeout}, python3 / node under /usr.
 * docs/local-sandbox.md describes the walls.
 */
package dev.cinchmcp.backend.local;
