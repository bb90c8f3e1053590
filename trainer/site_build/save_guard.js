// Hearts Trainer's static site saves progress to IndexedDB in the background (trainer/browser.py,
// in marimo's Pyodide worker). A tab closed while such a save runs would lose the last step, so
// while one runs, leaving the page asks first. The worker reports each save on a BroadcastChannel
// (the page cannot hear its own worker otherwise); a report older than STALE_MS is ignored, so a
// tab closed mid-save cannot leave the others asking for ever.
(() => {
  const CHANNEL = "hearts-trainer-saving";
  const STALE_MS = 10000;
  const running = new Map(); // saver id -> when its save began
  const channel = new BroadcastChannel(CHANNEL);
  const busy = () => {
    const now = Date.now();
    for (const [saver, since] of running) {
      if (now - since > STALE_MS) running.delete(saver);
    }
    return running.size > 0;
  };
  channel.onmessage = (event) => {
    const { saver, saving } = event.data || {};
    if (typeof saver !== "string") return;
    if (saving) running.set(saver, Date.now());
    else running.delete(saver);
    document.documentElement.toggleAttribute("data-ht-saving", busy());
  };
  addEventListener("beforeunload", (event) => {
    if (!busy()) return;
    event.preventDefault();
    event.returnValue = ""; // older browsers show their "leave site?" question only with this
  });
})();
