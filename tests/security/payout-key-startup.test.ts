import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/** Runs `src/main.ts` as the service would start, and collects its exit code and output. */
function startMain(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    let output = '';
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: process.cwd(),
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: '0', HOST: '127.0.0.1', SEED_DEMO: 'false', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (d) => (output += String(d)));
    child.stderr.on('data', (d) => (output += String(d)));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

describe('start-up on PostgreSQL without PAYOUT_ENCRYPTION_KEY', () => {
  it('fails before touching the database, naming the variable and why', async () => {
    // Nothing listens on port 1: the configuration must be refused before any connection is tried.
    const { code, output } = await startMain({ DATABASE_URL: 'postgres://app@127.0.0.1:1/finance' });
    expect(code).toBe(1);
    expect(output).toContain('Invalid configuration:');
    expect(output).toMatch(/PAYOUT_ENCRYPTION_KEY: is required when DATABASE_URL is set/);
    expect(output).not.toContain('ECONNREFUSED');
  }, 60_000);
});
