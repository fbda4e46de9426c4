import type { LogLevel } from '../../src/config';
import { configureLog } from '../../src/log';

/** Captures the log's lines (JSON) from now until `restore()`, which silences it again as tests run. */
export function captureLog(level: LogLevel = 'info') {
  const lines: string[] = [];
  configureLog(level, { write: (line: string) => void lines.push(line) });
  return {
    lines,
    records: () => lines.map((line) => JSON.parse(line) as Record<string, any>),
    restore: () => void configureLog('silent'),
  };
}
