import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServerProcess } from '../helpers/server-process';
import { withWebBuildLock } from '../helpers/web-build';

/**
 * The compiled service (docs/design.md §10; the image runs it): `npm run build` bundles src/main.ts
 * and src/cli/admin.ts into dist/, and `node dist/main.js` serves from any working directory (the
 * data files and migrations are found from the project folder, not from each module's depth), on
 * a fresh embedded database with its demo. The Docker image is built when a working docker is here.
 */

const dataDir = mkdtempSync(join(tmpdir(), 'dist-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function run(command: string, args: string[], timeout: number): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd: process.cwd(), timeout, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}

function dockerWorks(): boolean {
  try {
    execFileSync('docker', ['info'], { stdio: 'ignore', timeout: 20_000 });
    return true;
  } catch {
    return false;
  }
}

describe('the compiled service', { timeout: 300_000 }, () => {
  it('npm run build, then node dist/main.js on the embedded database: /healthz 200 and a keyed customer read', async () => {
    // Holding the console's build lock: the console tests copy dist/web, which this build empties and writes again.
    const built = await withWebBuildLock(() => run('npm', ['run', 'build'], 180_000));
    expect(built.code, built.out).toBe(0);
    expect(existsSync('dist/main.js') && existsSync('dist/cli/admin.js')).toBe(true);
    // The people's console, built by the same command.
    expect(existsSync('dist/web/index.html')).toBe(true);

    // From another working directory, as a service manager may start it; the demo is seeded (embedded database).
    const server = await startServerProcess({ DATA_DIR: dataDir, SEED_DEMO: undefined, PAYOUT_ENCRYPTION_KEY: undefined, LOG_LEVEL: 'warn' }, { args: [join(process.cwd(), 'dist/main.js')], cwd: tmpdir() });
    try {
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      const key = /Demo API key[^:]*: (\S+)/.exec(server.output())?.[1];
      const customer = /customers\/([0-9a-f-]{36})/.exec(server.output())?.[1];
      expect(key && customer, server.output()).toBeTruthy();
      // The banner gives the console's address and one demo person per role, with e-mail and password.
      expect(server.output()).toMatch(/Console: +http:\/\/[^/\s]+\/\n/);
      for (const role of ['owner', 'accountant', 'clerk', 'employee', 'viewer']) expect(server.output()).toMatch(new RegExp(`\\n {4}${role} +\\S.* +\\S+@\\S+ +\\S+ +\\(`));
      const read = await fetch(`${server.url}/v1/receivables/customers/${customer}`, { headers: { authorization: `Bearer ${key}` } });
      expect(read.status).toBe(200);
      expect(await read.json()).toMatchObject({ id: customer });
    } finally {
      await server.stop();
    }
  });

  it.skipIf(!dockerWorks())('docker build produces the image', async () => {
    const built = await run('docker', ['build', '-t', 'finance-api:test', '.'], 280_000);
    expect(built.code, built.out).toBe(0);
    const user = await run('docker', ['run', '--rm', '--entrypoint', 'id', 'finance-api:test', '-u'], 60_000);
    expect(user.out.trim()).not.toBe('0');
  });
});
