/** One sample of the Prometheus text exposition format. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE_RE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+-?\d+)?$/;
const LABEL_RE = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Parses the exposition text strictly: a line that is neither a comment nor a sample throws. */
export function parsePrometheus(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue;
    const match = SAMPLE_RE.exec(line);
    if (!match) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(LABEL_RE)) labels[key] = value.replace(/\\(.)/g, (_, c) => (c === 'n' ? '\n' : c));
    // As Prometheus reads values (Go's ParseFloat): NaN and Inf in any case (prom-client prints "Nan").
    const text = match[3].toLowerCase();
    const value = text === '+inf' || text === 'inf' ? Infinity : text === '-inf' ? -Infinity : Number(match[3]);
    if (Number.isNaN(value) && text !== 'nan') throw new Error(`bad sample value: ${line}`);
    samples.push({ name: match[1], labels, value });
  }
  return samples;
}
