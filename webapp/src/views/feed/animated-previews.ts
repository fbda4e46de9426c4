import { getApp } from '../../state/store';

/**
 * Zulip's web_animate_image_previews ("always", "on_hover", "never"): an animated image's preview
 * (`img[data-animated="true"]`, whose thumbnail is `…-anim.webp`) plays always, while the pointer is
 * over it, or never. A still preview uses the still thumbnail the server makes beside the animated one.
 */
const ANIMATED = 'img[data-animated="true"]';
const stillSrc = (src: string) => src.replace(/-anim(\.\w+)$/, '$1');
const animatedSrc = (img: HTMLImageElement) => img.dataset.animatedSrc ?? img.getAttribute('src') ?? '';

function show(img: HTMLImageElement, playing: boolean): void {
  const animated = animatedSrc(img);
  if (!/-anim\.\w+$/.test(animated)) return;
  img.dataset.animatedSrc = animated;
  const src = playing ? animated : stillSrc(animated);
  if (img.getAttribute('src') !== src) img.setAttribute('src', src);
  img.parentElement?.classList.toggle('animated-paused', !playing);
}

const policy = () => String(getApp().settings.web_animate_image_previews ?? 'on_hover');

/** Shows the message's animated previews as the setting says (called on each drawing and change). */
export function applyAnimatedPreviews(root: HTMLElement): void {
  const playing = policy() === 'always';
  for (const img of root.querySelectorAll<HTMLImageElement>(ANIMATED)) show(img, playing);
  startHover();
}

let started = false;
function startHover(): void {
  if (started) return;
  started = true;
  const onPointer = (event: Event, over: boolean) => {
    const img = (event.target as Element | null)?.closest?.<HTMLImageElement>(ANIMATED);
    if (img && policy() === 'on_hover') show(img, over);
  };
  document.addEventListener('mouseover', (e) => onPointer(e, true));
  document.addEventListener('mouseout', (e) => onPointer(e, false));
}
