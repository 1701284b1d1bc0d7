// Caserne: the only hand-written script. Pages work without it; it adds copy and print buttons.
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
