package dev.cinchmcp.mcp2026;

import static dev.cinchmcp.json.JsonWords.describe;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.spec.McpSchema.LoggingLevel;
import java.util.List;
import java.util.Locale;

/**
 * What a 2026-era request says about itself in {@code params._meta}: its protocol version, the
 * client's capabilities for this request, and the log level it wants (none: no log messages).
 * {@link #read} checks every key the revision requires, on every request: nothing is carried over
 * from an earlier one.
 *
 * @param logLevel the lowest level of log message to send for this request, or null for none
 */
public record RequestContext(
    String protocolVersion, JsonNode clientCapabilities, LoggingLevel logLevel) {

  public static final String PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
  public static final String CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
  public static final String LOG_LEVEL = "io.modelcontextprotocol/logLevel";
  public static final String SERVER_INFO = "io.modelcontextprotocol/serverInfo";

  /**
   * Reads and checks the context of a request. The version comes first: a request in a version this
   * server does not serve cannot be read further, and the client needs the supported list.
   *
   * @throws ProtocolError -32602 naming the key that is missing or of the wrong type, or -32022
   *     when the version is not one of {@code supported}
   */
  static RequestContext read(JsonNode params, List<String> supported) {
    if (params == null || !params.isObject()) {
      throw ProtocolError.invalidParams(
          "Invalid params: a 2026-07-28 request needs \"params\" with \"_meta\" (an object); got "
              + describe(params)
              + ".");
    }
    JsonNode meta = params.get("_meta");
    if (meta == null || !meta.isObject()) {
      throw ProtocolError.invalidParams(
          "Invalid params: \"params._meta\" must be an object holding \""
              + PROTOCOL_VERSION
              + "\" and \""
              + CLIENT_CAPABILITIES
              + "\" (got "
              + describe(meta)
              + ").");
    }
    JsonNode version = meta.get(PROTOCOL_VERSION);
    if (version == null || !version.isTextual()) {
      throw required(PROTOCOL_VERSION, "a string such as \"" + supported.get(0) + "\"", version);
    }
    if (!supported.contains(version.textValue())) {
      throw ProtocolError.unsupportedVersion(version.textValue(), supported);
    }
    JsonNode capabilities = meta.get(CLIENT_CAPABILITIES);
    if (capabilities == null || !capabilities.isObject()) {
      throw required(CLIENT_CAPABILITIES, "an object ({} for none)", capabilities);
    }
    return new RequestContext(version.textValue(), capabilities, logLevel(meta.get(LOG_LEVEL)));
  }

  private static LoggingLevel logLevel(JsonNode level) {
    if (level == null) {
      return null;
    }
    if (level.isTextual()) {
      for (LoggingLevel l : LoggingLevel.values()) {
        if (l.name().toLowerCase(Locale.ROOT).equals(level.textValue())) {
          return l;
        }
      }
    }
    throw ProtocolError.invalidParams(
        "Invalid params: "
            + key(LOG_LEVEL)
            + " must be one of debug, info, notice, warning, error, critical, alert, emergency"
            + " (got "
            + describe(level)
            + ").");
  }

  /** Whether a log message of this level goes out for this request. */
  boolean wantsLog(LoggingLevel level) {
    return logLevel != null && level.level() >= logLevel.level();
  }

  /** A key of {@code _meta} the revision requires, missing or of the wrong type. */
  private static ProtocolError required(String name, String expected, JsonNode got) {
    return ProtocolError.invalidParams(
        "Invalid params: "
            + key(name)
            + " is required, "
            + expected
            + " (got "
            + describe(got)
            + ").");
  }

  private static String key(String name) {
    return "params._meta[\"" + name + "\"]";
  }
}
