import http from 'node:http';

/**
 * Sends a generated body of `size` bytes (never held in memory: one chunk is written again and
 * again) and reports the server's answer as soon as it arrives, with how much of the body had been
 * written by then and in all. The server may close the connection while the body is still going
 * out; that ends the upload, not the test.
 */
export interface StreamedAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Record<string, any>;
  /** Milliseconds from the first byte sent to the answer's headers. */
  answeredAfterMs: number;
  /** Body bytes the client managed to hand to the connection in all. */
  bytesWritten: number;
}

export interface StreamedRequest {
  url: string;
  headers: Record<string, string>;
  /** Body bytes to send after `prefix` and before `suffix`. */
  size: number;
  prefix?: string;
  suffix?: string;
  /** Declare the length (Content-Length) or send in chunks. */
  declareLength: boolean;
  method?: string;
}

const CHUNK = Buffer.alloc(64 * 1024, 'x');

export function streamBody(options: StreamedRequest): Promise<StreamedAnswer> {
  const prefix = Buffer.from(options.prefix ?? '');
  const suffix = Buffer.from(options.suffix ?? '');
  const total = prefix.length + options.size + suffix.length;
  const headers = { ...options.headers, ...(options.declareLength ? { 'content-length': String(total) } : {}) };
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let written = 0;
    let stopped = false;
    let answer: Omit<StreamedAnswer, 'bytesWritten'> | null = null;
    const req = http.request(options.url, { method: options.method ?? 'POST', headers, agent: false });
    const finish = () => {
      if (stopped) return;
      stopped = true;
      if (answer) resolve({ ...answer, bytesWritten: written });
      else reject(new Error(`no answer after ${written} bytes`));
    };
    req.on('response', (res) => {
      const answeredAfterMs = Date.now() - started;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        answer = { status: res.statusCode!, headers: res.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')), answeredAfterMs };
        req.destroy();
        finish();
      });
      res.on('error', finish);
    });
    req.on('error', () => {
      // A closed connection while writing; the answer, if it came, is already recorded.
      if (answer) finish();
    });
    req.on('close', () => setTimeout(finish, 50));
    const write = (chunk: Buffer) => {
      written += chunk.length;
      return req.write(chunk);
    };
    let remaining = options.size;
    const pump = () => {
      while (!stopped && !req.destroyed && remaining > 0) {
        const piece = remaining >= CHUNK.length ? CHUNK : CHUNK.subarray(0, remaining);
        remaining -= piece.length;
        if (!write(piece)) {
          req.once('drain', pump);
          return;
        }
      }
      if (!stopped && !req.destroyed && remaining === 0) {
        write(suffix);
        req.end();
      }
    };
    write(prefix);
    pump();
  });
}

/** A multipart body around one file of `size` bytes. */
export function multipartFile(size: number, boundary = 'parley-boundary'): Pick<StreamedRequest, 'prefix' | 'suffix' | 'size' | 'headers'> {
  return {
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    prefix: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`,
    suffix: `\r\n--${boundary}--\r\n`,
    size,
  };
}
