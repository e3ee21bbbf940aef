import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHttpClient, type HttpClient } from '../../src/client/http';
import type { BuiltInRole } from '../../src/domain/permissions';
import { CHROMIUM_MISSING, DESKTOP, HAS_CHROMIUM, PHONE, useConsole } from './harness';

/**
 * The people who decide and pay claims, on the demo of a real server, beyond the one claim's journey
 * (tests/console/journey.test.ts: keyboard signing, acting for a delegator, paying with a proof,
 * paid with the masked account): the claimant (Devi) files claims through the API; a return with its
 * reason, a bulk approval with one refused claim, a stale revision, axe on every screen in both
 * languages at both sizes, and changing a password.
 */
if (!HAS_CHROMIUM) console.warn(`SKIPPED: ${CHROMIUM_MISSING}`);

const app = useConsole();

// A real 1×1 PNG: the review pane shows it as an image.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** What the page shows after a server round trip or two: polled for up to 15 seconds. */
const poll = <T,>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 });
const ifMatch = (revision: number) => ({ context: { ifMatch: `"${revision}"` } });
const yesterday = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

interface Claims {
  c2: string;
  x: string;
  y: string;
  z: string;
  s: string;
}
const ids = {} as Claims;
const refs = {} as Record<keyof Claims, string>;

function client(role: BuiltInRole): HttpClient {
  const token = app.member(role).session_token;
  if (!token) throw new Error(`no session for ${role}`);
  return createHttpClient({ baseUrl: app.url, token });
}

