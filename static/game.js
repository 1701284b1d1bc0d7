// The mode partie (/s/{code}/partie, /r/{id}/partie): wounds, states, activations, orders
// and the turn, kept in localStorage under the list's key. Nothing is sent to the server.
(() => {
  const root = document.getElementById("game");
  if (!root) return;
  const KEY = `caserne-partie:${root.dataset.gameKey}`;
  const blank = () => ({ turn: 1, figures: {}, spent: {} });
  let state;
  try {
    state = JSON.parse(localStorage.getItem(KEY)) || blank();
  } catch {
    state = blank();
  }
  const save = () => {
    try { localStorage.setItem(KEY, JSON.stringify(state)); } catch { /* private mode: this tab only */ }
  };
  const figure = (id) => (state.figures[id] ??= { counters: {}, state: 0, activated: false });
  const clamp = (value, max) => Math.max(0, Math.min(max, value));

  function isOut(element, data) {
    if (element.dataset.grouped) return false;
    for (const counter of element.querySelectorAll(".counter[data-out]")) {
      if ((data.counters[counter.dataset.counter] || 0) >= Number(counter.dataset.max)) return true;
    }
    const chosen = element.querySelector(`[data-state="${data.state}"]`);
    return Boolean(chosen && chosen.dataset.out);
  }

  function render() {
    root.querySelector("#turn").textContent = state.turn;
    let out = 0, points = 0, score = 0, rout = 0;
    for (const element of root.querySelectorAll(".figure")) {
      const data = figure(element.dataset.figure);
      for (const counter of element.querySelectorAll(".counter")) {
        counter.querySelector("output").textContent = data.counters[counter.dataset.counter] || 0;
      }
      for (const button of element.querySelectorAll("[data-state]")) {
        button.setAttribute("aria-pressed", String(Number(button.dataset.state) === data.state));
      }
      element.querySelector("[data-activated]").checked = data.activated;
      const points_each = Number(element.dataset.points), level = Number(element.dataset.level);
      if (element.dataset.grouped) {
        const lost = data.counters.lost || 0;
        out += lost; points += lost * points_each; score += lost * level; rout += lost;
        continue;
      }
      const gone = isOut(element, data);
      element.classList.toggle("out", gone);
      element.querySelector(".out-flag").hidden = !gone;
      if (gone) { out += 1; points += points_each; score += level; }
      if (gone || data.state === 1) rout += 1;
    }
    root.querySelector("#out-count").textContent = out;
    const set = (id, value) => { const el = root.querySelector(id); if (el) el.textContent = value; };
    set("#points-lost", points);
    set("#score", score);
    set("#rout-count", rout);
    const alert = root.querySelector("#rout-alert");
    if (alert) alert.hidden = rout < Number(root.dataset.rout);
    for (const pool of root.querySelectorAll("[data-pool]")) {
      const spent = state.spent[pool.dataset.pool] || 0;
      pool.querySelector("output").textContent = Number(pool.dataset.max) - spent;
    }
  }

  root.addEventListener("click", (event) => {
    const target = event.target.closest("button");
    if (!target) return;
    const element = target.closest(".figure");
    if (target.dataset.step && element) {
      const counter = target.closest(".counter");
      const data = figure(element.dataset.figure);
      const name = counter.dataset.counter;
      data.counters[name] = clamp((data.counters[name] || 0) + Number(target.dataset.step), Number(counter.dataset.max));
    } else if (target.dataset.state && element) {
      figure(element.dataset.figure).state = Number(target.dataset.state);
    } else if (target.dataset.spend) {
      const pool = target.closest("[data-pool]");
      const id = pool.dataset.pool;
      state.spent[id] = clamp((state.spent[id] || 0) + Number(target.dataset.spend), Number(pool.dataset.max));
    } else if (target.id === "next-turn") {
      state.turn += 1;
      state.spent = {};
      for (const data of Object.values(state.figures)) data.activated = false;
    } else if (target.id === "new-game") {
      if (!window.confirm("Effacer cette partie et en commencer une nouvelle ?")) return;
      state = blank();
    } else {
      return;
    }
    save();
    render();
  });
  root.addEventListener("change", (event) => {
    const box = event.target.closest("[data-activated]");
    if (!box) return;
    figure(box.closest(".figure").dataset.figure).activated = box.checked;
    save();
    render();
  });
  render();
})();
