package dev.cinchmcp.json;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;

/**
 * The SDK's JSON mapper (Jackson), except that the params of {@code initialize} and {@code
 * tools/call} are turned into the SDK's records by {@link SdkParams}, without Jackson's reflection:
 * the session and the server convert them at the start of every such request.
 *
 * <p>Still paid for, measured: with this package replaced by Jackson's own conversions and writing
 * (tried on 6 Dec 2026, warm-ups moved to Jackson's paths), a lone jar's {@code initialize} on Java
 * 17 came some 140 ms later (spawn to reply, medians of 8 alternated starts: ~490 ms against ~350
 * ms, load average 4.8-6.9 on two cores).
 */
public final class SdkJsonMapper implements McpJsonMapper {

  private final CompletableFuture<ObjectMapper> mapper;
  private volatile JacksonMcpJsonMapper jackson;

  public SdkJsonMapper(ObjectMapper mapper) {
    this(CompletableFuture.completedFuture(mapper));
  }

  /** With a mapper still being made: it is waited for at the first conversion, not before. */
  public SdkJsonMapper(CompletableFuture<ObjectMapper> mapper) {
    this.mapper = mapper;
  }

  private JacksonMcpJsonMapper jackson() {
    JacksonMcpJsonMapper j = jackson;
    if (j == null) {
      j = new JacksonMcpJsonMapper(mapper.join());
      jackson = j;
    }
    return j;
  }

  @Override
  public <T> T convertValue(Object fromValue, Class<T> type) {
    Object built = SdkParams.read(fromValue, type);
    return built != null ? type.cast(built) : jackson().convertValue(fromValue, type);
  }

  @Override
  @SuppressWarnings("unchecked")
  public <T> T convertValue(Object fromValue, TypeRef<T> type) {
    Object built = SdkParams.read(fromValue, type.getType());
    return built != null ? (T) built : jackson().convertValue(fromValue, type);
  }

  @Override
  public <T> T readValue(String content, Class<T> type) throws IOException {
    return jackson().readValue(content, type);
  }

  @Override
  public <T> T readValue(byte[] content, Class<T> type) throws IOException {
    return jackson().readValue(content, type);
  }

  @Override
  public <T> T readValue(String content, TypeRef<T> type) throws IOException {
    return jackson().readValue(content, type);
  }

  @Override
  public <T> T readValue(byte[] content, TypeRef<T> type) throws IOException {
    return jackson().readValue(content, type);
  }

  @Override
  public String writeValueAsString(Object value) throws IOException {
    return jackson().writeValueAsString(value);
  }

  @Override
  public byte[] writeValueAsBytes(Object value) throws IOException {
    return jackson().writeValueAsBytes(value);
  }
}
