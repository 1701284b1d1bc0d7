// Every page: copy and print buttons, scrolling tables the keyboard reaches, the « hors
// ligne » note, and the service worker (/sw.js) that keeps the pages opened once for a
// basement without network.

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

// Offline: the note says so, and forms that would write are refused clearly (nothing typed
// is lost: the page stays as it is).
function showOffline() {
  const note = document.getElementById("offline-note");
  if (note) note.hidden = navigator.onLine;
  document.documentElement.classList.toggle("offline", !navigator.onLine);
}
window.addEventListener("online", showOffline);
window.addEventListener("offline", showOffline);
showOffline();
// A change to a list typed offline (the editor's form, hx-post) is kept in the page and
// sent, whole, as soon as the network is back; leaving the page meanwhile asks first
// (docs/offline.md). Other forms are refused with the note (nothing typed is lost).
function keepForLater(form) {
  if (!form || !form.hasAttribute("hx-post")) return;
  form.dataset.pending = "1";
  form.dataset.unsaved = "1"; // the whole form goes, not the counts alone
  const pending = document.getElementById("offline-pending");
  if (pending) pending.hidden = false;
}
document.addEventListener("submit", (event) => {
  if (navigator.onLine) return;
  event.preventDefault();
  event.stopImmediatePropagation();
  keepForLater(event.target.closest ? event.target.closest("form") : null);
  const note = document.getElementById("offline-note");
  if (note) { note.hidden = false; note.focus?.(); }
}, true);
document.addEventListener("htmx:beforeRequest", (event) => {
  if (navigator.onLine) return;
  event.preventDefault();
  showOffline();
  const elt = event.detail.elt;
  keepForLater(elt && elt.closest ? elt.closest("form") : null);
});
window.addEventListener("online", () => {
  const pending = document.getElementById("offline-pending");
  if (pending) pending.hidden = true;
  document.querySelectorAll("form[data-pending]").forEach((form) => {
    delete form.dataset.pending;
    if (window.htmx) window.htmx.trigger(form, "change");
  });
});
window.addEventListener("beforeunload", (event) => {
  if (!document.querySelector("form[data-pending]")) return;
  event.preventDefault();
  event.returnValue = "";
});

// « Oublier ce carnet sur cet appareil »: the answer's Clear-Site-Data empties the caches; a
// browser that ignores it (no HTTPS) is emptied here, and the worker told to do the same.
if (document.getElementById("carnet-forgotten") && "caches" in window) {
  caches.keys().then((names) => Promise.all(names.map((name) => caches.delete(name)))).catch(() => {});
  navigator.serviceWorker?.controller?.postMessage("purge");
}

if ("serviceWorker" in navigator && window.isSecureContext) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
}

// A table wider than its box scrolls inside it; the keyboard must reach it too (here, not
// in caserne.js: read-only pages load no HTMX and no caserne.js).
const focusableScrollers = () => {
  for (const box of document.querySelectorAll(".table-scroll")) {
    if (box.scrollWidth > box.clientWidth) box.setAttribute("tabindex", "0");
    else box.removeAttribute("tabindex");
  }
};
document.addEventListener("DOMContentLoaded", focusableScrollers);
document.addEventListener("htmx:afterSettle", focusableScrollers);
window.addEventListener("resize", focusableScrollers);

// « Importer une liste »: a file dropped on the text box is read into it (without scripts,
// the page's file field sends it).
document.addEventListener("dragover", (event) => {
  if (event.target.closest?.("[data-drop-file]")) event.preventDefault();
});
document.addEventListener("drop", (event) => {
  const box = event.target.closest?.("[data-drop-file]");
  const file = event.dataTransfer?.files?.[0];
  if (!box || !file) return;
  event.preventDefault();
  file.text().then((text) => { box.value = text; }).catch(() => {});
});
