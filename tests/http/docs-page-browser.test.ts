import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app';

/**
 * The /docs page as a visitor's browser runs it: Debian's Chromium, headless, on a real listening server
 * at 127.0.0.1 (the address where Scalar turns on its "developer" features by default: the worst case).
 * .ci/run installs chromium when it is missing; without it this file is skipped with a note.
 */
const CHROMIUM = '/usr/bin/chromium';
const t = useTestApp();
let browser: Browser | undefined;
afterAll(async () => {
  await browser?.close();
});

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
const isLocal = (url: string) => {
  const u = new URL(url);
  if (u.protocol === 'data:' || u.protocol === 'blob:' || u.protocol === 'about:') return true;
  return LOCAL_HOSTS.has(u.hostname);
};

/** Loads /docs, opens one operation's request client, and answers every URL the page asked for and what it shows. */
async function visitDocs() {
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  browser ??= await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const context = await browser.newContext();
  const requested = new Set<string>();
  // Every request of the page and its workers goes through here; off-host ones are recorded and refused,
  // so the test neither depends on nor reaches the internet.
  await context.route('**/*', (route) => {
    const url = route.request().url();
    requested.add(url);
    return isLocal(url) ? route.continue() : route.abort('blockedbyclient');
  });
  context.on('request', (r) => requested.add(r.url()));
  const page = await context.newPage();
  page.on('websocket', (ws) => requested.add(ws.url()));
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  cdp.on('Network.requestWillBeSent', (e: { request: { url: string } }) => requested.add(e.request.url));

  await page.goto(`${base}/docs/`, { waitUntil: 'networkidle' });
  await page.getByText('Create a customer').first().waitFor();
  await page.evaluate('document.fonts.ready');
  // The request client ("Test Request") is where Scalar's proxy and hosted client would come in.
  const testRequest = page.getByRole('button', { name: /Test Request/i }).first();
  if (await testRequest.count()) {
    await testRequest.click();
    await page.waitForLoadState('networkidle');
  }
  const title = await page.title();
  const text = (await page.locator('body').innerText()) + '\n' + (await page.locator('[aria-label], [title]').evaluateAll((els) => els.map((e) => `${e.getAttribute('aria-label') ?? ''} ${e.getAttribute('title') ?? ''}`).join('\n')));
  await context.close();
  return { requested: [...requested], text, title };
}

describe('/docs in a browser', () => {
  it('loads nothing from another host and offers no AI agent, MCP, developer tools, share or deploy', async (ctx) => {
    if (!existsSync(CHROMIUM)) {
      const note = `${CHROMIUM} is not installed (apt-get install chromium; .ci/run does it): the browser check of /docs did not run`;
      console.warn(`SKIPPED: ${note}`);
      ctx.skip(note);
    }
    const { requested, text, title } = await visitDocs();

    // It did render the reference from this service's document, with its script served from here.
    expect(requested.some((u) => u.endsWith('/docs/js/scalar.js'))).toBe(true);
    expect(requested.some((u) => u.endsWith('/v1/openapi.json'))).toBe(true);
    expect(text).toContain('Receivables documents');
    // The product's name in the tab and as the heading, and the guide's sections in the navigation.
    expect(title).toBe('Finance API');
    for (const heading of ['Finance API', 'Authentication', 'Errors', 'The MyInvois lifecycle']) expect(text).toContain(heading);

    expect(requested.filter((u) => !isLocal(u))).toEqual([]);
    // The examples it shows are the document's, not placeholders that fail when pasted.
    expect(text).not.toContain('9007199254740991');
    expect(text).not.toMatch(/"[a-z_]+_id": ""/);
    for (const feature of [/Ask AI/i, /\bMCP\b/, /Developer Tools/i, /\bDeploy\b/i, /\bShare\b/i, /VS Code/, /\bCursor\b/, /Open in API Client/i]) {
      expect(text).not.toMatch(feature);
    }
  }, 120_000);
});
