// Pour quelques bastos de plus: the odds panel inside the band editor asks the odds without
// saving the band. The editor form saves on every `change`; a change inside the panel stops
// here (capture phase, before it reaches the form) and becomes the panel's own
// `odds-change`, which only the panel listens to (hx-trigger="odds-change").
(() => {
  if (window.bastosOddsPanel) return;
  window.bastosOddsPanel = true;
  document.addEventListener(
    "change",
    (event) => {
      const target = event.target;
      const panel = target instanceof Element ? target.closest("[data-odds-panel]") : null;
      if (!panel || !panel.closest("#editor")) return;
      event.stopPropagation();
      if (window.htmx) window.htmx.trigger(panel, "odds-change");
    },
    true,
  );
})();
