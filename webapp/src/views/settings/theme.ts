import { getApp, useApp } from '../../state/store';

/**
 * Display settings the whole page follows: the colour scheme (a `data-theme` attribute that
 * styles/app.css honours; none means the system's), the message area's font size and line height,
 * high contrast and fluid width (attributes style sheets may use). Applied at start and on every change, from
 * this tab or another.
 */
function apply(settings: Record<string, unknown>): void {
  const root = document.documentElement;
  const scheme = Number(settings.color_scheme ?? 1);
  if (scheme === 2) root.dataset.theme = 'dark';
  else if (scheme === 3) root.dataset.theme = 'light';
  else delete root.dataset.theme;
  // As in Zulip, the font size and line spacing are the message area's (styles/settings.css uses them).
  const size = Number(settings.web_font_size_px);
  if (size >= 10 && size <= 30) root.style.setProperty('--message-font-size', `${size}px`);
  else root.style.removeProperty('--message-font-size');
  const height = Number(settings.web_line_height_percent);
  if (height >= 100 && height <= 300) root.style.setProperty('--message-line-height', String(height / 100));
  else root.style.removeProperty('--message-line-height');
  root.toggleAttribute('data-high-contrast', settings.high_contrast_mode === true);
  root.toggleAttribute('data-fluid-width', settings.fluid_layout_width === true);
  // Only the "text" set differs here: the page draws emoji with the system's font whatever the image set.
  root.dataset.emojiset = String(settings.emojiset ?? 'google');
  // The interface is in English only; the page still says which language the user reads (for screen readers).
  if (typeof settings.default_language === 'string') root.lang = settings.default_language.replace('_', '-');
}

let started = false;

export function startTheme(): void {
  if (started) return;
  started = true;
  apply(getApp().settings);
  useApp.subscribe((state, previous) => {
    if (state.settings !== previous.settings) apply(state.settings);
  });
}
