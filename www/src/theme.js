// Light or dark theme and projector mode (large type, strong lines): the user's choices,
// kept across visits.

const $ = (id) => document.getElementById(id);

/** Applies the kept choices (or the system's colour scheme) to the page and its buttons. */
export function applyTheme() {
  const saved = localStorage.getItem('warpbound-theme');
  const dark = saved ? saved === 'dark' : matchMedia('(prefers-color-scheme: dark)').matches;
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
  const projector = localStorage.getItem('warpbound-projector') === 'on';
  document.body.classList.toggle('projector', projector);
  // Synchronously: the buttons' pressed state changes with the click that changed it (a
  // screen reader announces it at once, and a test reading it right after the click sees it).
  $('theme').setAttribute('aria-pressed', String(dark));
  $('projector').setAttribute('aria-pressed', String(projector));
}

export function toggleTheme() {
  const dark = document.documentElement.dataset.theme !== 'dark';
  localStorage.setItem('warpbound-theme', dark ? 'dark' : 'light');
  applyTheme();
}

export function toggleProjector() {
  const on = !document.body.classList.contains('projector');
  localStorage.setItem('warpbound-projector', on ? 'on' : 'off');
  applyTheme();
}
