import { ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './ports';

/**
 * A real OpenLDAP server (Debian's slapd) on a loopback port, with its own configuration and
 * database in a temporary directory, loaded from an LDIF fixture before it starts.
 */
export const SLAPD = process.env.SLAPD_PATH ?? '/usr/sbin/slapd';
const SLAPADD = path.join(path.dirname(SLAPD), 'slapadd');

export interface Directory {
  url: string;
  suffix: string;
  adminDn: string;
  adminPassword: string;
  stop(): Promise<void>;
}

async function waitForPort(port: number, process: ChildProcess, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (process.exitCode !== null) throw new Error(`slapd exited with ${process.exitCode}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('slapd did not start listening');
}

export async function startDirectory(ldif: string): Promise<Directory> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-slapd-'));
  const suffix = 'dc=example,dc=com';
  const adminDn = `cn=admin,${suffix}`;
  const adminPassword = 'directory-admin-secret';
  fs.mkdirSync(path.join(dir, 'db'));
  const conf = path.join(dir, 'slapd.conf');
  fs.writeFileSync(
    conf,
    [
      'include /etc/ldap/schema/core.schema',
      'include /etc/ldap/schema/cosine.schema',
      'include /etc/ldap/schema/inetorgperson.schema',
      `pidfile ${path.join(dir, 'slapd.pid')}`,
      'modulepath /usr/lib/ldap',
      'moduleload back_mdb',
      'database mdb',
      'maxsize 16777216',
      `suffix "${suffix}"`,
      `rootdn "${adminDn}"`,
      `rootpw ${adminPassword}`,
      `directory ${path.join(dir, 'db')}`,
      '',
    ].join('\n'),
  );
  await promisify(execFile)(SLAPADD, ['-f', conf, '-l', ldif]);
  // slapd takes a port, not port 0.
  const port = await freePort();
  const url = `ldap://127.0.0.1:${port}`;
  const child = spawn(SLAPD, ['-f', conf, '-h', `${url}/`, '-d', '0'], { stdio: 'ignore' });
  try {
    await waitForPort(port, child);
  } catch (error) {
    child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url,
    suffix,
    adminDn,
    adminPassword,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
