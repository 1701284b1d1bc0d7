// Caserne's editor script (pages that use HTMX). Pages work without it. Copy, print and
// the offline note are static/site.js's, which every page loads.

// htmx would add a <style> element for its request indicators, which Caserne does not use
// and which the Content-Security-Policy (no inline <style>) refuses. This script runs after
// htmx's and before the DOMContentLoaded handler where htmx inserts it.
if (window.htmx) window.htmx.config.includeIndicatorStyles = false;
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

// A count change sends the counts and the version only (POST /r/<id>/nombres), and its
// answer morphs in the rows whose figures moved and the totals (issue 19): a 50-entry form
// is neither sent whole nor rendered whole. Only once the last save went through: after a
// refused or failed one, the page shows values that are not stored, which only the whole
// form carries. The saves stay queued in order (hx-sync "queue all"): none is dropped.
const COUNT_FIELD = /^entry-\d+-count$/;
document.addEventListener("htmx:configRequest", (event) => {
  const trigger = event.detail.triggeringEvent;
  const form = event.detail.elt;
  const field = trigger && trigger.type === "change" ? trigger.target : null;
  if (!field || !form.dataset || !form.dataset.countsPath || form.dataset.unsaved) return;
  if (!(field instanceof HTMLInputElement) || !COUNT_FIELD.test(field.name)) return;
  const data = event.detail.formData;
  for (const name of Array.from(data.keys())) {
    if (name !== "version" && name !== "csrf" && !COUNT_FIELD.test(name)) data.delete(name);
  }
  event.detail.path = form.dataset.countsPath;
});
// A whole form's save says when the page shows what the server drew for its version (no
// refused or failed save since): its answer may then keep the rows and send only those that
// moved, as a count change's does (issue 29, app/web/editor_parts.py).
document.addEventListener("htmx:configRequest", (event) => {
  const form = event.detail.elt;
  if (!form.dataset || !form.dataset.countsPath || form.dataset.unsaved) return;
  if (event.detail.path === form.dataset.countsPath) return;
  event.detail.formData.set("shown", "1");
});
document.addEventListener("htmx:afterRequest", (event) => {
  const form = event.detail.elt;
  if (!form.dataset || !form.dataset.countsPath) return;
  const status = event.detail.xhr ? event.detail.xhr.status : 0;
  if (event.detail.failed || status === 0 || status >= 400) form.dataset.unsaved = "1";
  else if (event.detail.requestConfig && event.detail.requestConfig.path !== form.dataset.countsPath) delete form.dataset.unsaved;
});
// The count path's answer when it cannot take the change alone (a version moved on, a bad
// value): the whole form is saved, and says why if it is refused.
document.addEventListener("caserne:save-whole", (event) => {
  const form = event.target.closest ? event.target.closest("form[data-counts-path]") : null;
  if (!form) return;
  form.dataset.unsaved = "1"; // this one save goes whole
  window.htmx.trigger(form, "change");
});

// Enter in a field of a panel with its own action ([data-enter="#add"]: the editor's add
// panel) presses that panel's button, not the form's default one (which saves).
document.addEventListener("keydown", (event) => {
  if (event.key !== "Enter" || event.isComposing) return;
  const field = event.target;
  if (!(field instanceof HTMLInputElement || field instanceof HTMLSelectElement)) return;
  const panel = field.closest("[data-enter]");
  const button = panel && document.querySelector(panel.dataset.enter);
  if (!button || field.matches("[data-filter-options]")) return;
  event.preventDefault();
  button.click();
});

