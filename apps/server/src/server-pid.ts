import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * `DATA_DIR/server.pid`: the process id of the server running on the data
 * directory. PGlite's files can be opened by one process at a time, so a
 * command that opens them (admin:reset) first checks no server holds them.
 */
function pidFile(dataDir: string): string {
  return path.join(dataDir, 'server.pid');
}

/** Notes this process as the server of the data directory, until it exits. */
export function claimDataDir(dataDir: string): void {
  const file = pidFile(dataDir);
  // On PostgreSQL nothing else may have made the directory yet (uploads make theirs when first written).
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, String(process.pid));
  process.on('exit', () => {
    // Only ours: a server started later on the same directory wrote its own.
    if (runningServer(dataDir) === process.pid) rmSync(file, { force: true });
  });
}

/** The id of a live server process on the data directory, if there is one. */
export function runningServer(dataDir: string): number | undefined {
  let pid: number;
  try {
    pid = Number(readFileSync(pidFile(dataDir), 'utf8').trim());
  } catch {
    return undefined;
  }
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    // EPERM: it lives, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : undefined;
  }
}
