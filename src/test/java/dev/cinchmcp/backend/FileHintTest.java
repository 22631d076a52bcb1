package dev.cinchmcp.backend;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which programs run under the launcher that hands files back, by their text. */
class FileHintTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "import matplotlib.pyplot as plt\nplt.plot([1])",
        "from matplotlib import pyplot",
        "fig.savefig('a.pdf')",
        "open('chart.PNG', 'wb')",
        "path = 'out.jpeg'",
        "# writes a GIF",
        "with open(name, 'w') as f: f.write('x')",
        "open(p, mode=\"a+\")",
        "open(p, \"xb\")",
        "pathlib.Path('r.txt').write_text('hi')",
        "df.to_csv('x.csv')",
        "data = b'\\x89PNG'",
        "icon = 'logo.webp'",
        "svg = '<svg/>'",
      })
  void pythonThatMayWrite(String code) {
    assertTrue(FileHint.mayWriteFiles(new Program(code, Language.PYTHON)), code);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "print(6 * 7)",
        "print(open('data.csv').read())",
        "import json\nprint(json.dumps({'w': 1}))",
        "s = 'pngx'\nprint(s)",
        "print('stringify')",
        "x = 'w'",
      })
  void pythonThatDoesNot(String code) {
    assertFalse(FileHint.mayWriteFiles(new Program(code, Language.PYTHON)), code);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "require('fs').writeFileSync('a.png', b)",
        "fs.appendFileSync('log.txt', 'x')",
        "fs.createWriteStream('out.csv')",
        "const name = 'plot.png'",
      })
  void javascriptThatMayWrite(String code) {
    assertTrue(FileHint.mayWriteFiles(new Program(code, Language.JAVASCRIPT)), code);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "console.log(JSON.stringify(process.argv))",
        "console.log(require('fs').readFileSync(0, 'utf8'))",
        "open('a', 'w')", // not JavaScript's way to write
      })
  void javascriptThatDoesNot(String code) {
    assertFalse(FileHint.mayWriteFiles(new Program(code, Language.JAVASCRIPT)), code);
  }
}
