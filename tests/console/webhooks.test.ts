import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpClient, type HttpClient } from '../../src/client/http';
import { receiver, verifies } from '../helpers/webhooks';
import { CHROMIUM_MISSING, DESKTOP, HAS_CHROMIUM, PHONE, useConsole } from './harness';

/**
 * The demo owner manages webhook endpoints in the console: adds one for a receiver on 127.0.0.1
 * (its secret shown once), sends a test event and sees it delivered (the receiver got it, signed
 * with that secret), takes a new secret (the old one keeps signing for 24 hours), then on a phone in
 * Bahasa Malaysia turns the endpoint off and deletes it. Each step checks the page and then the API;
 * axe on the screen at both sizes.
 */
if (!HAS_CHROMIUM) console.warn(`SKIPPED: ${CHROMIUM_MISSING}`);

const app = useConsole({ env: { JOB_POLL_INTERVAL_MS: '300', OUTBOUND_ALLOWED_NETWORKS: '127.0.0.1/32' } });
const poll = <T,>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 20_000, interval: 300 });

async function sessionToken(email: string, password: string): Promise<string> {
  const res = await fetch(`${app.url}/trpc/auth.login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  const body = (await res.json()) as { result: { data: { session_token: string } } };
  return body.result.data.session_token;
}

describe.skipIf(!HAS_CHROMIUM)('the owner manages webhook endpoints', () => {
  let desktop: Page;
  let phone: Page;
  let api: HttpClient;
  let hooks: Awaited<ReturnType<typeof receiver>>;
  let url: string;
  let secret: string;
  let answerStatus = 200;

  beforeAll(async () => {
    hooks = await receiver((_r, _n, res) => void res.writeHead(answerStatus, { 'content-type': 'application/json' }).end(answerStatus === 200 ? '{"received":true}' : '{"error":"busy"}'));
    url = `${hooks.url}/hooks/finance`;
    const owner = app.member('owner');
    api = createHttpClient({ baseUrl: app.url, token: await sessionToken(owner.email, owner.password) });
    desktop = await app.newPage({ ...DESKTOP, language: 'en' });
    phone = await app.newPage({ ...PHONE, language: 'ms' });
    await app.signIn(desktop, 'owner');
    await app.signIn(phone, 'owner');
  }, 60_000);

  afterAll(async () => {
    await hooks?.close();
  });

  const endpoint = (page: Page) => page.locator(`[data-endpoint-id]`).filter({ hasText: url });

  it('adds an endpoint from the settings index: no type chosen and a private address refused on their fields; the secret shown once; the API lists it for every type', async () => {
    await desktop.goto(`${app.url}/settings`);
    await desktop.getByRole('link', { name: /Webhooks/ }).click();
    await poll(() => desktop.locator('h1').textContent()).toBe('Webhooks');
    await poll(() => desktop.getByText('No endpoints yet.').count()).toBe(1);
    await app.axe(desktop);
    // Chosen types, none ticked: the form's own check; a private address: refused by the server on the URL field.
    await desktop.getByLabel('Only the types I choose').check();
    await desktop.getByRole('button', { name: 'Add the endpoint' }).click();
    await poll(() => desktop.getByText('must list at least one event type').count()).toBe(1);
    await desktop.getByLabel('receivables.invoice.issued').check();
    await poll(() => desktop.getByText('must list at least one event type').count()).toBe(0);
    await desktop.getByLabel('URL').fill('http://10.20.30.40/hooks');
    await desktop.getByRole('button', { name: 'Add the endpoint' }).click();
    await poll(async () => (await desktop.getByLabel('URL').getAttribute('aria-describedby')) ?? '').toContain('-error');
    expect(await desktop.getByTestId('webhook-secret').count()).toBe(0);
    expect((await api.organization.webhookEndpoints.list.query({})).items).toEqual([]);
    await app.axe(desktop);
    await desktop.getByLabel('All event types').check();
    await desktop.getByLabel('URL').fill(url);
    await desktop.getByRole('button', { name: 'Add the endpoint' }).click();
    const shown = desktop.getByTestId('webhook-secret');
    await poll(() => shown.count()).toBe(1);
    secret = (await shown.innerText()).trim();
    expect(secret).toMatch(/^whsec_/);
    expect(await desktop.getByText('Copy it now and keep it in your system').count()).toBe(1);
    await poll(() => endpoint(desktop).getAttribute('data-state')).toBe('enabled');
    expect(await endpoint(desktop).innerText()).toContain('All event types');
    const { items } = await api.organization.webhookEndpoints.list.query({});
    expect(items.map((e) => ({ url: e.url, types: e.types, enabled: e.enabled }))).toEqual([{ url, types: ['*'], enabled: true }]);
    expect(JSON.stringify(items)).not.toContain(secret);
    await app.axe(desktop);
    // Once: after "I have copied it" (or a reload) the secret is gone.
    await desktop.getByRole('button', { name: 'I have copied it' }).click();
    expect(await desktop.getByTestId('webhook-secret').count()).toBe(0);
  });

  it('sends a test event: the delivery shows as delivered with its attempt; the receiver got it signed with the secret', async () => {
    await endpoint(desktop).getByRole('button', { name: `Send a test event to ${url}` }).click();
    const delivery = endpoint(desktop).locator('[data-delivery-id]').first();
    await poll(async () => {
      if ((await delivery.getAttribute('data-state').catch(() => null)) !== 'delivered') await endpoint(desktop).getByRole('button', { name: /Refresh the deliveries/ }).click();
      return delivery.getAttribute('data-state');
    }).toBe('delivered');
    expect(await delivery.innerText()).toContain('webhook.test');
    expect(await delivery.locator('[data-attempt="1"]').innerText()).toMatch(/Attempt 1, .*status 200, \d+ ms/);
    expect(await delivery.locator('[data-attempt="1"]').innerText()).toContain('{"received":true}');
    expect(await delivery.getByRole('button', { name: 'Send again' }).count()).toBe(0);
    expect(hooks.received).toHaveLength(1);
    expect(JSON.parse(hooks.received[0]!.body)).toMatchObject({ type: 'webhook.test' });
    expect(verifies(secret, hooks.received[0]!)).toBe(true);
    const [id] = (await api.organization.webhookEndpoints.list.query({})).items.map((e) => e.id);
    const { items } = await api.organization.webhookEndpoints.deliveries.query({ id: id! });
    expect(items.map((d) => [d.event_type, d.state, d.attempts.map((a) => a.status)])).toEqual([['webhook.test', 'delivered', [200]]]);
    await app.axe(desktop);
    await app.screenshot(desktop, '14-owner-webhooks');
    expect(app.pageErrors(desktop)).toEqual([]);
  });

  it('takes a new secret: shown once, the old one said to sign for 24 hours; the API shows the rotation; the next event verifies with either', async () => {
    const before = (await api.organization.webhookEndpoints.list.query({})).items[0]!;
    expect(before.previous_secret_expires_at).toBeNull();
    await endpoint(desktop).getByRole('button', { name: `New secret for ${url}` }).click();
    const shown = endpoint(desktop).getByTestId('webhook-secret');
    await poll(() => shown.count()).toBe(1);
    const fresh = (await shown.innerText()).trim();
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(secret);
    expect(await endpoint(desktop).innerText()).toContain('The old secret keeps signing for 24 hours');
    const after = await api.organization.webhookEndpoints.get.query({ id: before.id });
    expect(after.revision).toBe(before.revision + 1);
    const expires = Date.parse(after.previous_secret_expires_at!);
    expect(Math.abs(expires - Date.now() - 24 * 3600_000)).toBeLessThan(5 * 60_000);
    await poll(() => endpoint(desktop).innerText()).toContain('Still signs until');

    await endpoint(desktop).getByRole('button', { name: `Send a test event to ${url}` }).click();
    await poll(() => hooks.received.length).toBe(2);
    expect(verifies(fresh, hooks.received[1]!)).toBe(true);
    expect(verifies(secret, hooks.received[1]!)).toBe(true);
    await app.axe(desktop);
  });

  it('on a phone in Bahasa Malaysia: an attempt the receiver refused shown with its status and answer, the endpoint turned off, then deleted after confirming; the API agrees; axe', async () => {
    await phone.goto(`${app.url}/settings/webhooks`);
    await poll(() => phone.locator('h1').textContent()).toBe('Webhook');
    await poll(() => endpoint(phone).getAttribute('data-state')).toBe('enabled');
    expect(await endpoint(phone).innerText()).toContain('Semua jenis peristiwa');
    await app.axe(phone);

    // A receiver that answers 500: the attempt shown with its status and answer, the next one scheduled.
    answerStatus = 500;
    await endpoint(phone).getByRole('button', { name: `Hantar peristiwa ujian ke ${url}` }).click();
    const refused = endpoint(phone).locator('[data-delivery-id]').first();
    await poll(async () => {
      await endpoint(phone).getByRole('button', { name: /Muat semula penghantaran/ }).click();
      return refused.locator('[data-attempt="1"]').innerText().catch(() => '');
    }).toMatch(/Cubaan 1, .*status 500, \d+ ms/);
    expect(await refused.getAttribute('data-state')).toBe('pending');
    expect(await refused.innerText()).toContain('{"error":"busy"}');
    expect(await refused.innerText()).toContain('Cubaan seterusnya');
    const [refusedId] = (await api.organization.webhookEndpoints.list.query({})).items.map((e) => e.id);
    const latest = (await api.organization.webhookEndpoints.deliveries.query({ id: refusedId! })).items[0]!;
    expect([latest.state, latest.attempts[0]?.status, latest.next_attempt_at === null]).toEqual(['pending', 500, false]);
    await app.axe(phone);

    await endpoint(phone).getByRole('button', { name: `Matikan ${url}` }).click();
    await poll(() => endpoint(phone).getAttribute('data-state')).toBe('disabled');
    expect(await endpoint(phone).innerText()).toContain('Dimatikan');
    const [off] = (await api.organization.webhookEndpoints.list.query({})).items;
    expect(off?.enabled).toBe(false);
    await app.axe(phone);
    await app.screenshot(phone, '15-owner-webhooks-phone-ms');

    await endpoint(phone).getByRole('button', { name: `Padam ${url}` }).click();
    const dialog = phone.getByRole('dialog');
    await poll(() => dialog.innerText()).toContain('tiada lagi peristiwa dihantar');
    await dialog.getByRole('button', { name: 'Padam', exact: true }).click();
    await poll(() => phone.getByText('Belum ada titik akhir.').count()).toBe(1);
    expect((await api.organization.webhookEndpoints.list.query({})).items).toEqual([]);
    expect(app.pageErrors(phone)).toEqual([]);
  });
});
