import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import type { BuiltInRole } from '../../src/domain/permissions';
import type { DemoMember, DemoOrganization } from '../../src/demo/types';
import { withDirectoryLock } from '../helpers/directory-lock';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';
import { copyBuiltConsole } from '../helpers/web-build';

/**
 * The people's console as a person meets it: a real server process (src/main.ts on a fresh embedded
 * database, the demo data seeded) serving its own copy of the built console (dist/web, see
 * tests/helpers/web-build.ts), driven by Debian's Chromium
 * through playwright-core. `.ci/run` installs chromium; without it the console tests are skipped.
 *
 *   const app = useConsole();
 *   describe.skipIf(!HAS_CHROMIUM)('…', () => {
 *     it('…', async () => {
 *       const page = await app.newPage({ width: 390, height: 844, language: 'ms' });
 *       await app.signIn(page, 'employee');
 *       await app.axe(page);
 *     });
 *   });
 */

export const CHROMIUM = '/usr/bin/chromium';
export const HAS_CHROMIUM = existsSync(CHROMIUM);
export const CHROMIUM_MISSING = `${CHROMIUM} is not installed (apt-get install chromium; .ci/run does it): the console's browser tests did not run`;

export const PHONE = { width: 390, height: 844 } as const;
export const DESKTOP = { width: 1280, height: 800 } as const;

export type Language = 'en' | 'ms';

const ROOT = process.cwd();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
function isLocal(url: string): boolean {
  const u = new URL(url);
  if (u.protocol === 'data:' || u.protocol === 'blob:' || u.protocol === 'about:') return true;
  return LOCAL_HOSTS.has(u.hostname);
}

/** A new organization the admin CLI makes before the server starts (no demo data then). */
export interface NewOrganization {
  name: string;
  ownerName: string;
  ownerEmail: string;
  ownerPassword: string;
}

/** What the CLI answered for the organization it made: its id and its owner. */
export interface CreatedOrganization {
  id: string;
  name: string;
  owner: { id: string; name: string; email: string | null; roles: string[] };
}

export interface ConsoleApp {
  /** The server's base URL, e.g. http://127.0.0.1:40123 (no trailing slash). */
  readonly url: string;
  /** The server's DATA_DIR (the embedded database; e-mail as .eml files under mail/). */
  readonly dataDir: string;
  /** The demo's first organization (Acme Trading): its members with e-mail and password, its claims, ... */
  readonly demo: DemoOrganization;
  /** Every demo organization, as demo.json has them. */
  readonly organizations: DemoOrganization[];
  /** The active demo member of a role (employee: the claimant; accountant: approver and payer; owner; clerk; viewer). */
  member(role: BuiltInRole): DemoMember;
  /** The organization the CLI made (useConsole({ organization })); the demo is not seeded then. */
  readonly created: CreatedOrganization;
  /** A page in a fresh browser context (its own cookies), at the size and in the language asked. */
  newPage(opts?: { width?: number; height?: number; language?: Language }): Promise<Page>;
  /** Signs in through the sign-in screen and waits until the console has left it. */
  signIn(page: Page, who: BuiltInRole | Pick<DemoMember, 'email' | 'password'>, opts?: { next?: string }): Promise<void>;
  /** Asserts axe finds no WCAG 2 A/AA violation on the page as it is now (printing each one on failure). */
  axe(page: Page): Promise<void>;
  /** Saves a screenshot to docs/console/<name>.png when CONSOLE_SCREENSHOTS=1. */
  screenshot(page: Page, name: string): Promise<void>;
  /**
   * Waits until the page has had no request in flight for `quietMs` (300): its reads after a
   * client-side navigation settled. (Playwright's `networkidle` load state is reached once per
   * document, so after a click inside the app it answers at once, whatever is still loading.)
   */
  settled(page: Page, quietMs?: number): Promise<void>;
  /** Uncaught errors the page threw so far. */
  pageErrors(page: Page): string[];
  /** The server's output so far (for failure messages). */
  output(): string;
}

/**
 * Makes an organization with the admin CLI (`org create`) on the embedded database in dataDir, as an
 * operator does before the first start (the embedded database takes one process at a time).
 */
