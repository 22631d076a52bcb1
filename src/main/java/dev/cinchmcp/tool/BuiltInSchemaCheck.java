package dev.cinchmcp.tool;

import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import java.util.Map;

/**
 * Schemas and results conform by construction (the tests check with a real validator); loading one
 * at run time would add a fifth of a second to every start.
 */
public final class BuiltInSchemaCheck implements JsonSchemaValidator {

  @Override
  public ValidationResponse validate(Map<String, Object> schema, Object structuredContent) {
    // The JSON text is only used by the SDK when a result has no text content; ours always has.
    return ValidationResponse.asValid(null);
  }
}
