import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { parseMail, type ReceivedMail } from '../helpers/smtp';
import { CHROMIUM_MISSING, DESKTOP, HAS_CHROMIUM, PHONE, useConsole } from './harness';

/**
 * Invitations and password resets as people live them, on the embedded database without SMTP_URL
 * (each message an .eml file under DATA_DIR/mail): the owner invites a person, who opens the link
 * from the message on a phone in Bahasa Malaysia, sets a password and lands on To do; the link then
 * says it was used. On a desktop in English the same person asks for a reset from the sign-in
 * screen, opens that link, chooses a new password and signs in with it; in Me they switch a kind of
 * message off. Every screen passes axe.
 */
if (!HAS_CHROMIUM) console.warn(`SKIPPED: ${CHROMIUM_MISSING}`);

const app = useConsole({ env: { JOB_POLL_INTERVAL_MS: '300' } });

/** The .eml messages to `email` written so far. */
function mailsTo(email: string): ReceivedMail[] {
  const dir = join(app.dataDir, 'mail');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .map((f) => parseMail(readFileSync(join(dir, f), 'utf8'), { from: '', to: [] }))
    .filter((m) => (m.headers.to ?? '').includes(email));
}

/** The link of the n-th message to `email` at `path`, on this server's address. */
async function linkFor(email: string, path: string, n = 1): Promise<string> {
  await expect.poll(() => mailsTo(email).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(n);
  const text = mailsTo(email).map((m) => m.text).find((t) => t.includes(path) && !usedLinks.has(/\S+\/(?:invitation|reset-password)\/[A-Za-z0-9_-]+/.exec(t)![0]));
  const link = /\S+\/(?:invitation|reset-password)\/[A-Za-z0-9_-]+/.exec(text ?? '')![0];
  usedLinks.add(link);
  return `${app.url}${new URL(link).pathname}`;
}
const usedLinks = new Set<string>();

/** A tRPC call with the page's session cookie, as the console makes it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function trpc(page: Page, path: string, input: unknown, method: 'GET' | 'POST' = 'POST'): Promise<{ status: number; body: any }> {
  return page.evaluate(
    async ({ path, input, method }) => {
      const url = method === 'GET' ? `/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}` : `/trpc/${path}`;
      const res = await fetch(url, { method, headers: { 'content-type': 'application/json', 'x-requested-with': 'console' }, ...(method === 'POST' ? { body: JSON.stringify(input) } : {}) });
      return { status: res.status, body: await res.json() };
    },
    { path, input, method },
  );
}

const email = `invited.${Date.now().toString(36)}@example.test`;
const PASSWORD = 'kata laluan yang panjang';
const NEW_PASSWORD = 'an even longer new password';

describe.skipIf(!HAS_CHROMIUM)('an invited member sets a password and signs in; a forgotten password is reset', () => {
  it('the owner invites; the invitee accepts on a phone in Bahasa Malaysia and lands on To do; the link then says it was used', async () => {
    const owner = await app.newPage({ ...DESKTOP, language: 'en' });
    await app.signIn(owner, 'owner');
    const invited = await trpc(owner, 'organization.members.invite', { name: 'Siti Rahman', email, roles: ['employee'], language: 'ms' });
    expect(invited.status).toBe(201);
    const memberId = invited.body.result.data.id as string;

    const link = await linkFor(email, '/invitation/');
    const [message] = mailsTo(email);
    expect(message!.subject).toBe(`Anda dijemput ke ${app.demo.name}`);
    expect(message!.text).toContain('Salam Siti Rahman,');

    const page = await app.newPage({ ...PHONE, language: 'ms' });
    await page.goto(link);
    await expect.poll(() => page.locator('h1').textContent()).toBe(`Sertai ${app.demo.name}`);
    await expect.poll(() => page.locator('main').innerText()).toContain(`Anda dijemput sebagai Siti Rahman (${email})`);
    await app.axe(page);
    await app.screenshot(page, '12-invitation-phone-ms');

    await page.locator('input[name="password"]').fill('pendek');
    await page.locator('form button[type="submit"]').click();
    await expect.poll(() => page.locator('[aria-invalid="true"]').count()).toBe(1);
    await app.axe(page);

    await page.locator('input[name="password"]').fill(PASSWORD);
    await page.locator('form button[type="submit"]').click();
    await page.waitForURL((u) => u.pathname === '/', { timeout: 20_000 });
    await expect.poll(() => page.locator('h1').textContent()).toBe('Tugasan');
    const me = await trpc(page, 'auth.me', {}, 'GET');
    expect(me.body.result.data.member).toMatchObject({ id: memberId, name: 'Siti Rahman', email });
    await app.axe(page);

    const again = await app.newPage({ ...PHONE, language: 'ms' });
    await again.goto(link);
    await expect.poll(() => again.getByRole('alert').textContent()).toContain('sudah digunakan');
    await app.axe(again);
    expect([...app.pageErrors(page), ...app.pageErrors(again)]).toEqual([]);
  });

  it('on a desktop in English: forgot password from sign-in, the reset link, a new password that signs in; a kind switched off in Me', async () => {
    const page = await app.newPage({ ...DESKTOP, language: 'en' });
    await page.goto(`${app.url}/sign-in`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Reset your password');
    await app.axe(page);
    await page.locator('input[name="email"]').fill(email);
    await page.locator('form button[type="submit"]').click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'If an account has this address' }).count()).toBe(1);
    await app.axe(page);
    await app.screenshot(page, '13-forgot-password-desktop-en');

    const link = await linkFor(email, '/reset-password/', 2);
    const reset = await app.newPage({ ...DESKTOP, language: 'en' });
    await reset.goto(link);
    await expect.poll(() => reset.locator('h1').textContent()).toBe('Choose a new password');
    await app.axe(reset);
    await reset.locator('input[name="password"]').fill(NEW_PASSWORD);
    await reset.locator('form button[type="submit"]').click();
    await reset.waitForURL((u) => u.pathname === '/', { timeout: 20_000 });

    const fresh = await app.newPage({ ...DESKTOP, language: 'en' });
    await app.signIn(fresh, { ...app.member('employee'), email, password: NEW_PASSWORD });
    await fresh.goto(`${app.url}/me`);
    const box = fresh.getByRole('checkbox', { name: 'my claim is paid' });
    await expect.poll(() => box.isChecked()).toBe(true);
    await app.axe(fresh);
    await box.uncheck();
    await fresh.getByRole('button', { name: 'Save e-mail settings' }).click();
    await expect.poll(() => fresh.getByRole('status').filter({ hasText: 'Saved.' }).count()).toBe(1);
    const settings = await trpc(fresh, 'me.notifications.get', {}, 'GET');
    expect(settings.body.result.data).toMatchObject({ language: 'ms' });
    expect(settings.body.result.data.kinds).toContainEqual({ kind: 'claim_paid', enabled: false });
    expect(settings.body.result.data.kinds).toContainEqual({ kind: 'claim_returned', enabled: true });
    expect(app.pageErrors(fresh)).toEqual([]);
  });
});
