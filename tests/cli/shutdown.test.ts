import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabaseEnv } from '../helpers/app';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';

/**
 * Graceful shutdown of a real server process (docs/design.md §10): after SIGTERM /readyz answers 503
 * while the requests in flight finish, and a drain that outlasts SHUTDOWN_GRACE_MS ends the process
 * anyway. The slow request is one whose body the client has not finished sending.
 */

const url = process.env.TEST_DATABASE_URL;
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function databaseEnv(): Record<string, string> {
  if (url) return testDatabaseEnv();
  const dir = mkdtempSync(join(tmpdir(), 'shutdown-'));
  dirs.push(dir);
  return { DATA_DIR: dir, SEED_DEMO: 'false', MYINVOIS_SIMULATOR: 'off' };
}

const BODY = JSON.stringify({ email: 'nobody@example.test', password: 'not the password 1' });

/** Opens a POST whose body is sent up to its last byte: the server holds it in flight. */
async function slowRequest(base: string): Promise<{ socket: Socket; finish(): void; answer: Promise<string> }> {
  const { hostname, port } = new URL(base);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let received = '';
  const answer = new Promise<string>((resolve) => {
    socket.on('data', (d) => (received += String(d)));
    socket.on('close', () => resolve(received));
    socket.on('error', () => resolve(received));
  });
  socket.write(`POST /trpc/auth.login HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(BODY)}\r\nConnection: close\r\n\r\n${BODY.slice(0, -1)}`);
  return { socket, finish: () => socket.write(BODY.slice(-1)), answer };
}

const exited = (server: ServerProcess) =>
  new Promise<{ code: number | null; at: number }>((resolve) => {
    if (server.child.exitCode !== null) resolve({ code: server.child.exitCode, at: Date.now() });
    server.child.once('exit', (code) => resolve({ code, at: Date.now() }));
  });

describe('graceful shutdown of a server process', { timeout: 180_000 }, () => {
  it('after SIGTERM /readyz answers 503 while a request in flight finishes; then the process exits 0', async () => {
    const server = await startServerProcess({ ...databaseEnv(), SHUTDOWN_DELAY_MS: '3000', SHUTDOWN_GRACE_MS: '20000', LOG_LEVEL: 'info' });
    const done = exited(server);
    try {
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      const slow = await slowRequest(server.url);
      await new Promise((r) => setTimeout(r, 200));
      server.child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 500));
      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ status: 'draining' });
      // Liveness is not readiness: the process still answers.
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      expect(server.child.exitCode).toBeNull();
      slow.finish();
      expect(await slow.answer).toMatch(/^HTTP\/1\.1 401 /);
      const { code } = await done;
      expect(code, server.output()).toBe(0);
      expect(server.output()).toContain('drained');
    } finally {
      await server.stop();
    }
  });

  it('a drain longer than SHUTDOWN_GRACE_MS ends the process anyway, with a non-zero exit code', async () => {
    const server = await startServerProcess({ ...databaseEnv(), SHUTDOWN_GRACE_MS: '1500', LOG_LEVEL: 'info' });
    const done = exited(server);
    try {
      const slow = await slowRequest(server.url);
      await new Promise((r) => setTimeout(r, 200));
      const signalled = Date.now();
      server.child.kill('SIGTERM');
      const { code, at } = await Promise.race([done, new Promise<{ code: number | null; at: number }>((r) => setTimeout(() => r({ code: null, at: Date.now() }), 30_000))]);
      expect(code, server.output()).toBe(1);
      expect(at - signalled).toBeGreaterThanOrEqual(1400);
      expect(at - signalled).toBeLessThan(15_000);
      expect(server.output()).toContain('drain time limit reached');
      slow.socket.destroy();
    } finally {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
    }
  });
});