function createOrganizationWithCli(dataDir: string, org: NewOrganization): CreatedOrganization {
  const args = ['--import', 'tsx', 'src/cli/admin.ts', 'org', 'create', '--name', org.name, '--owner-name', org.ownerName, '--owner-email', org.ownerEmail, '--owner-password', org.ownerPassword, '--json'];
  const out = execFileSync(process.execPath, args, { cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, timeout: 120_000, encoding: 'utf8' });
  return JSON.parse(out) as CreatedOrganization;
}

export interface ConsoleOptions {
  /** An organization made by the admin CLI before the server starts, instead of the demo (no demo data). */
  organization?: NewOrganization;
  /** More of the server's environment, e.g. JOB_POLL_INTERVAL_MS to run the background jobs (the MyInvois submission and polling, e-mail). */
  env?: Record<string, string>;
  /** Writes the database (and its demo.json) into the data directory before the server starts on it, instead of the demo seeded now. */
  prepare?: (dataDir: string) => Promise<void>;
}

/**
 * The demo seeded once per test run and copied into each file's data directory: seeding is most of a
 * server's start (a minute or more on a busy machine), and a copy opened by a new process is what
 * `npm start` on an existing folder does. The first file that needs it seeds it, holding a lock
 * directory; the others wait for its `ready` mark. One run's files share a parent process (vitest's),
 * so its pid names the run; folders of earlier runs older than two hours are removed.
 */
async function demoTemplate(): Promise<string> {
  const root = join(tmpdir(), `console-demo-${process.ppid}`);
  const data = join(root, 'data');
  const ready = join(root, 'ready');
  const lock = `${root}.lock`;
  const deadline = Date.now() + 420_000;
  while (!existsSync(ready)) {
    const waitMs = deadline - Date.now();
    if (waitMs <= 0) throw new Error(`the demo template in ${root} was not ready within 420 s (${lock} held)`);
    await withDirectoryLock(
      lock,
      async () => {
        if (existsSync(ready)) return;
        for (const name of readdirSync(tmpdir())) {
          const old = join(tmpdir(), name);
          if (name.startsWith('console-demo-') && old !== root && Date.now() - statSync(old).mtimeMs > 2 * 3600_000) rmSync(old, { recursive: true, force: true });
        }
        rmSync(root, { recursive: true, force: true });
        mkdirSync(data, { recursive: true });
        const seeding = await startServerProcess({ DATA_DIR: data, SEED_DEMO: 'true', LOG_LEVEL: 'warn' }, { readyWithinMs: 360_000 });
        await seeding.stop();
        writeFileSync(ready, '');
      },
      { waitMs },
    );
  }
  return data;
}

