/**
 * Progress of a long command (backup, restore): a bar redrawn in place on a terminal, nothing
 * elsewhere (logs and pipes get the command's result lines only).
 */
export type Progress = (fraction: number, label: string) => void;

export const noProgress: Progress = () => undefined;

const WIDTH = 30;

export function progressBar(stream: { write(text: string): unknown; isTTY?: boolean }): { progress: Progress; done(): void } {
  if (!stream.isTTY) return { progress: noProgress, done: () => undefined };
  let drawn = false;
  return {
    progress(fraction, label) {
      const clamped = Math.max(0, Math.min(1, fraction));
      const filled = Math.round(clamped * WIDTH);
      stream.write(`\r[${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${String(Math.round(clamped * 100)).padStart(3)}% ${label.padEnd(30).slice(0, 30)}`);
      drawn = true;
    },
    done() {
      if (drawn) stream.write('\n');
      drawn = false;
    },
  };
}
