// Caserne: the only hand-written script. Pages work without it; it adds copy and print buttons.

// htmx would add a <style> element for its request indicators, which Caserne does not use
// and which the Content-Security-Policy (no inline <style>) refuses. This script runs after
// htmx's and before the DOMContentLoaded handler where htmx inserts it.
if (window.htmx) window.htmx.config.includeIndicatorStyles = false;
document.addEventListener("click", async (event) => {
  const copy = event.target.closest("[data-copy]");
  if (copy) {
    const source = document.querySelector(copy.dataset.copy);
    if (!source) return;
    source.select();
    try {
      await navigator.clipboard.writeText(source.value);
    } catch {
      document.execCommand("copy");
    }
    const label = copy.textContent;
    copy.textContent = "Copié !";
    setTimeout(() => { copy.textContent = label; }, 1500);
    return;
  }
  if (event.target.closest("[data-print]")) window.print();
});

// A form that saves on `change` must not take the action of the button that happens to
// have the focus (Tab from a field onto "Partager" or "Ajouter"): htmx sends the focused
// submit button with the next request. Only a real submit carries a button's action.
document.addEventListener("htmx:configRequest", (event) => {
  const trigger = event.detail.triggeringEvent;
  if (!trigger || trigger.type === "submit") return;
  delete event.detail.parameters["action"];
  const path = event.detail.elt.getAttribute("hx-post");
  if (path) event.detail.path = path;
});

// After a morphing swap the focused control is kept (idiomorph). When it is gone (the last
// row's "Retirer"), the focus goes to the control the form names, not back to the top.
document.addEventListener("htmx:afterSettle", (event) => {
  const form = event.detail.elt.closest ? event.detail.elt.closest("[data-focus-fallback]") : null;
  if (!form) return;
  const active = document.activeElement;
  if (active && active !== document.body && document.contains(active)) return;
  // The answer may name the control to go to ("Annuler": the row put back).
  const next = form.querySelector("[data-focus-next]");
  const fallback = (next && document.querySelector(next.dataset.focusNext)) || document.querySelector(form.dataset.focusFallback);
  if (fallback) fallback.focus({ preventScroll: true });
});

// A table wider than its box scrolls inside it; the keyboard must reach it too.
const focusableScrollers = () => {
  for (const box of document.querySelectorAll(".table-scroll")) {
    if (box.scrollWidth > box.clientWidth) box.setAttribute("tabindex", "0");
    else box.removeAttribute("tabindex");
  }
};
document.addEventListener("DOMContentLoaded", focusableScrollers);
document.addEventListener("htmx:afterSettle", focusableScrollers);
window.addEventListener("resize", focusableScrollers);

// Morphing swaps (hx-swap="morph:..."): the field being typed in keeps what is typed, even
// when an earlier answer arrives. Set here, not in hx-swap: a config object there is read
// with Function(), which the Content-Security-Policy refuses.
if (window.Idiomorph) window.Idiomorph.defaults.ignoreActiveValue = true;

// Back from the creator (a row saved over, /r/<id>#entry-<n>): the focus goes to that row's
// "Modifier", the control that opened the creator, so Tab carries on from the row. After
// `load`: the browser's own move to the #fragment would otherwise take the focus back.
window.addEventListener("load", () => {
  const row = /^#entry-\d+$/.test(location.hash) ? document.querySelector(location.hash) : null;
  if (!row) return;
  const control = document.querySelector(`${location.hash}-edit`) || row.querySelector("input, button, a");
  if (control) setTimeout(() => control.focus(), 0);
});
