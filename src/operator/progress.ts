import cliProgress from 'cli-progress';

/**
 * Progress of long commands, drawn with cli-progress on a terminal and not at all elsewhere (logs
 * and pipes get the command's result lines only). Two shapes: a fraction with a label for commands
 * that know how far they are (backup, restore), and step counts for imports and exports.
 */
export type Progress = (fraction: number, label: string) => void;

export const noProgress: Progress = () => undefined;

export interface StepProgress {
  start(label: string, total: number): void;
  advance(by?: number): void;
  stop(): void;
}

type Output = NodeJS.WriteStream | { isTTY?: boolean } | undefined;

const onTerminal = (stream: Output): stream is NodeJS.WriteStream => Boolean(stream && (stream as NodeJS.WriteStream).isTTY);

function bar(stream: NodeJS.WriteStream, format: string): cliProgress.SingleBar {
  return new cliProgress.SingleBar({ format, stream, hideCursor: true, barsize: 30 }, cliProgress.Presets.shades_classic);
}

export function progressBar(stream: Output): { progress: Progress; done(): void } {
  if (!onTerminal(stream)) return { progress: noProgress, done: () => undefined };
  let current: cliProgress.SingleBar | null = null;
  return {
    progress(fraction, label) {
      const percent = Math.round(Math.max(0, Math.min(1, fraction)) * 100);
      if (!current) {
        current = bar(stream, '[{bar}] {percentage}% {label}');
        current.start(100, percent, { label });
      } else {
        current.update(percent, { label });
      }
    },
    done() {
      current?.stop();
      current = null;
    },
  };
}

export function progressFor(stream: Output): StepProgress {
  if (!onTerminal(stream)) return { start() {}, advance() {}, stop() {} };
  let current: cliProgress.SingleBar | null = null;
  return {
    start(label, total) {
      current?.stop();
      current = bar(stream, `${label.padEnd(14)} [{bar}] {value}/{total}`);
      current.start(total, 0);
    },
    advance(by = 1) {
      current?.increment(by);
    },
    stop() {
      current?.stop();
      current = null;
    },
  };
}
