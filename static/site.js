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
document.addEventListener("submit", (event) => {
  if (navigator.onLine) return;
  event.preventDefault();
  event.stopImmediatePropagation();
  const note = document.getElementById("offline-note");
  if (note) { note.hidden = false; note.focus?.(); }
}, true);
document.addEventListener("htmx:beforeRequest", (event) => {
  if (!navigator.onLine) { event.preventDefault(); showOffline(); }
});

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
