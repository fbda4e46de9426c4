/**
 * Whether a result would serialize to more than `maxBytes` of JSON, told without serializing it:
 * the walk counts strings, numbers and punctuation (escapes aside, so it errs low) and stops as soon
 * as the bound is passed. Replies are bounded so that no result builds a string too large to send.
 */
export function exceedsReplySize(value: unknown, maxBytes: number): boolean {
  let left = maxBytes;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') left -= Buffer.byteLength(item) + 3;
    else if (item === null || typeof item !== 'object') left -= 8;
    else if (Array.isArray(item)) {
      left -= 2 + item.length;
      for (const element of item) stack.push(element);
    } else {
      for (const [key, element] of Object.entries(item)) {
        left -= key.length + 4;
        stack.push(element);
      }
    }
    if (left < 0) return true;
  }
  return false;
}

// A subscription answer shared by many subscribers (src/graphql-ws/shared-execution.ts) is measured once.
const measured = new WeakMap<object, { maxBytes: number; over: boolean }>();

/** exceedsReplySize of a result's data, remembered for that result object. */
export function resultExceedsReplySize(result: { data?: unknown }, maxBytes: number): boolean {
  let found = measured.get(result);
  if (found?.maxBytes !== maxBytes) measured.set(result, (found = { maxBytes, over: exceedsReplySize(result.data, maxBytes) }));
  return found.over;
}

export const replyTooLargeMessage = (maxBytes: number) => `Reply too large: more than ${maxBytes} bytes; ask for fewer items or fields`;
