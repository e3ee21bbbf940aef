import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CSP } from '../../src/http/console';
import { createTestOrganization } from '../factories/organization';
import { createTestApp, type TestApp } from '../helpers/app';
import { expectProblem } from '../helpers/problem';

const INDEX = '<!doctype html><html lang="en"><head><title>Console</title><script type="module" src="/assets/index-3f9a1c.js"></script></head><body><div id="root"></div></body></html>';
const SCRIPT = 'console.log("console");';
const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

let dir: string;
let t: TestApp;
let bare: TestApp;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'console-dist-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), INDEX);
  writeFileSync(join(dir, 'assets', 'index-3f9a1c.js'), SCRIPT);
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  t = await createTestApp({ WEB_DIST_DIR: dir });
  bare = await createTestApp({ WEB_DIST_DIR: join(dir, 'not-built') });
});

afterAll(async () => {
  for (const app of [t, bare]) {
    await app?.app.close();
    await app?.handle.close();
  }
  rmSync(dir, { recursive: true, force: true });
});

const get = (app: TestApp, url: string, headers: Record<string, string> = HTML) => app.app.inject({ method: 'GET', url, headers });

function expectIndex(res: Awaited<ReturnType<typeof get>>) {
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  expect(res.body).toBe(INDEX);
  expect(res.headers['cache-control']).toBe('no-cache');
  expect(res.headers['content-security-policy']).toBe(CONSOLE_CSP);
  expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['referrer-policy']).toBe('same-origin');
}

describe('the console served at /', () => {
  it('answers index.html at / and at a deep link, with no-cache, the CSP, nosniff and Referrer-Policy', async () => {
    expectIndex(await get(t, '/'));
    expectIndex(await get(t, '/claims/123'));
    expectIndex(await get(t, '/inbox?claim=8'));
    const head = await t.app.inject({ method: 'HEAD', url: '/claims/123', headers: HTML });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
  });

  it('serves hashed assets cached as immutable, and other top-level files revalidated', async () => {
    const js = await get(t, '/assets/index-3f9a1c.js', {});
    expect(js.statusCode, js.body).toBe(200);
    expect(js.body).toBe(SCRIPT);
    expect(js.headers['content-type']).toMatch(/javascript/);
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.headers['x-content-type-options']).toBe('nosniff');
    const icon = await get(t, '/favicon.svg', {});
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('a missing asset is the 404 problem, not the app and not cached', async () => {
    const res = await get(t, '/assets/index-000000.js');
    expectProblem(res, 404, 'not_found');
    expect(res.headers['cache-control']).toBeUndefined();
    expectProblem(await get(t, '/assets/../index.html', {}), 404);
  });

  it('leaves the API as it was: /v1 and /trpc answer, an unknown /v1 path is the 404 problem even when HTML is asked for', async () => {
    const org = await createTestOrganization(t.db);
    const v1 = await get(t, '/v1/receivables/customers', { authorization: `Bearer ${org.owner.apiKey}`, ...HTML });
    expect(v1.statusCode, v1.body).toBe(200);
    expect(v1.headers['content-type']).toMatch(/^application\/json/);
    expect(v1.headers['content-security-policy']).toBeUndefined();
    const trpc = await get(t, '/trpc/auth.me', { authorization: `Bearer ${org.owner.apiKey}` });
    expect(trpc.statusCode).toBe(200);
    expectProblem(await get(t, '/v1/no-such-thing'), 404, 'not_found');
    expectProblem(await get(t, '/v1'), 404, 'not_found');
    expectProblem(await get(t, '/trpc'), 404, 'not_found');
    expectProblem(await get(t, '/metrics/x'), 404, 'not_found');
    expect((await get(t, '/healthz', {})).json()).toEqual({ status: 'ok' });
    expect((await get(t, '/v1/openapi.json', {})).json().openapi).toMatch(/^3\./);
  });

  it('a request that does not ask for HTML, or another method, gets the API answer, not the app', async () => {
    expectProblem(await get(t, '/claims/123', { accept: 'application/json' }), 404, 'not_found');
    expectProblem(await get(t, '/', { accept: 'application/json' }), 404, 'not_found');
    const post = await t.app.inject({ method: 'POST', url: '/claims/123', headers: HTML, payload: {} });
    expectProblem(post, 404, 'not_found');
  });

  it('without a built console, / answers as it always did (the 404 problem)', async () => {
    expectProblem(await get(bare, '/'), 404, 'not_found');
    expectProblem(await get(bare, '/claims/123'), 404, 'not_found');
    expect((await get(bare, '/healthz', {})).statusCode).toBe(200);
  });
});
