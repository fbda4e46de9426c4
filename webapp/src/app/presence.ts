import { graphQLClient } from '../api/instance';
import { UpdatePresenceMutation } from '../api/operations/people';
import { setApp } from '../state/store';
import type { PresenceRecord } from '../state/types';

/** As Zulip's web app: report every 60 s, "active" while the window has focus or saw input lately. */
const INTERVAL_MS = 60_000;
const IDLE_AFTER_MS = 5 * 60_000;

let lastInput = Date.now();
let lastUpdateId = -1;
let started = false;

async function report(newUserInput: boolean): Promise<void> {
  const active = document.hasFocus() || Date.now() - lastInput < IDLE_AFTER_MS;
  const result = await graphQLClient()
    .mutation(UpdatePresenceMutation, { status: active ? 'active' : 'idle', newUserInput, lastUpdateId })
    .toPromise();
  const snapshot = result.data?.updatePresence;
  if (!snapshot) return;
  lastUpdateId = snapshot.presenceLastUpdateId;
  if (snapshot.presences.length === 0) return;
  setApp((state) => {
    const presence = new Map(state.presence);
    for (const p of snapshot.presences) {
      const known = presence.get(p.userId);
      const next: PresenceRecord = {
        active_timestamp: Math.max(known?.active_timestamp ?? 0, p.activeTimestamp),
        idle_timestamp: Math.max(known?.idle_timestamp ?? 0, p.idleTimestamp),
      };
      presence.set(p.userId, next);
    }
    return { presence };
  });
}

export function startPresence(): void {
  if (started) return;
  started = true;
  let input = false;
  const onInput = () => {
    lastInput = Date.now();
    input = true;
  };
  for (const type of ['keydown', 'mousedown', 'touchstart']) window.addEventListener(type, onInput, { passive: true });
  // Coming back to the window reports at once, so that others see the user active without delay.
  window.addEventListener('focus', () => void report(true).catch(() => {}));
  void report(true).catch(() => {});
  setInterval(() => {
    void report(input).catch(() => {});
    input = false;
  }, INTERVAL_MS);
}
