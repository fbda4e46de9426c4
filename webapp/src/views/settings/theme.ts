import { getApp, useApp } from '../../state/store';

/**
 * Display settings the whole page follows: the colour scheme (a `data-theme` attribute that
 * styles/app.css honours; none means the system's), the font size and line height, high contrast
 * and fluid width (attributes style sheets may use). Applied at start and on every change, from
 * this tab or another.
 */
function apply(settings: Record<string, unknown>): void {
  const root = document.documentElement;
  const scheme = Number(settings.color_scheme ?? 1);
  if (scheme === 2) root.dataset.theme = 'dark';
  else if (scheme === 3) root.dataset.theme = 'light';
  else delete root.dataset.theme;
  const size = Number(settings.web_font_size_px);
  root.style.fontSize = size >= 12 && size <= 24 ? `${size}px` : '';
  const height = Number(settings.web_line_height_percent);
  root.style.lineHeight = height >= 100 && height <= 200 ? String(height / 100) : '';
  root.toggleAttribute('data-high-contrast', settings.high_contrast_mode === true);
  root.toggleAttribute('data-fluid-width', settings.fluid_layout_width === true);
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
