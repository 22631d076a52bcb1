package dev.cinchmcp.mcp2026;

import static dev.cinchmcp.json.ParamsCheck.describe;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cinchmcp.json.ParamsCheck;
import io.modelcontextprotocol.spec.McpSchema.LoggingLevel;
import java.util.List;
import java.util.Locale;

/**
 * What a 2026-era request says of itself in {@code params._meta}, checked on every request; {@code
 * logLevel}, the lowest level of log message to send it, or null for none.
 */
public record RequestContext(
    String protocolVersion, JsonNode clientCapabilities, LoggingLevel logLevel) {

  public static final String PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
  public static final String CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
  public static final String LOG_LEVEL = "io.modelcontextprotocol/logLevel";
  public static final String SERVER_INFO = "io.modelcontextprotocol/serverInfo";

  /**
   * The version first: a request in one not served cannot be read further. Throws -32602 naming a
   * key missing or of the wrong type, -32022 for a version not served.
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
    if (level.isTextual() && ParamsCheck.LOG_LEVELS.contains(level.textValue())) {
      return LoggingLevel.valueOf(level.textValue().toUpperCase(Locale.ROOT));
    }
    throw ProtocolError.invalidParams(
        "Invalid params: "
            + key(LOG_LEVEL)
            + " must be "
            + ParamsCheck.ONE_OF_LEVELS
            + " (got "
            + describe(level)
            + ").");
  }

  boolean wantsLog(LoggingLevel level) {
    return logLevel != null && level.level() >= logLevel.level();
  }

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
