/**
 * Debian's PgBouncer (/usr/sbin/pgbouncer) in transaction pooling mode on a free port of 127.0.0.1,
 * with a generated configuration in a temporary folder, pointing at the PostgreSQL server on
 * 127.0.0.1:5432 (PGHOST/PGPORT): every database of that server is reachable through it by name.
 * Used by bench/pooled.ts and by .ci/run (the concurrency tests once more through a pooler).
 *
 *   npx tsx bench/_pgbouncer.ts start [pool size]   prints "<port> <folder>"; PgBouncer runs on in the background
 *   npx tsx bench/_pgbouncer.ts stop <folder>       stops it and removes the folder
 *
 * Trust authentication (the user named in the folder's auth_file, no password), as the local
 * PostgreSQL the tests use. PgBouncer refuses to run as root: it is then started as `postgres`.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../tests/helpers/server-process';

export const PGBOUNCER = process.env.PGBOUNCER_BIN ?? '/usr/sbin/pgbouncer';

/**
 * Server connections per database and user: PostgreSQL on this 2-core machine runs best with a few
 * busy backends, not one per client connection; the clients (4 server processes of 10 connections
 * each) share them a transaction at a time.
 */
export const DEFAULT_POOL_SIZE = 8;

export interface Pgbouncer {
  port: number;
  dir: string;
  /** `postgres://<user>@127.0.0.1:<port>/<database>` */
  url(database: string): string;
  stop(): Promise<void>;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createConnection({ port, host: '127.0.0.1' });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

function configText(o: { port: number; dir: string; user: string; poolSize: number; pgHost: string; pgPort: number }): string {
  return `[databases]
* = host=${o.pgHost} port=${o.pgPort}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${o.port}
unix_socket_dir =
auth_type = trust
auth_file = ${join(o.dir, 'users.txt')}
admin_users = ${o.user}
pool_mode = transaction
max_client_conn = 2000
default_pool_size = ${o.poolSize}
min_pool_size = 0
reserve_pool_size = 0
server_lifetime = 3600
server_idle_timeout = 600
; postgres.js sends no other start-up parameter; JDBC-style clients send these two.
ignore_startup_parameters = extra_float_digits,options
logfile = ${join(o.dir, 'pgbouncer.log')}
pidfile = ${join(o.dir, 'pgbouncer.pid')}
log_connections = 0
log_disconnections = 0
`;
}

/** Starts PgBouncer in the background (its own daemon) and waits until it accepts connections. */
export async function startPgbouncer(opts: { poolSize?: number; user?: string } = {}): Promise<Pgbouncer> {
  if (!existsSync(PGBOUNCER)) throw new Error(`${PGBOUNCER} is absent: install Debian's pgbouncer (apt-get install pgbouncer)`);
  const user = opts.user ?? process.env.PGUSER ?? 'postgres';
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'pgbouncer-'));
  const text = configText({
    port,
    dir,
    user,
    poolSize: opts.poolSize ?? DEFAULT_POOL_SIZE,
    pgHost: process.env.PGHOST ?? '127.0.0.1',
    pgPort: Number(process.env.PGPORT ?? 5432),
  });
  writeFileSync(join(dir, 'pgbouncer.ini'), text);
  writeFileSync(join(dir, 'users.txt'), `"${user}" ""\n`);
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const pw = execFileSync('id', ['-u', 'postgres']).toString().trim();
    const gid = execFileSync('id', ['-g', 'postgres']).toString().trim();
    for (const f of ['', 'pgbouncer.ini', 'users.txt']) chownSync(join(dir, f), Number(pw), Number(gid));
  }
  execFileSync(PGBOUNCER, [...(asRoot ? ['-u', 'postgres'] : []), '-d', '-q', join(dir, 'pgbouncer.ini')], { stdio: 'inherit' });
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (Date.now() > deadline) {
      const log = existsSync(join(dir, 'pgbouncer.log')) ? readFileSync(join(dir, 'pgbouncer.log'), 'utf8') : '';
      throw new Error(`PgBouncer did not start on port ${port}:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { port, dir, url: (database) => `postgres://${user}@127.0.0.1:${port}/${database}`, stop: () => stopPgbouncer(dir) };
}

/** Stops the PgBouncer started with this folder (its pid file), waits for it to go and removes the folder. */
export async function stopPgbouncer(dir: string): Promise<void> {
  const pidFile = join(dir, 'pgbouncer.pid');
  if (existsSync(pidFile)) {
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    if (pid > 0) {
      try {
        process.kill(pid, 'SIGINT');
        const deadline = Date.now() + 10_000;
        for (;;) {
          process.kill(pid, 0);
          if (Date.now() > deadline) {
            process.kill(pid, 'SIGKILL');
            break;
          }
          await new Promise((r) => setTimeout(r, 100));
        }
      } catch {
        // gone
      }
    }
  }
  rmSync(dir, { recursive: true, force: true });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [command, arg] = process.argv.slice(2);
  if (command === 'start') {
    const b = await startPgbouncer(arg ? { poolSize: Number(arg) } : {});
    process.stdout.write(`${b.port} ${b.dir}\n`);
  } else if (command === 'stop' && arg) {
    await stopPgbouncer(arg);
  } else {
    process.stderr.write('usage: npx tsx bench/_pgbouncer.ts start [pool size] | stop <folder>\n');
    process.exit(2);
  }
}
