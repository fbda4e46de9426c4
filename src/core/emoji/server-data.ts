import crypto from 'node:crypto';
import { unicodeEmojiData } from './data';

/**
 * The file POST /register's `server_emoji_data_url` names: `{"code_to_names": {code: [canonical
 * name, ...aliases]}}` for every Unicode emoji this server accepts. Its name carries a digest of
 * its content, so clients may cache it forever; it changes only with the emoji data.
 */
export interface ServerEmojiFile {
  fileName: string;
  body: Buffer;
}

let built: ServerEmojiFile | null = null;

export function serverEmojiFile(): ServerEmojiFile {
  built ??= build();
  return built;
}

function build(): ServerEmojiFile {
  const { nameToCode, codeToName } = unicodeEmojiData();
  const codeToNames: Record<string, string[]> = {};
  for (const [code, canonical] of codeToName) codeToNames[code] = [canonical];
  for (const [name, code] of nameToCode) {
    const names = codeToNames[code];
    if (names && names[0] !== name) names.push(name);
  }
  const body = Buffer.from(JSON.stringify({ code_to_names: codeToNames }));
  const digest = crypto.createHash('sha256').update(body).digest('hex').slice(0, 20);
  return { fileName: `emoji_api.${digest}.json`, body };
}

/** Where the file is served, under the server's base URL. */
export const SERVER_EMOJI_DIRECTORY = '/static/generated/emoji';

export function serverEmojiDataUrl(externalUrl: string): string {
  return `${externalUrl}${SERVER_EMOJI_DIRECTORY}/${serverEmojiFile().fileName}`;
}
