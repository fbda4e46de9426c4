import type MarkdownIt from 'markdown-it';
import type { RenderEnv } from '../env';

export type Md = MarkdownIt.MarkdownIt;
export type StateInline = MarkdownIt.StateInline;
export type StateCore = MarkdownIt.StateCore;
export type Token = MarkdownIt.Token;

/** The render state a rule runs with (set by `render.ts` for every render). */
export function envOf(state: { env: unknown }): RenderEnv {
  return state.env as RenderEnv;
}