// The tab's title follows what the page says (the editor's list name after a rename).
document.addEventListener("htmx:afterSettle", () => {
  const titled = document.querySelector("[data-title]");
  if (titled && document.title !== titled.dataset.title) document.title = titled.dataset.title;
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

// Morphing swaps (hx-swap="morph:..."): the field being typed in keeps what is typed, even
// when an earlier answer arrives. Set here, not in hx-swap: a config object there is read
// with Function(), which the Content-Security-Policy refuses.
if (window.Idiomorph) window.Idiomorph.defaults.ignoreActiveValue = true;
// A row's folded details (long lists) stay as the player left them, open or closed, through
// the saves: the server does not know which ones were opened.
if (window.Idiomorph) {
  window.Idiomorph.defaults.callbacks.beforeAttributeUpdated = (name, node) =>
    !(name === "open" && node.tagName === "DETAILS");
}

// Back from the creator (a row saved over, /r/<id>#entry-<n>): the focus goes to that row's
// "Modifier", the control that opened the creator, so Tab carries on from the row. After
// `load`: the browser's own move to the #fragment would otherwise take the focus back.
window.addEventListener("load", () => {
  const row = /^#entry-\d+$/.test(location.hash) ? document.querySelector(location.hash) : null;
  if (!row) return;
  const control = document.querySelector(`${location.hash}-edit`) || row.querySelector("input, button, a");
  if (control) setTimeout(() => control.focus(), 0);
});

// Filters: a bar over a page's cards ([data-filter] holds the cards' selector, a name field
// and a group select) and a field over a select's options ([data-filter-options]). Nothing
// goes to the server; without scripts the bars are not shown and everything stays visible.
const folded = (text) => text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().trim();
const filterTexts = new Map(); // what was typed, kept across the editor's morphing saves

const countText = (shown, total) => (shown === total ? "" : `${shown} sur ${total}`);

function filterCards(bar) {
  const text = folded(bar.querySelector("[data-filter-text]")?.value ?? "");
  const group = bar.querySelector("[data-filter-group]")?.value ?? "";
  const cards = Array.from(document.querySelectorAll(bar.dataset.filter));
  let shown = 0;
  for (const card of cards) {
    const match = folded(card.dataset.filterName ?? card.textContent).includes(text)
      && (!group || card.dataset.filterGroup === group);
    card.hidden = !match;
    if (match) shown += 1;
  }
  for (const section of document.querySelectorAll("[data-filter-section]")) {
    const inside = Array.from(section.querySelectorAll("[data-filter-name]"));
    if (inside.length) section.hidden = inside.every((card) => card.hidden);
  }
  const count = bar.querySelector("[data-filter-count]");
  if (count) count.textContent = shown ? countText(shown, cards.length) : "Aucun résultat";
  const empty = document.querySelector("[data-filter-empty]");
  if (empty) empty.hidden = shown > 0;
}

function filterOptions(field) {
  const select = document.querySelector(field.dataset.filterOptions);
  if (!select) return;
  const text = folded(field.value);
  const options = Array.from(select.options);
  let shown = 0;
  for (const option of options) {
    option.hidden = !folded(option.textContent).includes(text);
    if (!option.hidden) shown += 1;
  }
  for (const group of select.querySelectorAll("optgroup")) {
    group.hidden = Array.from(group.querySelectorAll("option")).every((option) => option.hidden);
  }
  // The choice follows the filter: the first option still shown.
  if (select.selectedOptions[0]?.hidden) {
    const first = options.find((option) => !option.hidden);
    if (first) select.value = first.value;
  }
  const count = document.getElementById(field.getAttribute("aria-describedby") ?? "");
  if (count) count.textContent = shown ? countText(shown, options.length) : "Aucun résultat";
}

function applyFilter(control) {
  const bar = control.closest("[data-filter]");
  if (bar) filterCards(bar);
  else if (control.matches("[data-filter-options]")) filterOptions(control);
}

const isFilter = (el) => el instanceof Element && el.matches("[data-filter] input, [data-filter] select, [data-filter-options]");

document.addEventListener("input", (event) => {
  if (!isFilter(event.target)) return;
  if (event.target.id) filterTexts.set(event.target.id, event.target.value);
  applyFilter(event.target);
});
// A filter never saves the form it sits in (the editor saves on `change`, Enter submits).
document.addEventListener("change", (event) => {
  if (!isFilter(event.target)) return;
  event.stopPropagation();
  applyFilter(event.target);
}, true);
document.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && isFilter(event.target)) event.preventDefault();
}, true);
// After a morphing save the server's page has every option shown and empty fields: the
// filter typed is put back and applied again.
document.addEventListener("htmx:afterSettle", () => {
  for (const field of document.querySelectorAll("[data-filter-options]")) {
    const typed = filterTexts.get(field.id);
    if (typed !== undefined && field.value !== typed) field.value = typed;
    if (field.value) filterOptions(field);
  }
});
// A field the browser refilled (back button) filters at once.
document.addEventListener("DOMContentLoaded", () => {
  for (const field of document.querySelectorAll("[data-filter] input, [data-filter] select, [data-filter-options]")) {
    if (field.value) applyFilter(field);
  }
});

