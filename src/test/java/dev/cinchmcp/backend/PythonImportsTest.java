package dev.cinchmcp.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class PythonImportsTest {

  @Test
  void importStatementsNameTheirHeavyModulesInTheOrderWritten() {
    assertEquals(
        List.of("pandas", "numpy", "matplotlib.pyplot"),
        PythonImports.heavy(
            "import pandas as pd, numpy as np\nimport os, json\nimport matplotlib.pyplot as plt\n"));
  }

  @Test
  void fromImportsNameTheModuleAndTheCandidateSubmodules() {
    assertEquals(
        List.of("matplotlib", "matplotlib.pyplot", "scipy", "scipy.stats", "scipy.optimize"),
        PythonImports.heavy(
            "from matplotlib import pyplot as plt\nfrom scipy import (stats,\n optimize)\n"
                + "from scipy import optimize\n"));
    assertEquals(List.of("numpy"), PythonImports.heavy("from numpy import *\n"));
  }

  @Test
  void indentedSemicolonSeparatedAndCommentedImportsCount() {
    assertEquals(
        List.of("numpy", "pandas"),
        PythonImports.heavy(
            "def f():\n    import numpy  # for arrays\nx = 1; import pandas as pd\n"));
  }

  @Test
  void lightRelativeAndLookAlikeImportsDoNot() {
    assertEquals(
        List.of(),
        PythonImports.heavy(
            "import os\nfrom . import numpy\nfrom .pandas import x\nimport numpyish\n"
                + "from __future__ import annotations\nprint('import numpy')\nimportlib = 1\n"));
    assertEquals(List.of(), PythonImports.heavy("print(2 + 2)"));
  }

  @Test
  void parentsComeBeforeTheirModules() {
    assertEquals(
        List.of("matplotlib", "matplotlib.pyplot", "scipy", "scipy.stats"),
        PythonImports.withParents(List.of("matplotlib.pyplot", "scipy.stats", "matplotlib")));
  }
}