/** Starts the server and the browser once for the test file (beforeAll), stops both after it. */
export function useConsole(opts: ConsoleOptions = {}): ConsoleApp {
  let server: ServerProcess | undefined;
  let browser: Browser | undefined;
  let dataDir: string | undefined;
  let webDir: string | undefined;
  let organizations: DemoOrganization[] = [];
  let created: CreatedOrganization | undefined;
  const contexts: BrowserContext[] = [];
  const errors = new WeakMap<Page, string[]>();
  const traffic = new WeakMap<Page, { inFlight: number; lastChange: number }>();

  beforeAll(async () => {
    if (!HAS_CHROMIUM) return;
    dataDir = mkdtempSync(join(tmpdir(), 'console-'));
    webDir = `${dataDir}-web`;
    await copyBuiltConsole(webDir);
    await opts.prepare?.(dataDir);
    if (opts.organization) {
      created = createOrganizationWithCli(dataDir, opts.organization);
      server = await startServerProcess({ DATA_DIR: dataDir, WEB_DIST_DIR: webDir, SEED_DEMO: 'false', LOG_LEVEL: 'warn', ...opts.env }, { readyWithinMs: 240_000 });
    } else {
      // The demo as seeded once for the run (unless the file prepared its own).
      if (!opts.prepare) cpSync(await demoTemplate(), dataDir, { recursive: true, filter: (source) => !source.endsWith('server.lock') });
      server = await startServerProcess({ DATA_DIR: dataDir, WEB_DIST_DIR: webDir, SEED_DEMO: 'true', LOG_LEVEL: 'warn', ...opts.env }, { readyWithinMs: 240_000 });
      organizations = (JSON.parse(readFileSync(join(dataDir, 'demo.json'), 'utf8')) as { organizations: DemoOrganization[] }).organizations;
    }
    const home = await fetch(`${server.url}/sign-in`, { headers: { accept: 'text/html' } });
    if (!(home.headers.get('content-type') ?? '').includes('text/html')) throw new Error(`the server does not serve the console at /sign-in (status ${home.status})`);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
  }, 720_000);

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await browser?.close();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    if (webDir) rmSync(webDir, { recursive: true, force: true });
  });

  const app: ConsoleApp = {
    get url() {
      if (!server) throw new Error('the console server is not started (chromium missing?)');
      return server.url;
    },
    get dataDir() {
      if (!dataDir) throw new Error('the console server is not started (chromium missing?)');
      return dataDir;
    },
    get demo() {
      const first = organizations[0];
      if (!first) throw new Error('no demo organization');
      return first;
    },
    get organizations() {
      return organizations;
    },
    get created() {
      if (!created) throw new Error('no organization was made by the CLI (useConsole({ organization }))');
      return created;
    },
    member(role) {
      const m = app.demo.members.find((x) => x.role === role && x.active);
      if (!m) throw new Error(`no active ${role} in ${app.demo.name}`);
      return m;
    },
    async newPage({ width = DESKTOP.width, height = DESKTOP.height, language = 'en' } = {}) {
      if (!browser) throw new Error('the browser is not started (chromium missing?)');
      // AxeBuilder needs a page of a context made with newContext(), not browser.newPage().
      const context = await browser.newContext({ viewport: { width, height }, locale: language === 'ms' ? 'ms-MY' : 'en-MY', timezoneId: 'Asia/Kuala_Lumpur' });
      contexts.push(context);
      // Nothing leaves this machine: every off-host request is refused.
      await context.route('**/*', (route) => (isLocal(route.request().url()) ? route.continue() : route.abort('blockedbyclient')));
      // The language as the person chose it on this browser (the console keeps it in localStorage).
      await context.addInitScript({ content: `if (!localStorage.getItem('console.language')) localStorage.setItem('console.language', ${JSON.stringify(language)});` });
      // A busy machine (CI runs two files at once beside server processes) can hold a page's first
      // paint for many seconds: a minute before an action or navigation counts as failed.
      context.setDefaultTimeout(60_000);
      const page = await context.newPage();
      const list: string[] = [];
      errors.set(page, list);
      page.on('pageerror', (e) => list.push(String(e)));
      const net = { inFlight: 0, lastChange: Date.now() };
      traffic.set(page, net);
      const begin = () => {
        net.inFlight += 1;
        net.lastChange = Date.now();
      };
      const end = () => {
        net.inFlight = Math.max(0, net.inFlight - 1);
        net.lastChange = Date.now();
      };
      page.on('request', begin);
      page.on('requestfinished', end);
      page.on('requestfailed', end);
      return page;
    },
    async signIn(page, who, { next } = {}) {
      const member = typeof who === 'string' ? app.member(who) : who;
      await page.goto(`${app.url}/sign-in${next ? `?next=${encodeURIComponent(next)}` : ''}`);
      await page.locator('input[name="email"]').fill(member.email);
      await page.locator('input[name="password"]').fill(member.password);
      await page.locator('form button[type="submit"]').click();
      await page.waitForURL((u) => u.pathname !== '/sign-in');
    },
    async axe(page) {
      const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
      const report = result.violations.map((v) => `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(' ')}: ${n.failureSummary?.replace(/\n/g, ' ')}`).join('\n')}`).join('\n');
      expect(result.violations.length, `axe found WCAG 2 A/AA violations on ${page.url()}:\n${report}`).toBe(0);
    },
    async screenshot(page, name) {
      if (process.env.CONSOLE_SCREENSHOTS !== '1') return;
      const dir = join(ROOT, 'docs/console');
      mkdirSync(dir, { recursive: true });
      await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
    },
    async settled(page, quietMs = 300) {
      const net = traffic.get(page);
      if (!net) throw new Error('settled() takes a page made by app.newPage()');
      const deadline = Date.now() + 60_000;
      while (net.inFlight > 0 || Date.now() - net.lastChange < quietMs) {
        if (Date.now() > deadline) throw new Error(`the page still had ${net.inFlight} request(s) in flight after 60 s`);
        await sleep(50);
      }
    },
    pageErrors(page) {
      return errors.get(page) ?? [];
    },
    output() {
      return server?.output() ?? '';
    },
  };
  return app;
}
