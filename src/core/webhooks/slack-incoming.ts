import { errors } from '../../errors';
import { Field, payloadOf } from './payload';
import type { Integration, WebhookMessage, WebhookRequest } from './types';

/**
 * Slack-compatible incoming webhooks (Zulip's slack_incoming): what a tool that posts to Slack sends
 * (`text`, `attachments`, `blocks`, as JSON or as a form's `payload`) becomes one message, with
 * Slack's link and emphasis syntax turned into Markdown.
 */
const joinPieces = (pieces: string[]) =>
  pieces
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .join('\n\n');

const replaceLinks = (text: string) => text.replace(/<(\w+?:\/\/.*?)\|(.*?)>/g, '[$2]($1)');

function replaceFormatting(text: string): string {
  // Slack's *bold* is Markdown's **bold**, and its _emphasis_ Markdown's *emphasis*.
  let out = text.replace(/(^|[^\p{L}\p{N}_])\*(?!\s)([^*\n]+)(?<!\s)\*(?=[^\p{L}\p{N}_]|$)/gu, '$1**$2**');
  out = out.replace(/(^|[^\p{L}\p{N}_])_(?!\s)([^_\n]+)(?<!\s)_(?=[^\p{L}\p{N}_]|$)/gu, '$1*$2*');
  return out;
}

function textOf(field: Field | null): string {
  return field ? field.get('text').str() : '';
}

function renderBlock(block: Field): string {
  const type = block.get('type').str();
  if (type === 'divider') return '----';
  if (type === 'header') return `## ${textOf(block.opt('text'))}`;
  if (type === 'image') return `[${block.opt('alt_text')?.str() ?? ''}](${block.get('image_url').str()})`;
  if (type === 'context')
    return block
      .get('elements')
      .list()
      .map((e) => (e.has('text') ? e.get('text').str() : ''))
      .filter(Boolean)
      .join(' ');
  if (type === 'section') {
    const pieces = [textOf(block.opt('text'))];
    const fields = block.opt('fields');
    if (fields)
      pieces.push(
        fields
          .list()
          .map((f) => f.get('text').str())
          .join('\n'),
      );
    const accessory = block.opt('accessory');
    if (accessory && accessory.opt('type')?.str() === 'image') pieces.push(`[${accessory.opt('alt_text')?.str() ?? ''}](${accessory.get('image_url').str()})`);
    return joinPieces(pieces);
  }
  return '';
}

function renderAttachment(attachment: Field): string {
  const pieces: string[] = [];
  const title = attachment.opt('title');
  if (title?.truthy()) {
    const link = attachment.opt('title_link');
    pieces.push(link?.truthy() ? `## [${title.str()}](${link.str()})` : `## ${title.str()}`);
  }
  for (const key of ['pretext', 'text']) {
    const value = attachment.opt(key);
    if (value?.truthy()) pieces.push(value.str());
  }
  const fields = attachment.opt('fields');
  if (fields) {
    const lines: string[] = [];
    for (const field of fields.list()) {
      const t = field.opt('title');
      const v = field.opt('value');
      if (t?.truthy() && v?.truthy()) lines.push(`*${t.str()}*: ${v.str()}`);
      else if (t?.truthy()) lines.push(t.str());
      else if (v?.truthy()) lines.push(v.str());
    }
    pieces.push(lines.join('\n'));
  }
  const blocks = attachment.opt('blocks');
  if (blocks?.truthy()) pieces.push(...blocks.list().map(renderBlock));
  const image = attachment.opt('image_url');
  if (image?.truthy()) pieces.push(`[](${image.str()})`);
  const footer = attachment.opt('footer');
  if (footer?.truthy()) pieces.push(footer.str());
  const ts = attachment.opt('ts');
  if (ts?.truthy()) pieces.push(`<time:${ts.int()}>`);
  return joinPieces(pieces);
}

export const slackIncoming: Integration = {
  name: 'slack_incoming',
  displayName: 'SlackIncoming',
  allEventTypes: null,
  handle({ payload, params }: WebhookRequest): WebhookMessage[] {
    let raw = payload;
    // Slack also takes payload=<json> as a form field (or in the URL).
    if (raw === undefined) {
      if (params.payload === undefined) throw errors.missing('payload');
      try {
        raw = JSON.parse(params.payload);
      } catch {
        throw errors.badRequest('Malformed JSON');
      }
    }
    const p = payloadOf(raw);
    let topic = params.topic;
    const channel = p.opt('channel');
    if (topic === undefined && channel) topic = channel.str().replace(/^[@#]/, '');
    const pieces: string[] = [];
    const blocks = p.opt('blocks');
    if (blocks?.truthy()) pieces.push(...blocks.list().map(renderBlock));
    const attachments = p.opt('attachments');
    if (attachments?.truthy()) pieces.push(...attachments.list().map(renderAttachment));
    const text = p.opt('text');
    if (text?.truthy()) pieces.push(text.str());
    const body = joinPieces(pieces);
    if (body === '') return [];
    return [{ topic: topic ?? '(no topic)', body: replaceFormatting(replaceLinks(body).trim()) }];
  },
};