// A notice (a save refused by a rate limit, app/security/answers.py) holds until a later
// answer is swapped in elsewhere: that save went through, the notice is then stale.
document.addEventListener("htmx:afterSettle", (event) => {
  const notice = document.getElementById("notice");
  if (notice && event.detail.target !== notice) notice.replaceChildren();
});

// A double click adds once: an « Ajouter » form already sent is not sent again (plain forms:
// until the next page; htmx adds: until the answer comes back). So is a form marked
// [data-once] (« Supprimer définitivement »: the second click would find the list gone).
// Bastos's creator adds with a plain submit whose button names the address (formaction).
const ADDS = "form.add-to-list, form[action$='/ajouter'], form[data-once]";
const isAdd = (form, submitter) => form.matches(ADDS) ||
  (submitter && (submitter.getAttribute("formaction") || "").endsWith("/ajouter"));
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !isAdd(form, event.submitter)) return;
  if (form.dataset.sent) {
    event.preventDefault();
    return;
  }
  form.dataset.sent = "1";
});
window.addEventListener("pageshow", () => {
  document.querySelectorAll("form[data-sent]").forEach((form) => { delete form.dataset.sent; });
  document.querySelectorAll("[data-adding]").forEach((elt) => { delete elt.dataset.adding; });
});
// htmx adds (the creators' « Ajouter à la liste », the editor's « Ajouter »): a click while
// one is on its way, or once it went through and the page is leaving, is stopped before
// htmx sees it.
const HTMX_ADDS = "button[hx-post$='/ajouter'], #editor button[name=action][value=add]";
document.addEventListener("click", (event) => {
  const button = event.target.closest ? event.target.closest(HTMX_ADDS) : null;
  if (!button) return;
  if (button.dataset.adding) {
    event.preventDefault();
    event.stopImmediatePropagation();
    return;
  }
  button.dataset.adding = "1";
}, true);
document.addEventListener("htmx:afterRequest", (event) => {
  // An add that went through leaves the page (HX-Redirect): no second one meanwhile.
  const xhr = event.detail.xhr;
  if (xhr && xhr.getResponseHeader("HX-Redirect")) return;
  const elt = event.detail.elt;
  const flagged = elt.matches && elt.matches("[data-adding]") ? [elt] : [];
  if (elt.querySelectorAll) flagged.push(...elt.querySelectorAll("[data-adding]"));
  flagged.forEach((button) => { delete button.dataset.adding; });
});

// Issue 26: the editor's buttons that move the rows (« Retirer », « Annuler ») do one thing
// on a double click. The second click of a double click (event.detail > 1) is dropped: the
// next row's « Retirer » has moved under the pointer since the first. So is a click while a
// removal or an undo is on its way: htmx would queue it and send it once the rows moved,
// with the same index, taking out another entry.
const SHIFTS_ROWS = "#editor button[name=action][value^='remove:'], #editor button[name=action][value=undo]";
const shiftsRows = (action) => typeof action === "string" && (action.startsWith("remove:") || action === "undo");
document.addEventListener("click", (event) => {
  const button = event.target.closest ? event.target.closest(SHIFTS_ROWS) : null;
  if (!button) return;
  const form = button.form;
  if (event.detail > 1 || (form && form.dataset.shifting)) {
    event.preventDefault();
    event.stopImmediatePropagation();
    return;
  }
  if (form) form.dataset.shifting = "1";
}, true);
document.addEventListener("htmx:afterRequest", (event) => {
  const form = event.detail.elt;
  const config = event.detail.requestConfig;
  const sent = config && config.formData ? config.formData.get("action") : null;
  if (form && form.dataset && form.dataset.shifting && shiftsRows(sent)) delete form.dataset.shifting;
});
window.addEventListener("pageshow", () => {
  document.querySelectorAll("form[data-shifting]").forEach((form) => { delete form.dataset.shifting; });
});

// A catalogue's list picker (macros.html list_picker, issue 26): the list chosen once for the
// page goes into every card's « Ajouter à la liste » form at once (without scripts, its
// « Choisir » reloads the page aimed at that list).
document.addEventListener("change", (event) => {
  const select = event.target;
  if (!(select instanceof HTMLSelectElement) || select.id !== "pick-roster") return;
  document.querySelectorAll("input[data-pick-roster]").forEach((input) => { input.value = select.value; });
});
document.addEventListener("DOMContentLoaded", () => {
  const select = document.getElementById("pick-roster");
  if (select) document.querySelectorAll("input[data-pick-roster]").forEach((input) => { input.value = select.value; });
});
