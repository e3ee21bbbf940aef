import type { Page } from 'playwright-core';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { createHttpClient } from '../../src/client/http';
import type { BuiltInRole } from '../../src/domain/permissions';
import { CHROMIUM_MISSING, HAS_CHROMIUM, PHONE, useConsole } from './harness';

/**
 * Issue 26's acceptance journey on one claim, at phone size, each step in the browser of the person
 * who takes it and then checked through the API:
 *   (1) the claimant (Devi) signs in, files a claim with a receipt photo (a JPEG carrying an e-invoice
 *       QR code) charged to the KLCC project and a mileage line charged to the Penang project, submits;
 *   (2) her superior (the owner, Aisha) signs it from the inbox with the keyboard only (j, k, a);
 *   (3) the account approvers sign their shares: the KLCC project's approver is Aisha (up to 1,000.00),
 *       who has delegated to the finance controller (Ben); Penang has no approver of its own, so the
 *       project approvers' fallback, the finance controller's seat (Ben), signs it. Ben signs both
 *       shares in one approval, the KLCC one acting for Aisha, and the page says so;
 *   (4) the payer (Ben) pays it through Devi's channel with a proof of payment;
 *   (5) Devi, on her claim, sees it paid with the masked account.
 * The screenshots docs/console/1-… to 5-… are taken here (CONSOLE_SCREENSHOTS=1).
 */
if (!HAS_CHROMIUM) console.warn(`SKIPPED: ${CHROMIUM_MISSING}`);

const app = useConsole();

const EINVOICE_UUID = 'K7Q2M9X4D1R8T6Y3U5P0W2A4S6';
const year = new Date().getUTCFullYear();
/** Last year's June: no other mileage of the claimant that year, so the first band (0.80 per km) applies. */
const MILEAGE_DATE = `${year - 1}-06-15`;
// A real 1×1 PNG: the bank's payment slip.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** What the page shows after a server round trip or two: polled for up to 15 seconds. */
const poll = <T,>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 });
const read = (role: BuiltInRole, id: string) => createHttpClient({ baseUrl: app.url, token: app.member(role).api_key! }).expenses.claims.get.query({ id });
const row = (page: Page, id: string) => page.locator(`[data-claim-row="${id}"]`);
const review = (page: Page) => page.locator('section[aria-labelledby="review-title"]');
const focusedRow = (page: Page) => page.evaluate<string | null>("document.activeElement?.getAttribute('data-claim-row') ?? null");

/** A receipt photo as a phone takes it: a white slip with an e-invoice QR code (its validation link), encoded as JPEG by the page's canvas. */
async function receiptJpeg(page: Page): Promise<Buffer> {
  const qr = await QRCode.toDataURL(`https://myinvois.hasil.gov.my/${EINVOICE_UUID}/share/LIJAVF0ATNLAKN4QF1EHNEBK10`, { margin: 4, width: 360 });
  // Run in the page (the test's own TypeScript has no DOM types): the page's canvas encodes the JPEG.
  const base64 = (await page.evaluate(`(async () => {
    const img = new Image();
    img.src = ${JSON.stringify(qr)};
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = 900;
    canvas.height = 1200;
    const g = canvas.getContext('2d');
    g.fillStyle = '#fff';
    g.fillRect(0, 0, canvas.width, canvas.height);
    g.fillStyle = '#222';
    g.font = '36px sans-serif';
    g.fillText('Kedai Kopi Bangsar', 60, 100);
    g.fillText('Total RM 58.30', 60, 170);
    g.drawImage(img, 270, 600);
    return canvas.toDataURL('image/jpeg', 0.92).split(',')[1];
  })()`)) as string;
  return Buffer.from(base64, 'base64');
}

async function choose(page: Page, selector: string, label: string) {
  await page.locator(selector).selectOption({ label });
}

/** Closes the confirmations (they would cover the page in its picture). */
async function dismissToasts(page: Page) {
  for (const dismiss of await page.getByRole('button', { name: 'Dismiss' }).all()) await dismiss.click({ timeout: 2_000 }).catch(() => {});
  await poll(() => page.getByRole('button', { name: 'Dismiss' }).count()).toBe(0);
}

