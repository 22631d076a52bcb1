/**
 * MCP 2026-07-28, the stateless revision, served beside the SDK's 2025 session on the same stdio
 * until the SDK speaks it: the transport asks {@link dev.cinchmcp.mcp2026.Era} which era a message
 * belongs to and hands 2026-era requests to {@link dev.cinchmcp.mcp2026.StatelessServer}, which
 * judges each on its own {@code _meta}. Nothing here keeps state between requests.
 */
package dev.cinchmcp.mcp2026;
