# cinch-mcp's matplotlib backend (MPLBACKEND=module://cinchmcp_figures), for the input launcher's
# child: it draws with Agg, no display needed. plt.show() keeps every open figure as a PNG at the
# figure's own size and closes it, as a notebook does (~0.2 s for a simple plot in the local
# sandbox; bbox_inches="tight" would draw twice); figures still open when the program ends are kept
# too, unless savefig wrote them (the file is then the picture). The launcher hands them back with
# the files the program wrote, in the order they were made. A program that picks another backend
# (matplotlib.use) keeps only what it saves itself.
import atexit
import itertools
import os

from matplotlib import _pylab_helpers
from matplotlib.figure import Figure
from matplotlib.backend_bases import FigureManagerBase as FigureManager
from matplotlib.backends.backend_agg import FigureCanvasAgg as FigureCanvas

FIGURES = "@FIGURES_DIR@"
_numbers = itertools.count(1)


def _keep_open_figures(unsaved_only=False):
    for manager in _pylab_helpers.Gcf.get_all_fig_managers():
        if unsaved_only and getattr(manager.canvas.figure, "_cinchmcp_saved", False):
            continue  # savefig wrote it: the file is the picture
        os.makedirs(FIGURES, exist_ok=True)
        path = os.path.join(FIGURES, "figure-%d.png" % next(_numbers))
        manager.canvas.figure.savefig(path, format="png")


def show(*args, **kwargs):
    _keep_open_figures()
    _pylab_helpers.Gcf.destroy_all()


_savefig = Figure.savefig


def _savefig_noted(self, *args, **kwargs):
    result = _savefig(self, *args, **kwargs)
    self._cinchmcp_saved = True
    return result


Figure.savefig = _savefig_noted

# Registered after pyplot's own clean-up (it imports this module), so it runs before that closes
# the figures.
atexit.register(_keep_open_figures, unsaved_only=True)
