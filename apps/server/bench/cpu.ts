import { readdirSync, readFileSync } from 'node:fs';
import type pg from 'pg';

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ: 100 on every Linux the bench runs on). */
const TICKS_PER_SECOND = 100;

interface ProcStat {
  comm: string;
  /** utime + stime of the process (all its threads), in milliseconds. */
  ownMs: number;
  /** cutime + cstime: children it has waited for, in milliseconds. */
  childrenMs: number;
}

/** /proc/<pid>/stat, or undefined when the process is gone or /proc is not there (not Linux). */
function procStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name is in parentheses and may hold spaces; the fields after it are space-separated.
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  const fields = text
    .slice(close + 2)
    .split(' ')
    .map(Number);
  // After the name: state is field 3, so utime (14), stime (15), cutime (16), cstime (17) are at 11..14 here.
  const ms = (ticks: number) => (ticks * 1000) / TICKS_PER_SECOND;
  return {
    comm: text.slice(open + 1, close),
    ownMs: ms((fields[11] ?? 0) + (fields[12] ?? 0)),
    childrenMs: ms((fields[13] ?? 0) + (fields[14] ?? 0)),
  };
}

/** CPU time one process has used so far (all threads), in ms; undefined off Linux. */
export function processCpuMs(pid: number | undefined): number | undefined {
  return pid === undefined ? undefined : procStat(pid)?.ownMs;
}

/**
 * CPU time used so far by every process named `postgres` (the postmaster,
 * backends, background workers), plus what exited backends and parallel
 * workers used (the postmaster's waited-for children): PostgreSQL as a whole,
 * including work for other databases on the same server. Undefined when no
 * such process is visible (PostgreSQL elsewhere, or not Linux).
 */
export function allPostgresCpuMs(): number | undefined {
  let pids: number[];
  try {
    pids = readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map(Number);
  } catch {
    return undefined;
  }
  let total = 0;
  let seen = false;
  for (const pid of pids) {
    const stat = procStat(pid);
    if (stat?.comm !== 'postgres') continue;
    seen = true;
    total += stat.ownMs + stat.childrenMs;
  }
  return seen ? total : undefined;
}

/**
 * CPU time per backend of one database (client backends and parallel workers
 * alive now), so that a run can count only the work done for the bench's
 * database: other databases on the server (tests, a seed) are left out.
 */
export async function databaseBackendsCpu(monitor: pg.Client, database: string): Promise<Map<number, number>> {
  const { rows } = await monitor.query<{ pid: number }>(
    `select pid from pg_stat_activity
      where datname = $1 and pid <> pg_backend_pid() and backend_type in ('client backend', 'parallel worker')`,
    [database],
  );
  const cpu = new Map<number, number>();
  for (const { pid } of rows) {
    const stat = procStat(pid);
    if (stat) cpu.set(pid, stat.ownMs);
  }
  return cpu;
}

/** CPU the backends used between two readings; a backend that started meanwhile counts from zero. */
export function backendsCpuDelta(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}

/**
 * A process's resident memory now and at its peak so far (VmRSS and VmHWM of
 * /proc/<pid>/status), in MB; null when the process is gone or /proc is not there.
 */
export function memoryOf(pid: number): { rssMb: number; peakMb: number } | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null;
  }
  const mb = (name: string) => Math.round(Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(text)?.[1] ?? 0) / 1024);
  return { rssMb: mb('VmRSS'), peakMb: mb('VmHWM') };
}
