package dev.cinchmcp.json;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;

/**
 * The SDK's Jackson mapper, except that the params of {@code initialize} and {@code tools/call}
 * become records through {@link SdkParams}. This package replaced by Jackson's own conversions (6
 * Dec 2026) made a lone jar's {@code initialize} on Java 17 ~140 ms later (~490 against ~350 ms,
 * medians of 8 alternated starts, load 4.8-6.9 on two cores).
 */
public final class SdkJsonMapper implements McpJsonMapper {

  private final CompletableFuture<ObjectMapper> mapper;
  private volatile JacksonMcpJsonMapper jackson;

  /** The mapper may still be being made: it is waited for at the first conversion. */
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
