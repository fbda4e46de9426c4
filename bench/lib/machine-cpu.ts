import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU the whole machine and the local PostgreSQL server spent, read from /proc (Linux only; zeros
 * elsewhere). A capacity step shares the machine between Parley, its load generators and
 * PostgreSQL, so the database's share is what tells whether it, rather than Parley, is the limit.
 */
export interface MachineCpu {
  /** Busy time of every core, seconds. */
  busySeconds: number;
  /** User + system time of every process named `postgres`, seconds. */
  postgresSeconds: number;
}

// /proc counts in clock ticks; Linux fixes USER_HZ at 100 on every architecture node runs on.
const TICKS_PER_SECOND = 100;

export function machineCpu(): MachineCpu {
  try {
    return { busySeconds: busyTicks() / TICKS_PER_SECOND, postgresSeconds: postgresTicks() / TICKS_PER_SECOND };
  } catch {
    return { busySeconds: 0, postgresSeconds: 0 };
  }
}

function busyTicks(): number {
  const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0];
  // cpu user nice system idle iowait irq softirq steal ...
  const fields = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = fields[3] + (fields[4] ?? 0);
  return fields.reduce((a, b) => a + b, 0) - idle;
}

function postgresTicks(): number {
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // the process ended while we looked
    }
    // pid (comm) state ...: comm may hold spaces, so split after its closing parenthesis.
    const close = stat.lastIndexOf(')');
    if (stat.slice(stat.indexOf('(') + 1, close) !== 'postgres') continue;
    const rest = stat.slice(close + 2).split(' ');
    ticks += Number(rest[11]) + Number(rest[12]); // utime, stime (fields 14 and 15)
  }
  return ticks;
}
