import { type MouseEvent, useLayoutEffect, useMemo, useRef } from 'react';
import { navigate } from '../../app/route';
import { useApp } from '../../state/store';
import { unicodeFromCode } from '../emoji/glyph';
import { markEmojiImages } from '../emoji/emoji-text';
import { applyAnimatedPreviews } from './animated-previews';

/** A `#narrow/...` link of this server (relative, `/#narrow`, or absolute on this origin), as an in-app hash. */
export function inAppHash(anchor: HTMLAnchorElement): string | null {
  const href = anchor.getAttribute('href');
  if (!href) return null;
  if (href.startsWith('#')) return href.startsWith('#narrow') ? href : null;
  let url: URL;
  try {
    url = new URL(href, window.location.href);
  } catch {
    return null;
  }
  if (url.origin !== window.location.origin || url.pathname !== '/' || !url.hash.startsWith('#narrow')) return null;
  return url.hash;
}

/**
 * Adjusts the server's HTML once rendered: Unicode emoji spans carry only `:name:` (Zulip draws them
 * from a sprite sheet), so they get their character; mentions of the user are marked for highlighting.
 */
function polish(root: HTMLElement, me: number, myGroups: Set<string>, emojiAsText: boolean, twentyFour: boolean): void {
  for (const span of root.querySelectorAll<HTMLElement>('span.emoji')) {
    const code = [...span.classList].find((c) => c.startsWith('emoji-'))?.slice(6);
    // The "text" emoji set shows the emoji's :name: (its title, with Zulip's spaces for underscores).
    const glyph = emojiAsText ? `:${span.title.replace(/ /g, '_')}:` : code ? unicodeFromCode(code) : '';
    if (glyph && span.textContent !== glyph) span.textContent = glyph;
  }
  markEmojiImages(root);
  for (const mention of root.querySelectorAll<HTMLElement>('.user-mention, .user-group-mention, .topic-mention')) {
    const user = mention.dataset.userId;
    const group = mention.dataset.userGroupId;
    const mine = user === String(me) || user === '*' || mention.classList.contains('topic-mention') || (group !== undefined && myGroups.has(group));
    mention.classList.toggle('user-mention-me', mine && !mention.classList.contains('silent'));
  }
  for (const time of root.querySelectorAll<HTMLTimeElement>('time[datetime]')) {
    const date = new Date(time.dateTime);
    if (!Number.isNaN(date.getTime())) time.textContent = date.toLocaleString([], { dateStyle: 'medium', timeStyle: 'short', hour12: !twentyFour });
  }
}

/**
 * The server marks an image whose thumbnail is still being made with Zulip's loading picture, a file
 * of Zulip's own static assets that this server does not serve; the feed draws a spinner instead
 * (the HTML is replaced when the thumbnail is ready). Only the attribute as the server writes it
 * matches: message text inside the HTML is escaped.
 */
const LOADING_SRC = 'src="/static/images/loading/loader-black.svg"';
const SPINNER_SRC = `src="data:image/svg+xml,${encodeURIComponent(
  "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' width='24' height='24'><circle cx='12' cy='12' r='9' fill='none' stroke='#8a93a0' stroke-width='3' stroke-dasharray='42 14'><animateTransform attributeName='transform' type='rotate' from='0 12 12' to='360 12 12' dur='1s' repeatCount='indefinite'/></circle></svg>",
)}"`;

/** A message's rendered HTML (or a search result's, with its matches marked). */
export function MessageContent({ html }: { html: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const shown = useMemo(() => (html.includes(LOADING_SRC) ? html.replaceAll(LOADING_SRC, SPINNER_SRC) : html), [html]);
  const me = useApp((s) => s.me);
  const groups = useApp((s) => s.userGroups);
  const emojiAsText = useApp((s) => s.settings.emojiset === 'text');
  const animation = useApp((s) => s.settings.web_animate_image_previews);
  const twentyFour = useApp((s) => s.settings.twenty_four_hour_time === true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: new HTML is new elements to adjust.
  useLayoutEffect(() => {
    if (!ref.current) return;
    const mine = new Set<string>();
    for (const g of groups.values()) if (g.members.includes(me)) mine.add(String(g.id));
    polish(ref.current, me, mine, emojiAsText, twentyFour);
    applyAnimatedPreviews(ref.current);
  }, [html, me, groups, emojiAsText, animation, twentyFour]);
  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const anchor = (event.target as HTMLElement).closest('a');
    if (!anchor) return;
    const hash = inAppHash(anchor);
    if (hash === null) return;
    event.preventDefault();
    navigate(hash);
  };
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/noStaticElementInteractions: the links inside take the keyboard; this only routes their clicks
    // biome-ignore lint/security/noDangerouslySetInnerHtml: the server's sanitized HTML; the page's policy runs no inline script
    <div ref={ref} className="message-content" onClick={onClick} dangerouslySetInnerHTML={{ __html: shown }} />
  );
}
