import type { RenderContext } from './context';

/** Who a message mentions; the messages feature turns this into per-recipient flags. */
export interface MentionSummary {
  /** Users mentioned by name, loudly: they get the `mentioned` flag. */
  userIds: number[];
  /** Users mentioned silently (`@_**Name**`, inside quotes, or deactivated): no flag. */
  silentUserIds: number[];
  /** User groups mentioned loudly: their members get the `mentioned` flag. */
  groupIds: number[];
  /** `@**all**`, `@**everyone**`, `@**channel**` or `@**stream**`, not silent. */
  streamWildcard: boolean;
  /** `@**topic**`, not silent. */
  topicWildcard: boolean;
}

/** Per-render state shared by the markdown-it rules through `env`. */
export interface RenderEnv {
  ctx: RenderContext;
  mentionsEnabled: boolean;
  /** Nesting of quotes around the text being parsed; mentions in quotes are silent. */
  quoteDepth: number;
  /** Set on each inline block while it is parsed. */
  inQuote: boolean;
  found: {
    userIds: Set<number>;
    silentUserIds: Set<number>;
    groupIds: Set<number>;
    streamWildcard: boolean;
    topicWildcard: boolean;
  };
}

export function newEnv(ctx: RenderContext, mentionsEnabled: boolean): RenderEnv {
  return {
    ctx,
    mentionsEnabled,
    quoteDepth: 0,
    inQuote: false,
    found: { userIds: new Set(), silentUserIds: new Set(), groupIds: new Set(), streamWildcard: false, topicWildcard: false },
  };
}

export function summarize(env: RenderEnv): MentionSummary {
  const { found } = env;
  return {
    userIds: [...found.userIds].sort((a, b) => a - b),
    silentUserIds: [...found.silentUserIds].filter((id) => !found.userIds.has(id)).sort((a, b) => a - b),
    groupIds: [...found.groupIds].sort((a, b) => a - b),
    streamWildcard: found.streamWildcard,
    topicWildcard: found.topicWildcard,
  };
}
