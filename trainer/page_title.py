"""Sets the browser tab's title from Python.

marimo fixes a page's title when the notebook loads (`app_title`); the one lesson page learns
which lesson it shows only from its address, so this tiny widget renames the tab afterwards.
"""

from __future__ import annotations

import anywidget
import traitlets

__all__ = ["PageTitle"]


class PageTitle(anywidget.AnyWidget):
    _esm = """
    export default {
      render({ model, el }) {
        const show = () => { document.title = model.get("title"); };
        show();
        model.on("change:title", show);
        el.hidden = true;  // nothing to see on the page
      },
    };
    """
    title = traitlets.Unicode("").tag(sync=True)
