import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHttpClient, type HttpClient } from '../../src/client/http';
import type { DemoMember } from '../../src/demo/types';
import { CHROMIUM_MISSING, DESKTOP, HAS_CHROMIUM, PHONE, useConsole } from './harness';

/**
 * A group of companies seen from an invited organization: Acme's owner invites the sister company
 * to a second group (over the API); the sister company's owner sees, on the company groups screen,
 * the invitation with Accept and Decline and the group it belongs to with Leave, no Edit on groups
 * it does not manage; accepts on a desktop in English, then leaves on a phone in Bahasa Malaysia.
 * Each step checks the page and then the API; axe at both sizes.
 */
if (!HAS_CHROMIUM) console.warn(`SKIPPED: ${CHROMIUM_MISSING}`);

const app = useConsole();
const poll = <T,>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 20_000, interval: 300 });

async function clientOf(member: Pick<DemoMember, 'email' | 'password'>): Promise<HttpClient> {
  const res = await fetch(`${app.url}/trpc/auth.login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: member.email, password: member.password }) });
  const body = (await res.json()) as { result: { data: { session_token: string } } };
  return createHttpClient({ baseUrl: app.url, token: body.result.data.session_token });
}

async function toast(page: Page, text: string) {
  await poll(() => page.locator('[aria-live="polite"]').innerText()).toContain(text);
}

describe.skipIf(!HAS_CHROMIUM)('an invited organization decides on its company groups', () => {
  let acme: HttpClient;
  let sister: HttpClient;
  let sisterOwner: Pick<DemoMember, 'email' | 'password'>;
  let sisterId: string;
  let groupId: string;
  const name = 'Acme Trading Group';

  beforeAll(async () => {
    acme = await clientOf(app.member('owner'));
    // The demo's sister company of Acme (already in one group with it) and its owner's login.
    const sibling = app.demo.group_sibling!;
    sisterId = sibling.id;
    sisterOwner = sibling.owner;
    sister = await clientOf(sisterOwner);
    const group = await acme.settings.companyGroups.create.mutate({ name, member_organization_ids: [sisterId] }, { context: { idempotencyKey: crypto.randomUUID() } });
    groupId = group.id;
  }, 60_000);

  const card = (page: Page) => page.locator(`[data-record-id="${groupId}"]`);

  it('sees the invitation with Accept and Decline, its own group with Leave, and accepts', async () => {
    const desktop = await app.newPage({ ...DESKTOP, language: 'en' });
    await app.signIn(desktop, sisterOwner);
    await desktop.goto(`${app.url}/settings/reference/companyGroups`);
    await poll(() => desktop.locator('h1').textContent()).toBe('Company groups');
    await poll(() => card(desktop).count()).toBe(1);
    expect(await card(desktop).getByRole('button', { name: `Accept the invitation to ${name}?` }).count()).toBe(1);
    expect(await card(desktop).getByRole('button', { name: `Decline the invitation to ${name}?` }).count()).toBe(1);
    // Groups it does not manage offer no Edit and no Deactivate (the server would refuse them).
    expect(await desktop.getByRole('button', { name: /^Edit / }).count()).toBe(0);
    expect(await desktop.getByRole('button', { name: /^Deactivate / }).count()).toBe(0);
    const other = desktop.locator('[data-record-id]').filter({ hasNotText: name });
    expect(await other.getByRole('button', { name: /^Leave / }).count()).toBe(1);
    await app.axe(desktop);

    await card(desktop).getByRole('button', { name: `Accept the invitation to ${name}?` }).click();
    await desktop.getByRole('dialog').getByRole('button', { name: 'Accept' }).click();
    await toast(desktop, `This organization is now a member of ${name}.`);
    await poll(() => card(desktop).getByRole('button', { name: `Leave ${name}?` }).count()).toBe(1);
    const mine = (await sister.settings.companyGroups.list.query({ limit: 10 })).items.find((g) => g.id === groupId);
    expect(mine?.membership).toBe('member');
    const managed = (await acme.settings.companyGroups.list.query({ limit: 10 })).items.find((g) => g.id === groupId);
    expect(managed?.member_organization_ids).toContain(sisterId);
    expect(app.pageErrors(desktop)).toEqual([]);
  });

  it('leaves the group on a phone in Bahasa Malaysia', async () => {
    const phone = await app.newPage({ ...PHONE, language: 'ms' });
    await app.signIn(phone, sisterOwner);
    await phone.goto(`${app.url}/settings/reference/companyGroups`);
    await poll(() => card(phone).getByRole('button', { name: `Keluar daripada ${name}?` }).count()).toBe(1);
    await app.axe(phone);
    await card(phone).getByRole('button', { name: `Keluar daripada ${name}?` }).click();
    await phone.getByRole('dialog').getByRole('button', { name: 'Keluar daripada kumpulan' }).click();
    await toast(phone, `Organisasi ini telah keluar daripada ${name}.`);
    const mine = (await sister.settings.companyGroups.list.query({ limit: 10, include_inactive: true })).items.find((g) => g.id === groupId);
    expect(mine === undefined || mine.membership === 'none').toBe(true);
    const managed = (await acme.settings.companyGroups.list.query({ limit: 10 })).items.find((g) => g.id === groupId);
    expect(managed?.member_organization_ids).not.toContain(sisterId);
    await app.axe(phone);
    expect(app.pageErrors(phone)).toEqual([]);
  });
});
