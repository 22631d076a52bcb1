package dev.cinchmcp.e2e;

import static dev.cinchmcp.testkit.Requires.Need.GVISOR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cinchmcp.testkit.Requires;
import java.awt.image.BufferedImage;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Matplotlib figures out of the local sandbox, with the host's Debian python3-matplotlib. Needs the
 * sandbox to see the pieces of /etc that numpy and matplotlib read (the alternatives links,
 * /etc/matplotlibrc): that is issue 22's other half (OciSpec, SandboxRuntimes), so this class runs
 * once both are merged; on its own branch it fails at {@code import matplotlib}. Every run cold, as
 * in {@link PicturesLocalIT}, whose cases it runs too.
 */
@Requires(GVISOR)
class PicturesMatplotlibLocalIT extends PicturesLocalIT {

  @Test
  void plotShowComesBackAsAnImage() throws Exception {
    JsonNode result =
        runOk(
            "import matplotlib.pyplot as plt\nplt.plot([1, 4, 9, 16])\nplt.title('squares')\n"
                + "plt.show()\nprint('shown')\n",
            "python");
    assertTrue(
        result.path("structuredContent").path("stdout").asText().startsWith("shown"),
        brief(result));
    oneImage(result, 640, 480);
    assertEquals("figure", file(result, "[figure 1]").path("type").asText());
  }

  @Test
  void savedAndShownAndLeftOpenFiguresComeBackInTheOrderMade() throws Exception {
    JsonNode result =
        runOk(
            """
            import matplotlib.pyplot as plt
            plt.figure(figsize=(4, 3)); plt.plot([1, 2]); plt.show()
            fig = plt.figure(figsize=(5, 3)); plt.bar([1, 2], [3, 4]); fig.savefig('bars.png')
            plt.figure(figsize=(6, 3)); plt.scatter([1, 2], [2, 1])
            """,
            "python");
    List<BufferedImage> images = images(result);
    assertEquals(
        3, images.size(), "the saved figure left open is not sent twice: " + brief(result));
    assertEquals(400, images.get(0).getWidth());
    assertEquals(500, images.get(1).getWidth());
    assertEquals(600, images.get(2).getWidth());
    JsonNode files = result.path("structuredContent").path("files");
    assertEquals("[figure 1]", files.get(0).path("name").asText());
    assertEquals("bars.png", files.get(1).path("name").asText());
    assertEquals("[figure 2]", files.get(2).path("name").asText());
  }

  @Test
  void aHugeFigureIsScaledDown() throws Exception {
    // Wider than a client takes, but not tall: a 4200 × 4200 figure took up to 9.6 s of the 10 s
    // limit to draw here, at half a CPU under gVisor.
    JsonNode result =
        run(
            "import matplotlib.pyplot as plt\nplt.figure(figsize=(42, 4), dpi=100)\n"
                + "plt.plot([0, 1], [0, 1])\nplt.show()\n",
            "python");
    assertScaledDown(result, "[figure 1]", "4200 × 400");
  }

  @Test
  void aFailingProgramKeepsTheFigureItDrew() throws Exception {
    JsonNode result =
        runOk(
            "import matplotlib.pyplot as plt\nplt.plot([3, 1, 2])\nraise RuntimeError('late')\n",
            "python");
    assertTrue(
        result.path("structuredContent").path("error").asText().startsWith("The program failed"),
        brief(result));
    assertTrue(
        result.path("structuredContent").path("stderr").asText().contains("RuntimeError: late"));
    assertEquals(1, images(result).size(), brief(result));
  }
}
