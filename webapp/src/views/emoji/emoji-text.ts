/**
 * The "text" emoji set (Zulip's `emojiset: "text"`) shows custom and server emoji images as their
 * `:name:`. Each image gets its alt text beside it once; styles/preferences.css shows either the
 * image or the text, after the `data-emojiset` attribute of the page, so a change of the setting
 * needs no redraw.
 */
export function markEmojiImages(root: HTMLElement): void {
  for (const img of root.querySelectorAll<HTMLImageElement>('img.emoji')) {
    if (img.nextElementSibling?.classList.contains('emoji-text-name')) continue;
    const text = document.createElement('span');
    text.className = 'emoji-text-name';
    text.textContent = img.alt;
    img.after(text);
  }
}
