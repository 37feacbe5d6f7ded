import { execFileSync, spawn } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import path from 'node:path';

/** A server started by `startBenchServer`. */
export interface BenchServer {
  /** Where it listens, as it printed it (`http://127.0.0.1:<port>`). */
  url: string;
  pid: number;
  /** Ends the process with the signal it was started with (`stopSignal`). */
  stop(): void;
}

export interface BenchServerOptions {
  /** The server package that runs (see `serverCommand`), from that directory: this one, or a worktree of an older commit. */
  root: string;
  /** The server's DATA_DIR: a fresh one for each run. */
  dataDir: string;
  /** The administrator created on its first start, which the bench signs in as. */
  admin: { email: string; password: string };
  /** 0 (the default) lets the system choose; a server too old to print the port it got needs a free one given. */
  port?: number;
  /** More of the server's environment, over the bench's own and the settings above. */
  env?: Record<string, string>;
  /** Node options for the server only (e.g. `--cpu-prof`). */
  nodeArgs?: readonly string[];
  /** SIGKILL (the default) ends it at once; SIGTERM lets it end on its own, e.g. to write a `--cpu-prof` profile. */
  stopSignal?: NodeJS.Signals;
}

/**
 * Node's arguments that run the server package at `root` as `npm start` does:
 * its bundle, built here first (well under a second). A worktree of a commit
 * from before the server was bundled (no build.ts) runs its source with tsx.
 */
export function serverCommand(root: string): string[] {
  if (!existsSync(path.join(root, 'build.ts'))) return ['--import', 'tsx', path.join(root, 'src/main.ts')];
  execFileSync(process.execPath, ['--import', 'tsx', 'build.ts'], { cwd: root, stdio: 'inherit' });
  return [path.join(root, 'dist/start.js')];
}

/**
 * Starts the real server as a child process (so that the bench and the server
 * do not share an event loop), without demo data, and waits until it says it
 * is ready; throws with the end of its output when it exits first.
 */
export async function startBenchServer(options: BenchServerOptions): Promise<BenchServer> {
  const { root, nodeArgs = [], stopSignal = 'SIGKILL' } = options;
  const child = spawn(process.execPath, [...nodeArgs, ...serverCommand(root)], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      DATA_DIR: options.dataDir,
      HOST: '127.0.0.1',
      PORT: String(options.port ?? 0),
      ADMIN_EMAIL: options.admin.email,
      ADMIN_PASSWORD: options.admin.password,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'info',
      ...options.env,
    },
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /is ready on (http:\/\/\S+?)["\s]/.exec(output);
      if (match?.[1]) resolve(match[1]);
    };
    // BENCH_SERVER_OUT=<file> keeps what the server writes (its log; what BENCH_SERVER_ARGS="--trace-gc" prints).
    if (process.env.BENCH_SERVER_OUT) {
      const out = createWriteStream(process.env.BENCH_SERVER_OUT);
      child.stdout.pipe(out);
      child.stderr.pipe(out);
    }
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', () => reject(new Error(`The server exited:\n${output.slice(-3000)}`)));
  });
  return { url, pid: child.pid as number, stop: () => child.kill(stopSignal) };
}
