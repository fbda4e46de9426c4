import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';
import { numberOption, type Scenario } from '../scenario';

/**
 * Throughput of file uploads (POST /api/v1/user_uploads, multipart) and downloads
 * (GET /user_uploads/..., Basic credentials) of one file, against writing and reading the same
 * bytes with node:fs in the same run (a temporary directory on the same disk as the server's
 * DATA_DIR). One request at a time, over one keep-alive connection; rounds alternate the two sides
 * so both see the same load from elsewhere. The ratio is Parley's throughput over node:fs's.
 */
const MIB = 1024 * 1024;

function multipart(data: Buffer, fileName: string): { body: Buffer; type: string } {
  const boundary = `----parley-bench-${crypto.randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { body: Buffer.concat([head, data, tail]), type: `multipart/form-data; boundary=${boundary}` };
}

function request(url: string, options: http.RequestOptions, body?: Buffer): Promise<{ status: number; text: string; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, options, (res) => {
      let bytes = 0;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (chunks.length < 4) chunks.push(chunk);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8').slice(0, 300), bytes }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const seconds = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;

export const scenario: Scenario = {
  name: 'uploads',
  description: 'upload and download throughput of one file, against node:fs writing and reading the same bytes',
  options: { 'file-mib': 'file size in MiB (default 5)', transfers: 'uploads and downloads per round (default 10)' },
  async run(ctx) {
    const size = numberOption(ctx, 'file-mib', 5) * MIB;
    const transfers = numberOption(ctx, 'transfers', 10);
    const data = crypto.randomBytes(size);
    const { body, type } = multipart(data, 'bench.bin');
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const parley = await ctx.startParley();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-fs-'));
    try {
      const auth = parley.ownerAuth;
      const upload = async () => {
        const res = await request(
          `${parley.url}/api/v1/user_uploads`,
          { method: 'POST', agent, headers: { authorization: auth, 'content-type': type, 'content-length': body.length } },
          body,
        );
        if (res.status !== 200) throw new Error(`upload answered ${res.status}: ${res.text}`);
        return JSON.parse(res.text).url as string;
      };
      const download = async (url: string) => {
        const res = await request(`${parley.url}${url}`, { method: 'GET', agent, headers: { authorization: auth } });
        if (res.status !== 200 || res.bytes !== size) throw new Error(`download answered ${res.status} with ${res.bytes} bytes`);
      };
      let n = 0;
      const fsWrite = async () => {
        const file = path.join(dir, `f${n++}`);
        await fs.promises.writeFile(file, data);
        return file;
      };
      const fsRead = async (file: string) => {
        let bytes = 0;
        await pipeline(
          fs.createReadStream(file),
          new Writable({
            write: (chunk: Buffer, _e, done) => {
              bytes += chunk.length;
              done();
            },
          }),
        );
        if (bytes !== size) throw new Error('short read');
      };

      // Warm-up: every path once.
      await download(await upload());
      await fsRead(await fsWrite());

      const totals = { up: 0, down: 0, fsUp: 0, fsDown: 0 };
      for (let round = 0; round < ctx.settings.rounds; round++) {
        let start = process.hrtime.bigint();
        const urls: string[] = [];
        for (let i = 0; i < transfers; i++) urls.push(await upload());
        totals.up += seconds(start);
        start = process.hrtime.bigint();
        for (const url of urls) await download(url);
        totals.down += seconds(start);
        start = process.hrtime.bigint();
        const files: string[] = [];
        for (let i = 0; i < transfers; i++) files.push(await fsWrite());
        totals.fsUp += seconds(start);
        start = process.hrtime.bigint();
        for (const file of files) await fsRead(file);
        totals.fsDown += seconds(start);
        for (const file of files) fs.rmSync(file);
      }
      const mib = (size / MIB) * transfers * ctx.settings.rounds;
      const rate = (s: number) => mib / s;
      const rows: (string | number)[][] = [
        ['upload (POST /user_uploads)', rate(totals.up), rate(totals.fsUp), (rate(totals.up) / rate(totals.fsUp)).toFixed(2)],
        ['download (GET /user_uploads/...)', rate(totals.down), rate(totals.fsDown), (rate(totals.down) / rate(totals.fsDown)).toFixed(2)],
      ];
      ctx.log(`uploads: ${rows.map((r) => `${r[0]} ${Number(r[1]).toFixed(0)} MiB/s vs ${Number(r[2]).toFixed(0)} MiB/s`).join('; ')}`);
      return {
        results: [],
        tables: [
          {
            title: `${size / MIB} MiB file, ${transfers * ctx.settings.rounds} transfers each way`,
            columns: ['', 'Parley MiB/s', 'node:fs MiB/s', 'ratio'],
            rows,
          },
        ],
        notes: [
          'node:fs writes the whole buffer with writeFile and reads with a stream; Parley streams both ways through HTTP, multipart parsing and the database row.',
        ],
      };
    } finally {
      agent.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
      // Its child process would otherwise keep the run from ending.
      await parley.stop();
    }
  },
};