async function upload(role: BuiltInRole, name: string): Promise<string> {
  const body = new FormData();
  body.append('file', new Blob([PNG], { type: 'image/png' }), name);
  const res = await fetch(`${app.url}/v1/documents`, { method: 'POST', body, headers: { authorization: `Bearer ${app.member(role).session_token}`, 'idempotency-key': crypto.randomUUID() } });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** The claimant files and submits a claim of receipt lines, each wholly on one project, as the console would. */
async function fileClaim(title: string, lines: { project: 'P-KLCC' | 'P-PNG'; amount: string; description: string; receipt?: boolean }[]) {
  const devi = client('employee');
  const channel = app.demo.payout_channels.find((c) => c.member_id === app.member('employee').id && c.active);
  const category = app.demo.expense_categories.find((c) => c.code === 'TRAVEL')!;
  let answer = await devi.expenses.claims.create.mutate({ title, payout_channel_id: channel?.id ?? null });
  for (const line of lines) {
    const project = app.demo.projects.find((p) => p.code === line.project)!;
    const documents = line.receipt ? [await upload('employee', `${line.description}.png`)] : [];
    answer = await devi.expenses.claims.lines.add.mutate(
      {
        id: answer.claim.id,
        type: 'receipt',
        expense_date: yesterday(),
        category_id: category.id,
        description: line.description,
        amount: line.amount,
        document_basis: 'relaxation_receipt',
        relaxation_reason: 'Handwritten receipt, no e-invoice',
        shares: [{ analytic_account_id: project.id, percentage: '100' }],
        documents,
      },
      ifMatch(answer.claim.revision),
    );
  }
  answer = await devi.expenses.claims.transition.mutate({ id: answer.claim.id, action_key: 'submit' }, ifMatch(answer.claim.revision));
  expect(answer.claim.state).toBe('review');
  return answer.claim;
}

const read = (role: BuiltInRole, id: string) => client(role).expenses.claims.get.query({ id });
const row = (page: Page, id: string) => page.locator(`[data-claim-row="${id}"]`);
const review = (page: Page) => page.locator('section[aria-labelledby="review-title"]');

async function openInbox(role: BuiltInRole, viewport: { width: number; height: number }, claim?: string, language: 'en' | 'ms' = 'en') {
  const page = await app.newPage({ ...viewport, language });
  await app.signIn(page, role, { next: claim ? `/inbox?claim=${claim}` : '/inbox' });
  await page.locator('[data-claim-row]').first().waitFor();
  return page;
}

describe.skipIf(!HAS_CHROMIUM)('the approver’s inbox, the payment queue and Me', () => {
  // The claimant (Devi) files the claims these tests decide, through the API, oldest first.
  beforeAll(async () => {
    for (const [key, title, lines] of [
      ['s', 'Taxi to the client', [{ project: 'P-PNG', amount: '60.00', description: 'Taxi' }]],
      ['x', 'Parking, site visits', [{ project: 'P-PNG', amount: '45.00', description: 'Parking' }]],
      ['y', 'Hired van, KLCC', [{ project: 'P-KLCC', amount: '1500.00', description: 'Hired van, three days' }]],
      ['z', 'Tolls, Penang run', [{ project: 'P-PNG', amount: '30.00', description: 'Tolls' }]],
      ['c2', 'Team lunch', [{ project: 'P-PNG', amount: '80.00', description: 'Lunch', receipt: true }]],
    ] as const) {
      const claim = await fileClaim(title, [...lines]);
      ids[key] = claim.id;
      refs[key] = claim.reference;
    }
  }, 60_000);

  it('a return asks its reason (an empty one is refused in the dialog); the claimant gets the claim back with it', async () => {
    const page = await openInbox('owner', DESKTOP, ids.c2);
    await poll(() => review(page).locator('h2').first().textContent()).toContain(refs.c2);
    await page.keyboard.press('r');
    const dialog = page.locator('dialog[open]');
    await dialog.waitFor();
    await dialog.locator('button[type="submit"]').click();
    await poll(() => dialog.innerText()).toContain('Write the reason.');
    expect((await read('owner', ids.c2)).claim.state).toBe('review');
    await dialog.locator('textarea[name="reason"]').fill('Attach the itemised bill, please');
    await dialog.locator('button[type="submit"]').click();
    await poll(async () => (await read('owner', ids.c2)).claim.state).toBe('draft');
    expect((await read('employee', ids.c2)).decisions.at(-1)).toMatchObject({ from: 'review', to: 'draft', reason: 'Attach the itemised bill, please', actor_member_id: app.member('owner').id });
  });

  it('bulk approve approves only the claims whose approve edge is allowed; a refused one is listed with its refusal and not sent', async () => {
    const page = await openInbox('owner', DESKTOP);
    for (const key of ['x', 'y', 'z'] as const) await row(page, ids[key]).locator('xpath=..').locator('input[type="checkbox"]').check();
    // Meanwhile the finance controller signs Y's review for the owner (her delegation): in finance its
    // KLCC share of 1,500.00 is above the owner's band.
    const y = await read('accountant', ids.y);
    await client('accountant').expenses.claims.transition.mutate({ id: ids.y, action_key: 'approve' }, ifMatch(y.claim.revision));
    const yForOwner = await read('owner', ids.y);
    const refusal = yForOwner.available_transitions.find((d) => d.action_key === 'approve');
    expect(refusal?.allowed).toBe(false);

    await page.getByRole('button', { name: 'Approve selected (3)' }).click();
    const dialog = page.locator('dialog[open]');
    await dialog.locator('[data-bulk="refused"]').waitFor();
    expect(await dialog.locator('[data-bulk="allowed"]').innerText()).toContain(refs.x);
    expect(await dialog.locator('[data-bulk="allowed"]').innerText()).toContain(refs.z);
    const refused = await dialog.locator('[data-bulk="refused"]').innerText();
    expect(refused).toContain(refs.y);
    expect(refused).toContain(refusal?.refusal?.detail ?? 'cannot be approved now');
    await dialog.getByRole('button', { name: 'Approve 2' }).click();
    await poll(() => dialog.innerText()).toContain('Approved:');
    expect((await read('owner', ids.x)).claim.state).toBe('finance');
    expect((await read('owner', ids.z)).claim.state).toBe('finance');
    const yAfter = await read('owner', ids.y);
    expect(yAfter.claim.revision).toBe(yForOwner.claim.revision);
    expect(yAfter.decisions.filter((d) => d.actor_member_id === app.member('owner').id)).toHaveLength(0);
  });

  it('a stale revision: changed through the API between load and click, the claim is reloaded and the page says someone else changed it', async () => {
    const page = await openInbox('owner', DESKTOP, ids.s);
    await poll(() => review(page).locator('h2').first().textContent()).toContain(refs.s);
    // (the page's reads settled first: one answered after the approval below would show it before the click)
    await app.settled(page);
    const s = await read('accountant', ids.s);
    await client('accountant').expenses.claims.transition.mutate({ id: ids.s, action_key: 'approve' }, ifMatch(s.claim.revision));
    await review(page).locator('button[aria-keyshortcuts="a"]').click();
    await poll(() => review(page).innerText()).toContain('Someone else changed this record. It has been reloaded; check it and try again.');
    await poll(() => review(page).innerText()).toContain('finance');
    const after = await read('owner', ids.s);
    expect(after.claim.state).toBe('finance');
    expect(after.decisions.filter((d) => d.actor_member_id === app.member('owner').id)).toHaveLength(0);
  });

  it('the payment queue asks what the bank charged for a bank-charged line: a figure beyond the tolerance is refused at its field with the way to refer it; within it, the claim is paid at that figure', async () => {
    // Devi's hotel in Singapore, 200.00 SGD charged by her bank as 693.18 MYR (the line's approved amount).
    const devi = client('employee');
    const channel = app.demo.payout_channels.find((c) => c.member_id === app.member('employee').id && c.active);
    const category = app.demo.expense_categories.find((c) => c.code === 'TRAVEL')!;
    const project = app.demo.projects.find((p) => p.code === 'P-PNG')!;
    let answer = await devi.expenses.claims.create.mutate({ title: 'Singapore hotel', payout_channel_id: channel?.id ?? null });
    answer = await devi.expenses.claims.lines.add.mutate(
      {
        id: answer.claim.id,
        type: 'receipt',
        expense_date: yesterday(),
        category_id: category.id,
        description: 'Hotel',
        currency: 'SGD',
        amount: '200.00',
        bank_charged_amount: '693.18',
        document_basis: 'foreign_supplier',
        supplier_country: 'SG',
        shares: [{ analytic_account_id: project.id, percentage: '100' }],
      },
      ifMatch(answer.claim.revision),
    );
    expect(answer.lines[0]).toMatchObject({ base_amount: '693.18', reimbursement_basis: 'bank_charged' });
    answer = await devi.expenses.claims.transition.mutate({ id: answer.claim.id, action_key: 'submit' }, ifMatch(answer.claim.revision));
    const id = answer.claim.id;
    // Review and finance signed through the API by whoever the claim offers approve to.
    for (let step = 0; step < 6 && (await read('owner', id)).claim.state !== 'approved'; step++) {
      let signed = false;
      for (const role of ['owner', 'accountant', 'clerk'] as const) {
        const seen = await read(role, id);
        if (!seen.available_transitions.find((d) => d.action_key === 'approve')?.allowed) continue;
        await client(role).expenses.claims.transition.mutate({ id, action_key: 'approve' }, ifMatch(seen.claim.revision));
        signed = true;
        break;
      }
      expect(signed, `nobody of owner, accountant and clerk may approve in ${(await read('owner', id)).claim.state}`).toBe(true);
    }
    expect((await read('owner', id)).claim.state).toBe('approved');

    const page = await app.newPage({ ...DESKTOP, language: 'en' });
    await app.signIn(page, 'accountant', { next: '/payments' });
    const card = page.locator(`[data-pay-claim="${id}"]`);
    await card.waitFor();
    const figure = card.getByLabel('Line 1: Hotel');
    await poll(() => figure.inputValue()).toBe('693.18');
    expect(await card.innerText()).toContain('Bank figures');
    const payButton = card.getByRole('button', { name: /^Pay/ });
    expect(await payButton.innerText()).toContain('693.18');
    // 900.00 is more than 5 % (the default tolerance) from 693.18: refused at the figure, nothing paid.
    await figure.fill('900.00');
    await card.getByRole('button', { name: /^Pay/ }).click();
    await poll(() => figure.getAttribute('aria-invalid')).toBe('true');
    expect(await card.innerText()).toContain('Refer the difference for approval, with the reason, instead of paying.');
    await card.getByRole('button', { name: /difference/i }).waitFor();
    expect((await read('accountant', id)).claim.state).toBe('approved');
    await app.axe(page);
    // 694.02 is within it: paid, and the settlement pays the bank's figure.
    await figure.fill('694.02');
    // What is paid is no longer the approved total: the button names no amount.
    await poll(() => payButton.innerText()).not.toContain('693.18');
    await payButton.click();
    await poll(() => card.count()).toBe(0);
    const paid = await read('accountant', id);
    expect(paid.claim.state).toBe('paid');
    expect(paid.settlements.map((s) => [s.amount, s.currency])).toEqual([['694.02', 'MYR']]);
    expect(app.pageErrors(page)).toEqual([]);
  }, 90_000);

  for (const language of ['en', 'ms'] as const) {
    for (const [size, viewport] of [['phone', PHONE], ['desktop', DESKTOP]] as const) {
      it(`axe: the inbox with a claim open, the payment queue and Me in ${language} at ${size} size`, async () => {
        const page = await openInbox('owner', viewport, undefined, language);
        await review(page).locator('h2').first().waitFor();
        await app.settled(page);
        await app.axe(page);
        await page.goto(`${app.url}/payments`);
        await page.locator('h1').waitFor();
        await app.settled(page);
        await app.axe(page);
        await page.goto(`${app.url}/me`);
        await page.locator('#channels-title').waitFor();
        await app.settled(page);
        await app.axe(page);
        expect(app.pageErrors(page)).toEqual([]);
      });
    }
  }

  it('change password: a wrong current one is said on its field; the right one ends the other session', async () => {
    const viewer = app.member('viewer');
    const other = await app.newPage({ ...DESKTOP, language: 'en' });
    await app.signIn(other, 'viewer', { next: '/me' });
    const page = await app.newPage({ ...PHONE, language: 'en' });
    await app.signIn(page, 'viewer', { next: '/me' });
    const current = page.getByLabel('Current password');
    await current.waitFor();
    await current.fill(`${viewer.password}-not`);
    await page.getByLabel('New password').fill('a brand new passphrase');
    await page.getByRole('button', { name: 'Change password' }).click();
    await poll(() => page.locator('#password-title').locator('xpath=..').innerText()).toContain('This is not your current password.');
    expect(new URL(page.url()).pathname).toBe('/me');
    await current.fill(viewer.password);
    await page.getByRole('button', { name: 'Change password' }).click();
    await poll(() => page.locator('#password-title').locator('xpath=..').innerText()).toContain('Your password is changed. Your other sessions have ended.');
    // The other browser is signed out; this one stays signed in.
    await other.reload();
    await other.waitForURL((u) => u.pathname === '/sign-in');
    await page.reload();
    await page.locator('#password-title').waitFor();
    expect(new URL(page.url()).pathname).toBe('/me');
    const login = await fetch(`${app.url}/trpc/auth.login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: viewer.email, password: 'a brand new passphrase' }) });
    expect(login.status).toBe(200);
  });
});