const journey: { claimId: string; reference: string } = { claimId: '', reference: '' };

describe.skipIf(!HAS_CHROMIUM)('one claim from the claimant’s phone to paid (issue 26’s acceptance journey)', () => {
  it('(1) the claimant signs in at 390 × 844 (the session is not readable by the page), files a receipt photo and a mileage line charged to projects, and submits', async () => {
    const page = await app.newPage({ ...PHONE, language: 'en' });
    await app.signIn(page, 'employee');

    // The session is an HttpOnly cookie: its token is nowhere the page's JavaScript can read it.
    const cookies = await page.context().cookies(app.url);
    const session = cookies.find((c) => c.httpOnly && c.value.length >= 20);
    expect(session, `an HttpOnly session cookie among ${cookies.map((c) => c.name).join(', ')}`).toBeDefined();
    expect(session!.sameSite).toBe('Strict');
    const readable = (await page.evaluate(`JSON.stringify({ cookie: document.cookie, local: Object.entries(localStorage), session: Object.entries(sessionStorage) })`)) as string;
    expect(readable).not.toContain(session!.value);
    expect(readable).not.toContain(session!.name);

    await page.getByRole('link', { name: 'My claims' }).click();
    await page.waitForURL((u) => u.pathname === '/claims');
    await poll(() => page.locator('h1').textContent()).toBe('My claims');
    await page.getByRole('link', { name: 'New claim' }).click();
    await page.waitForURL((u) => u.pathname === '/claims/new');
    await page.getByLabel('Title').fill('Client visit, Bangsar');
    await page.getByRole('button', { name: 'Create claim' }).click();
    await page.waitForURL((u) => /^\/claims\/[0-9a-f-]{36}$/.test(u.pathname));
    journey.claimId = new URL(page.url()).pathname.split('/')[2]!;
    await poll(() => page.locator('h1').textContent()).toBe('Client visit, Bangsar');
    await poll(() => page.getByTestId('claim-state').textContent()).toBe('Draft');

    // The receipt: the photo first (re-encoded, uploaded; its QR code fills the e-invoice UUID), on the KLCC project.
    await page.getByTestId('add-line').click();
    const form = page.getByTestId('line-form');
    await form.locator('input[name="photo"]').setInputFiles({ name: 'IMG_0412.jpg', mimeType: 'image/jpeg', buffer: await receiptJpeg(page) });
    await expect.poll(() => form.getByTestId('photo-status').textContent(), { timeout: 20_000 }).toContain('Attached');
    expect(await form.getByTestId('photo-status').textContent()).toContain(`E-invoice QR code found: UUID ${EINVOICE_UUID}`);
    expect(await form.locator('input[name="einvoice_uuid"]').inputValue()).toBe(EINVOICE_UUID);
    expect(await form.locator('select[name="document_basis"]').inputValue()).toBe('einvoice_employee');
    await choose(page, 'select[name="category_id"]', 'Meals and entertainment');
    await form.locator('input[name="description"]').fill('Lunch with the client');
    await form.locator('input[name="amount"]').fill('58.30');
    await form.locator('input[name="supplier_name"]').fill('Kedai Kopi Bangsar');
    await choose(page, 'select[name="shares.0.analytic_account_id"]', 'P-KLCC — KLCC fit-out');
    await form.getByTestId('save-line').click();
    await poll(() => page.locator('[data-line-type="receipt"]').count()).toBe(1);

    // The mileage line: 120 km at the first band's 0.80, on the Penang project.
    await page.getByTestId('add-line').click();
    await page.locator('select[name="type"]').selectOption('mileage');
    await page.locator('input[name="expense_date"]').fill(MILEAGE_DATE);
    await choose(page, 'select[name="category_id"]', 'Travel and transport');
    await page.locator('input[name="description"]').fill('Office to Bangsar and back');
    await choose(page, 'select[name="rate_id"]', 'Private car mileage');
    await page.locator('input[name="quantity"]').fill('120');
    await choose(page, 'select[name="shares.0.analytic_account_id"]', 'P-PNG — Penang warehouse');
    await page.getByTestId('save-line').click();
    await poll(() => page.locator('[data-line-type="mileage"]').count()).toBe(1);
    await poll(() => page.getByTestId('claim-total').textContent()).toContain('154.30');

    await page.locator('[data-action="submit"]').click();
    await poll(() => page.getByTestId('claim-state').textContent()).toBe('In review');
    await dismissToasts(page);
    await app.axe(page);
    await app.screenshot(page, '1-claimant-files');
    expect(app.pageErrors(page)).toEqual([]);

    // The API answers the claim in review with both lines, the receipt's photo and the exact total.
    const employee = app.member('employee');
    const answer = await read('employee', journey.claimId);
    journey.reference = answer.claim.reference;
    expect(answer.claim.state).toBe('review');
    expect(answer.claim.total).toBe('154.30');
    expect(answer.claim.claimant_member_id).toBe(employee.id);
    const lines = answer.lines.filter((l) => !l.withdrawn);
    expect(lines.map((l) => [l.type, l.base_amount])).toEqual([
      ['receipt', '58.30'],
      ['mileage', '96.00'],
    ]);
    expect(lines[0]!.einvoice_uuid).toBe(EINVOICE_UUID);
    expect(lines[0]!.documents).toHaveLength(1);
    const klcc = app.demo.projects.find((p) => p.code === 'P-KLCC')!;
    const penang = app.demo.projects.find((p) => p.code === 'P-PNG')!;
    expect(lines[0]!.shares).toEqual([{ analytic_account_id: klcc.id, percentage: '100' }]);
    expect(lines[1]!.shares).toEqual([{ analytic_account_id: penang.id, percentage: '100' }]);
    const uploaded = await fetch(`${app.url}/v1/documents/${lines[0]!.documents[0]}`, { headers: { authorization: `Bearer ${employee.api_key}` } });
    expect(uploaded.status).toBe(200);
    const doc = (await uploaded.json()) as { content_type: string; size: number };
    expect(doc.content_type).toBe('image/jpeg');
    expect(doc.size).toBeLessThanOrEqual(2 * 1024 * 1024);
    expect(answer.decisions.at(-1)).toMatchObject({ actor_member_id: employee.id, from: 'draft', to: 'review' });
  }, 120_000);

  it('(2) her superior signs it from the inbox with the keyboard only (j, k, a); the next claim is selected', async () => {
    const owner = app.member('owner');
    const before = await read('owner', journey.claimId);
    expect(before.available_transitions.find((d) => d.action_key === 'approve')?.allowed).toBe(true);

    const page = await app.newPage({ ...PHONE, language: 'en' });
    await app.signIn(page, 'owner', { next: '/inbox' });
    await row(page, journey.claimId).waitFor();
    // Newest first: the claim just filed leads the inbox and is open.
    await poll(() => row(page, journey.claimId).getAttribute('aria-current')).toBe('true');
    await poll(() => review(page).locator('h2').first().textContent()).toContain(journey.reference);
    const rows = await page.locator('[data-claim-row]').evaluateAll((els) => els.map((el) => el.getAttribute('data-claim-row')));
    expect(rows[0]).toBe(journey.claimId);
    // The demo has another of Devi's claims waiting for the owner: j moves to it, k back.
    const next = rows[1];
    expect(next, 'a second claim in the owner’s inbox').toBeTruthy();
    await page.keyboard.press('j');
    await poll(() => row(page, next!).getAttribute('aria-current')).toBe('true');
    expect(await focusedRow(page)).toBe(next);
    await page.keyboard.press('k');
    await poll(() => row(page, journey.claimId).getAttribute('aria-current')).toBe('true');
    await poll(() => review(page).locator('h2').first().textContent()).toContain(journey.reference);
    // The receipt photo is shown beside its line, through the content route and the cookie.
    await poll(() => review(page).locator('img').first().evaluate((el) => { const img = el as unknown as { complete: boolean; naturalWidth: number }; return img.complete && img.naturalWidth > 0; })).toBe(true);
    expect(await review(page).innerText()).toContain('Lunch with the client');
    await app.axe(page);
    await app.screenshot(page, '2-superior-signs');
    await page.keyboard.press('a');

    await poll(async () => (await read('owner', journey.claimId)).claim.state).toBe('finance');
    // Signed: the next claim is selected and focused.
    await poll(() => row(page, next!).getAttribute('aria-current')).toBe('true');
    await poll(() => focusedRow(page)).toBe(next);
    const after = await read('owner', journey.claimId);
    expect(after.claim.total).toBe('154.30');
    expect(after.decisions.at(-1)).toMatchObject({ actor_member_id: owner.id, authority_member_id: owner.id, via: 'grant', from: 'review', to: 'finance' });
    // In finance: one share per project, neither signed yet.
    expect(after.signoffs.map((s) => [s.account_code, s.amount, s.signed ?? null]).sort()).toEqual([
      ['P-KLCC', '58.30', null],
      ['P-PNG', '96.00', null],
    ]);
    expect(app.pageErrors(page)).toEqual([]);
  }, 90_000);

  it('(3) the account approvers sign their shares: the KLCC one by the finance controller acting for the owner, who delegated it; the page says "acting for"', async () => {
    const owner = app.member('owner');
    const ben = app.member('accountant');
    const klcc = app.demo.projects.find((p) => p.code === 'P-KLCC')!;
    const penang = app.demo.projects.find((p) => p.code === 'P-PNG')!;
    // The demo: the owner approves KLCC up to 1,000.00 and has delegated to the finance controller.
    expect(app.demo.approver_assignments).toContainEqual(expect.objectContaining({ analytic_account_id: klcc.id, member_id: owner.id, max_amount: '1000.00' }));
    expect(app.demo.delegations).toContainEqual(expect.objectContaining({ delegator_member_id: owner.id, delegate_member_id: ben.id }));
    const before = await read('accountant', journey.claimId);
    // Both shares wait, the KLCC one on the owner and on him as her delegate.
    const waiting = Object.fromEntries(before.signoffs.map((s) => [s.account_code, s]));
    expect(waiting['P-KLCC']).toMatchObject({ amount: '58.30' });
    expect(waiting['P-KLCC']!.signed).toBeUndefined();
    expect(waiting['P-KLCC']!.eligible).toEqual(expect.arrayContaining([owner.id, ben.id]));
    expect(waiting['P-PNG']).toMatchObject({ amount: '96.00' });
    expect(waiting['P-PNG']!.eligible).toContain(ben.id);
    const approve = before.available_transitions.find((d) => d.action_key === 'approve');
    expect(approve?.allowed).toBe(true);
    expect(approve?.signs).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ analytic_account_id: klcc.id, amount: '58.30', via: 'delegation', authority_member_id: owner.id }),
        expect.objectContaining({ analytic_account_id: penang.id, amount: '96.00', authority_member_id: ben.id }),
      ]),
    );

    const page = await app.newPage({ ...PHONE, language: 'en' });
    await app.signIn(page, 'accountant', { next: `/inbox?claim=${journey.claimId}` });
    await poll(() => review(page).locator('h2').first().textContent()).toContain(journey.reference);
    await poll(() => review(page).innerText()).toContain(`acting for ${owner.name}`);
    await app.axe(page);
    await review(page).locator('button[aria-keyshortcuts="a"]').scrollIntoViewIfNeeded();
    await app.screenshot(page, '3-account-approver-acting-for');
    await review(page).locator('button[aria-keyshortcuts="a"]').click();
    await poll(async () => (await read('accountant', journey.claimId)).claim.state).toBe('approved');

    const after = await read('accountant', journey.claimId);
    expect(after.claim.total).toBe('154.30');
    // The step's decision is his, on the owner's authority; every sign-off of finance is signed, none is left.
    expect(after.decisions.at(-1)).toMatchObject({ actor_member_id: ben.id, authority_member_id: owner.id, via: 'delegation', from: 'finance', to: 'approved' });
    expect(after.signoffs).toEqual([]);
    expect(after.available_transitions.find((d) => d.action_key === 'approve')).toBeUndefined();
    expect(app.pageErrors(page)).toEqual([]);
  }, 90_000);

  it('(4) the payer pays it from the payment queue through the claimant’s channel, with a proof of payment', async () => {
    const ben = app.member('accountant');
    const chosen = app.demo.payout_channels.find((c) => c.member_id === app.member('employee').id && c.active)!;
    const page = await app.newPage({ ...PHONE, language: 'en' });
    await app.signIn(page, 'accountant', { next: '/payments' });
    const card = page.locator(`[data-pay-claim="${journey.claimId}"]`);
    await card.waitFor();
    await poll(() => card.locator(`input[type="radio"][value="${chosen.id}"]`).isChecked()).toBe(true);
    expect(await card.innerText()).toContain(journey.reference);
    await card.locator('input[type="file"]').setInputFiles({ name: 'bank-slip.png', mimeType: 'image/png', buffer: PNG });
    const pay = card.getByRole('button', { name: /^Pay/ });
    expect(await pay.innerText()).toContain('154.30');
    await app.axe(page);
    await card.scrollIntoViewIfNeeded();
    await app.screenshot(page, '4-payer-pays');
    await pay.click();
    await poll(() => card.count()).toBe(0);

    const paid = await read('accountant', journey.claimId);
    expect(paid.claim.state).toBe('paid');
    expect(paid.settlements).toHaveLength(1);
    expect(paid.settlements[0]).toMatchObject({ channel_id: chosen.id, amount: '154.30', currency: 'MYR', settled_by: ben.id, proof_document_id: expect.any(String) });
    const proof = await fetch(`${app.url}/v1/documents/${paid.settlements[0]!.proof_document_id}`, { headers: { authorization: `Bearer ${ben.api_key}` } });
    expect(proof.status).toBe(200);
    expect(((await proof.json()) as { content_type: string }).content_type).toBe('image/png');

    // The payer's list of paid claims shows it with the masked account and the proof.
    const masked = paid.settlements[0]!.fields.map((f) => f.display).join(' · ');
    await page.getByRole('button', { name: 'Paid', exact: true }).click();
    const done = page.locator(`[data-paid-claim="${journey.claimId}"]`);
    await done.waitFor();
    await poll(() => done.locator('[data-settlement-account]').first().textContent()).toBe(masked);
    expect(await done.innerText()).toContain('Open the proof of payment');
    await app.axe(page);
    expect(app.pageErrors(page)).toEqual([]);
  }, 90_000);

  it('(5) the claimant, on her claim, sees it paid with the masked account', async () => {
    const mine = await read('employee', journey.claimId);
    expect(mine.claim.state).toBe('paid');
    expect(mine.claim.total).toBe('154.30');
    const settlement = mine.settlements[0]!;
    expect(settlement.amount).toBe('154.30');
    const masked = settlement.fields.map((f) => f.display).join(' · ');
    expect(masked).toMatch(/•+\d{4}/);
    expect(settlement.account_tail).toMatch(/^\d{4}$/);

    const page = await app.newPage({ ...PHONE, language: 'en' });
    await app.signIn(page, 'employee', { next: `/claims/${journey.claimId}` });
    await poll(() => page.getByTestId('claim-state').textContent()).toBe('Paid');
    const payment = page.locator('section[aria-labelledby="claim-payment"]');
    await poll(() => payment.locator('[data-settlement-account]').first().textContent()).toBe(masked);
    const text = await payment.innerText();
    // Her proof of payment opens for her too.
    const proof = await fetch(`${app.url}/v1/documents/${settlement.proof_document_id}/content`, { headers: { authorization: `Bearer ${app.member('employee').api_key}` } });
    expect(proof.status).toBe(200);
    expect(proof.headers.get('content-type')).toContain('image/png');
    expect(text).toContain(`Paid to ${settlement.channel_name}`);
    expect(text).toContain('154.30');
    // No write is offered on a paid claim.
    expect(await page.locator('[data-action="submit"]').count()).toBe(0);
    expect(await page.getByTestId('add-line').count()).toBe(0);
    await app.axe(page);
    await app.screenshot(page, '5-claimant-sees-paid');
    expect(app.pageErrors(page)).toEqual([]);
  }, 60_000);
});
