import net from 'node:net';
import { performance } from 'node:perf_hooks';

export interface RawResponse {
  /** performance.now() when the response's last byte had been read, before anything else. */
  at: number;
  status: number;
  text: string;
}

const HEADER_END = Buffer.from('\r\n\r\n');
const LAST_CHUNK = Buffer.from('\r\n0\r\n\r\n');

/**
 * One keep-alive HTTP/1.1 connection carrying one GET at a time, for latency scenarios. node:http's
 * client costs about 0.1 ms of the harness's CPU per response; with 1,000 responses arriving at once
 * that queue alone would dominate a p99 of the server's delivery. This client does no more than find
 * the end of the response (Content-Length, or the last chunk), so the figures are the server's.
 */
export class RawConnection {
  private socket: net.Socket | null = null;
  private received: Buffer[] = [];
  private pending: { resolve: (r: RawResponse) => void; reject: (e: Error) => void } | null = null;

  constructor(private readonly url: URL) {}

  static to(url: string): RawConnection {
    return new RawConnection(new URL(url));
  }

  get(pathAndQuery: string, authorization: string | null): Promise<RawResponse> {
    if (this.pending) return Promise.reject(new Error('a request is already in flight on this connection'));
    const socket = this.connect();
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      const auth = authorization ? `Authorization: ${authorization}\r\n` : '';
      socket.write(`GET ${pathAndQuery} HTTP/1.1\r\nHost: ${this.url.host}\r\n${auth}\r\n`);
    });
  }

  close(): void {
    this.socket?.destroy();
    this.socket = null;
  }

  private connect(): net.Socket {
    if (this.socket) return this.socket;
    const socket = net.connect(Number(this.url.port), this.url.hostname);
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    const fail = (error: Error) => {
      this.socket = null;
      this.received = [];
      const pending = this.pending;
      this.pending = null;
      pending?.reject(error);
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('connection closed')));
    this.socket = socket;
    return socket;
  }

  private onData(chunk: Buffer): void {
    this.received.push(chunk);
    const data = this.received.length === 1 ? chunk : Buffer.concat(this.received);
    const headerEnd = data.indexOf(HEADER_END);
    if (headerEnd < 0) return;
    const head = data.toString('latin1', 0, headerEnd);
    const bodyStart = headerEnd + HEADER_END.length;
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    let complete: boolean;
    let body: Buffer;
    if (length) {
      complete = data.length >= bodyStart + Number(length[1]);
      body = data.subarray(bodyStart, bodyStart + Number(length[1]));
    } else {
      // Chunked: complete at the last chunk; the body is only needed for its text, decoded below.
      complete = data.length >= bodyStart + LAST_CHUNK.length - 2 && data.subarray(data.length - LAST_CHUNK.length).equals(LAST_CHUNK);
      body = data.subarray(bodyStart);
    }
    if (!complete) {
      this.received = [data];
      return;
    }
    const at = performance.now();
    this.received = [];
    const pending = this.pending;
    this.pending = null;
    const status = Number(head.slice(9, 12));
    const text = length ? body.toString('utf8') : dechunk(body);
    pending?.resolve({ at, status, text });
  }
}

function dechunk(body: Buffer): string {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = body.indexOf('\r\n', at);
    const size = parseInt(body.toString('latin1', at, lineEnd), 16);
    if (!size) break;
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts).toString('utf8');
}
