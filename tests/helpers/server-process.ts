import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { TEST_PAYOUT_ENCRYPTION_KEY } from './keys';

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

/** A port nothing listens on at the moment it is returned (bound, read, closed). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts `src/main.ts` as a real server process on its own port (node --import tsx, the same as
 * `npx tsx src/main.ts` without the npx wrapper process), and waits until /readyz answers. A
 * different entry point (`args`, e.g. the built `dist/main.js`) runs the same way. A
 * variable given as undefined is left out of the environment (SEED_DEMO: undefined, as `npm start` has it).
 */
export async function startServerProcess(env: Record<string, string | undefined>, opts: { args?: string[]; cwd?: string; readyWithinMs?: number } = {}): Promise<ServerProcess> {
  const port = await freePort();
  let out = '';
  const child = spawn(process.execPath, opts.args ?? ['--import', 'tsx', 'src/main.ts'], {
    cwd: opts.cwd ?? process.cwd(),
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      CURSOR_SECRET: 'concurrency-test-cursor-secret-0123456789',
      // The tests' own keys in the past must not be purged under them.
      IDEMPOTENCY_PURGE_INTERVAL_SECONDS: '0',
      // Nor purged by the background jobs (stale login failures, ...): test processes run no jobs.
      JOB_POLL_INTERVAL_MS: '0',
      // Other tests fail keys from 127.0.0.1 into the shared per-address counter.
      RATE_LIMIT_AUTH_FAILURES: '1000000',
      // Required with DATABASE_URL; the test data is encrypted under the same key the test app uses.
      PAYOUT_ENCRYPTION_KEY: TEST_PAYOUT_ENCRYPTION_KEY,
      ...env,
    } as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (out += String(d)));
  child.stderr?.on('data', (d) => (out += String(d)));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  };
  // A fresh embedded database initialises and migrates in 5 to 50 s on 2 loaded cores; seeding the
  // demo data on top takes up to three minutes there (readyWithinMs).
  const deadline = Date.now() + (opts.readyWithinMs ?? 120_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server process exited (${child.exitCode}):\n${out}`);
    try {
      const res = await fetch(`${url}/readyz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`server process did not become ready:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, child, output: () => out, stop };
}
