import cliProgress from 'cli-progress';

/**
 * A step counter for long imports and exports: a progress bar on a terminal, nothing otherwise
 * (logs stay clean).
 */
export interface StepProgress {
  start(label: string, total: number): void;
  advance(by?: number): void;
  stop(): void;
}

export function progressFor(stream: NodeJS.WriteStream | { isTTY?: boolean } | undefined): StepProgress {
  if (!stream || !(stream as NodeJS.WriteStream).isTTY) return { start() {}, advance() {}, stop() {} };
  let bar: cliProgress.SingleBar | null = null;
  return {
    start(label, total) {
      bar?.stop();
      bar = new cliProgress.SingleBar(
        { format: `${label.padEnd(14)} [{bar}] {value}/{total}`, stream: stream as NodeJS.WriteStream, hideCursor: true },
        cliProgress.Presets.shades_classic,
      );
      bar.start(total, 0);
    },
    advance(by = 1) {
      bar?.increment(by);
    },
    stop() {
      bar?.stop();
      bar = null;
    },
  };
}
