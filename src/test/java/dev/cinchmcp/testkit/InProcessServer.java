package dev.cinchmcp.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cinchmcp.config.Settings;
import dev.cinchmcp.server.CinchMcpServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The whole server in this JVM, fed bytes on its "stdin" until their end, against a fake Cinch API;
 * what it wrote on "stdout" comes back. For transport tests that need no process of their own.
 */
public final class InProcessServer {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** initialize (id 0, protocol 2025-06-18) and notifications/initialized, each on its line. */
  public static final String INIT =
      "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
          + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}\n"
          + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n";

  private InProcessServer() {}

  /** Serves {@code input} with this API key against {@code api}; the bytes written. */
  public static byte[] serve(FakeCinchApi api, String key, byte[] input) {
    Settings settings =
        Settings.fromEnvironment(Map.of("CINCH_API_KEY", key, "CINCH_BASE_URL", api.baseUrl()));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new CinchMcpServer(settings).serve(new ByteArrayInputStream(input), out);
    return out.toByteArray();
  }

  /** The bytes as text, failing on anything that is not valid UTF-8. */
  public static String strictUtf8(byte[] out) throws CharacterCodingException {
    return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(out)).toString();
  }

  /** Each non-empty line as JSON; throws if one is not. */
  public static List<JsonNode> messages(String text) throws IOException {
    List<JsonNode> messages = new ArrayList<>();
    for (String line : text.split("\n")) {
      if (!line.isEmpty()) {
        messages.add(JSON.readTree(line));
      }
    }
    return messages;
  }
}
