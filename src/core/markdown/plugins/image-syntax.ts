import { element } from '../html';
import { inlineSyntaxImgTag, uploadPathIdOf } from '../image-preview';
import { relativeToRealm } from '../url';
import { envOf, Md } from './types';

/**
 * Markdown image syntax, `![alt text](url)`, rendered in place as Zulip does since feature level
 * 437: an uploaded image becomes an `inline-image` img showing its thumbnail (or the loading
 * placeholder until the thumbnails exist). Since feature level 467 the syntax shows uploaded
 * images only: anything else it names (a web address, an upload that is no image, another
 * scheme) is shown as a link with the alt text. Destinations the link rules refuse
 * (`javascript:`, `data:`) never reach here: markdown-it then leaves the syntax as text.
 */
export function imageSyntax(md: Md): void {
  md.renderer.rules.image = (tokens, idx, options, env) => {
    const token = tokens[idx];
    const ctx = envOf({ env }).ctx;
    const src = relativeToRealm(String(token.attrGet('src') ?? ''), ctx.realmUrl);
    const alt = md.renderer.renderInlineAsText(token.children ?? [], options, env);
    const pathId = uploadPathIdOf(src);
    const preview = pathId === null ? undefined : ctx.uploadPreview?.(pathId);
    if (preview) return inlineSyntaxImgTag(src, alt, preview);
    return element('a', { href: src }, alt === '' ? src : alt);
  };
}
