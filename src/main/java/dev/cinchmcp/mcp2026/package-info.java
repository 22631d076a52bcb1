/**
 * MCP 2026-07-28, the stateless revision, served beside the SDK's 2025 session on the same stdio.
 *
 * <p>The MCP Java SDK speaks only the 2025 revisions. Until it speaks this one, this package does:
 * the transport asks {@link dev.cinchmcp.mcp2026.Era} which era each message belongs to and hands
 * every 2026-era request to {@link dev.cinchmcp.mcp2026.StatelessServer}, which judges it on its
 * own {@code _meta} ({@link dev.cinchmcp.mcp2026.RequestContext}) and answers it in this revision's
 * shapes. Nothing here keeps state between requests. When the SDK gains the revision, this package
 * is what it replaces.
 */
package dev.cinchmcp.mcp2026;
