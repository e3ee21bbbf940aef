/**
 * The people's console against its budgets (issue 26): the initial JavaScript (every script
 * dist/web/index.html loads before any action of the person: its module script and modulepreloads,
 * each gzip -9) beside 200 kB, and the time to a usable inbox beside 1.5 s: a cold browser context
 * (no cache) with the session cookie set through the API goes to /inbox, until the first claim row is
 * visible and takes focus. Median of 5. The console is built first when dist/web is older than web/;
 * a real server (src/main.ts) runs on a fresh embedded database with the demo.
 *
 *   npm run bench -- console           (BENCH_RUNS=5; CHROMIUM=/usr/bin/chromium)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { startServerProcess } from '../tests/helpers/server-process';
import { median } from './stats';

const ROOT = process.cwd();
const WEB = join(ROOT, 'web');
const DIST = join(ROOT, 'dist/web');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const JS_BUDGET_BYTES = 200 * 1000;
const INBOX_BUDGET_MS = 1500;

function newestChange(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestChange(join(path, name))));
}

/**
 * dist/web as production builds it: built when missing, older than web/, or not a production build
 * (a build run under another NODE_ENV carries React's development build, far larger).
 */
function ensureBuilt(): void {
  const index = join(DIST, 'index.html');
  const production = () => !readdirSync(join(DIST, 'assets')).some((f) => f.endsWith('.js') && readFileSync(join(DIST, 'assets', f), 'utf8').includes('Download the React DevTools'));
  if (existsSync(index) && statSync(index).mtimeMs >= newestChange(WEB) && production()) return;
  process.stdout.write('Building the console (vite build, production) ...\n');
  execFileSync(join(ROOT, 'node_modules/.bin/vite'), ['build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
}

/** The scripts index.html loads by itself: `<script type="module" src>` and `<link rel="modulepreload" href>`. */
function initialScripts(): { path: string; raw: number; gzip: number }[] {
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  const srcs = [...html.matchAll(/<script[^>]*\ssrc="([^"]+\.js)"/g), ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+\.js)"/g)].map((m) => m[1]!);
  return [...new Set(srcs)].map((src) => {
    const bytes = readFileSync(join(DIST, src.replace(/^\//, '')));
    return { path: src, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  });
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

async function main() {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is not installed (apt-get install chromium)`);
  ensureBuilt();
  const scripts = initialScripts();
  const total = scripts.reduce((sum, s) => sum + s.gzip, 0);

  const dataDir = mkdtempSync(join(tmpdir(), 'bench-console-'));
  process.stdout.write('Starting the server with the demo ...\n');
  const server = await startServerProcess({ DATA_DIR: dataDir, SEED_DEMO: 'true', LOG_LEVEL: 'warn' });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
  try {
    const demo = JSON.parse(readFileSync(join(dataDir, 'demo.json'), 'utf8')) as { organizations: { members: { role: string; active: boolean; email: string; password: string }[] }[] };
    // The owner: the claimant's superior, with claims of the demo waiting in the inbox.
    const owner = demo.organizations[0]!.members.find((m) => m.role === 'owner' && m.active)!;
    const login = await fetch(`${server.url}/trpc/auth.login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-requested-with': 'console' },
      body: JSON.stringify({ email: owner.email, password: owner.password, cookie: true }),
    });
    const cookie = /fs_session=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1];
    if (!login.ok || !cookie) throw new Error(`the console login failed (${login.status}): ${await login.text()}`);

    const times: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-MY', timezoneId: 'Asia/Kuala_Lumpur' });
      await context.addCookies([{ name: 'fs_session', value: cookie, url: server.url, httpOnly: true, sameSite: 'Strict' }]);
      const page = await context.newPage();
      const started = performance.now();
      await page.goto(`${server.url}/inbox`, { waitUntil: 'commit' });
      const first = page.locator('[data-claim-row]').first();
      await first.waitFor({ state: 'visible', timeout: 30_000 });
      await first.focus();
      const focused = await page.evaluate<boolean>("document.activeElement?.hasAttribute('data-claim-row') ?? false");
      const elapsed = performance.now() - started;
      if (!focused) throw new Error('the first claim row did not take focus');
      times.push(elapsed);
      await context.close();
    }

    const mid = median(times);
    process.stdout.write('\nInitial JavaScript (index.html, before any action), gzip -9:\n');
    for (const s of scripts) process.stdout.write(`  ${s.path.padEnd(36)} ${kB(s.raw).padStart(10)} raw ${kB(s.gzip).padStart(10)} gzip\n`);
    process.stdout.write(`  total ${kB(total)} gzip; budget ${kB(JS_BUDGET_BYTES)}: ${total <= JS_BUDGET_BYTES ? 'PASS' : 'FAIL'}\n`);
    process.stdout.write(`\nTime to a usable inbox (cold context, cookie set, /inbox until the first claim row is visible and focused), ${RUNS} runs:\n`);
    process.stdout.write(`  ${times.map((t) => `${t.toFixed(0)} ms`).join(', ')}\n`);
    process.stdout.write(`  median ${mid.toFixed(0)} ms; budget ${INBOX_BUDGET_MS} ms: ${mid <= INBOX_BUDGET_MS ? 'PASS' : 'FAIL'}\n`);
    process.stdout.write(`\nMachine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; ${new Date().toISOString().slice(0, 10)}\n`);
  } finally {
    await browser.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
