package dev.cinchmcp.e2e;

import static dev.cinchmcp.testkit.Requires.Need.GVISOR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cinchmcp.testkit.JarProcess;
import dev.cinchmcp.testkit.Requires;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The built jar, local backend, as a client uses it: a 1 MB CSV handed over in {@code files}, with
 * stdin and args, in one JSON-RPC call; the program reads them all and the result says what it was
 * given.
 */
@Requires(GVISOR)
class ProgramInputIT {

  @Test
  void aMegabyteCsvArrivesAsAFileWithStdinAndArgs() throws Exception {
    StringBuilder csv = new StringBuilder("id,city,value\n");
    for (int i = 0; csv.length() < 1_000_000; i++) {
      csv.append(i).append(",\"Zürich, CH\",").append(i % 100).append('\n');
    }
    String code =
        "import csv, sys\n"
            + "rows = list(csv.DictReader(open(sys.argv[1], encoding='utf-8', newline='')))\n"
            + "print(len(rows), sum(int(r['value']) for r in rows), rows[0]['city'], sys.stdin.read())";
    Map<String, Object> arguments =
        Map.of(
            "code",
            code,
            "stdin",
            "from stdin ✓",
            "files",
            Map.of("data/input.csv", csv.toString()),
            "args",
            List.of("data/input.csv"));
    long rows = csv.toString().lines().count() - 1;
    long sum =
        csv.toString()
            .lines()
            .skip(1)
            .mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(',') + 1)))
            .sum();

    try (JarProcess jar = JarProcess.start(Map.of())) {
      jar.initialize();
      jar.send(JarProcess.call(1, arguments));
      JsonNode result = jar.awaitReply(1, Duration.ofSeconds(60)).path("result");

      assertFalse(result.path("isError").asBoolean(true), result.toString());
      assertEquals(
          rows + " " + sum + " Zürich, CH from stdin ✓\n",
          result.path("structuredContent").path("stdout").asText(),
          result.toString());
      String text = result.path("content").get(0).path("text").asText();
      assertTrue(
          text.startsWith(
              String.format(
                  java.util.Locale.ROOT,
                  "Input: stdin 12 chars; files: data/input.csv (%,d chars) in /tmp/work; args: 1\n",
                  csv.length())),
          text);
      jar.closeStdin();
      assertEquals(0, jar.waitForExit(Duration.ofSeconds(20)));
      jar.assertProtocolClean();
    }
  }
}
