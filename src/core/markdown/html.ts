/** Small HTML builders: every attribute value and text is escaped here. */
export function escapeAttr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Text content needs only &, < and > escaped (Zulip leaves quotes as they are). */
export function escapeText(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** An element with attributes in alphabetical order, as Zulip serializes them. */
export function element(tag: string, attrs: Record<string, string | undefined>, text?: string): string {
  const rendered = Object.keys(attrs)
    .filter((name) => attrs[name] !== undefined)
    .sort()
    .map((name) => ` ${name}="${escapeAttr(attrs[name]!)}"`)
    .join('');
  return text === undefined ? `<${tag}${rendered}>` : `<${tag}${rendered}>${escapeText(text)}</${tag}>`;
}
