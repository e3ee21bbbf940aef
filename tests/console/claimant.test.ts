import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createHttpClient } from '../../src/client/http';
import { CHROMIUM_MISSING, DESKTOP, HAS_CHROMIUM, PHONE, useConsole, type Language } from './harness';

/**
 * The claimant's screens, phone first, beyond the one claim's journey (tests/console/journey.test.ts:
 * a receipt photo carrying an e-invoice QR code and a mileage line charged to projects, submitted,
 * paid): a 422 on a line field, then a stale revision, nothing typed lost; a claim returned by the
 * claimant's superior showing who and why at the top; the first screens in Bahasa Malaysia; axe on
 * each screen (my claims, a new claim, the line form, a claim with lines of several types) at both
 * sizes in both languages.
 */
if (!HAS_CHROMIUM) console.warn(`SKIPPED: ${CHROMIUM_MISSING}`);

const app = useConsole();

function api(token: string) {
  return createHttpClient({ baseUrl: app.url, token });
}
const key = () => ({ context: { idempotencyKey: randomUUID() } });
const revision = (n: number) => ({ context: { idempotencyKey: randomUUID(), ifMatch: `"${n}"` } });

async function choose(page: Page, selector: string, label: string) {
  await page.locator(selector).selectOption({ label });
}

const shared: { claimId?: string; returnedId?: string } = {};

describe.skipIf(!HAS_CHROMIUM)('the claimant files a claim from a phone', () => {
  it('a 422 on a line field is shown next to that field, and what was typed stays', async () => {
    const page = await app.newPage({ ...PHONE, language: 'en' });
    await app.signIn(page, 'employee', { next: '/claims/new' });
    await page.getByLabel('Title').fill('Taxi to the airport');
    await page.getByRole('button', { name: 'Create claim' }).click();
    await page.waitForURL((u) => /^\/claims\/[0-9a-f-]{36}$/.test(u.pathname));
    shared.claimId = new URL(page.url()).pathname.split('/')[2]!;
    await page.getByTestId('add-line').click();
    const future = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
    await page.locator('input[name="expense_date"]').fill(future);
    await choose(page, 'select[name="category_id"]', 'Travel and transport');
    await page.locator('input[name="description"]').fill('Taxi, KL Sentral to KLIA');
    await page.locator('input[name="amount"]').fill('95.00');
    await page.locator('select[name="document_basis"]').selectOption('relaxation_receipt');
    await page.locator('input[name="relaxation_reason"]').fill('Taxi driver gave a paper receipt');
    await choose(page, 'select[name="shares.0.analytic_account_id"]', 'P-KLCC — KLCC fit-out');
    await page.getByTestId('save-line').click();

    const date = page.locator('input[name="expense_date"]');
    await expect.poll(() => date.getAttribute('aria-invalid')).toBe('true');
    const errorId = (await date.getAttribute('aria-describedby'))!;
    expect(await page.locator(`[id="${errorId}"]`).textContent()).toContain('must not be after today');
    expect(await date.inputValue()).toBe(future);
    expect(await page.locator('input[name="description"]').inputValue()).toBe('Taxi, KL Sentral to KLIA');
    expect(await page.locator('input[name="amount"]').inputValue()).toBe('95.00');
    expect(await page.locator('input[name="relaxation_reason"]').inputValue()).toBe('Taxi driver gave a paper receipt');
    await app.axe(page);

    // Corrected, the same form saves.
    await date.fill(new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10));
    await page.getByTestId('save-line').click();
    await expect.poll(() => page.locator('[data-line-type="receipt"]').count()).toBe(1);
    await expect.poll(() => page.getByTestId('claim-total').textContent()).toContain('95.00');

    // Someone else changes the claim meanwhile (here the claimant from another device): the save
    // is refused as stale, the claim reloads and says so, the form keeps what was typed; saved again, it goes through.
    const claimId = new URL(page.url()).pathname.split('/')[2]!;
    const asEmployee = api(app.member('employee').session_token!);
    const current = await asEmployee.expenses.claims.get.query({ id: claimId });
    const advance = app.demo.expense_categories.find((c) => c.code === 'ADVANCE')!;
    const klcc = app.demo.projects.find((p) => p.code === 'P-KLCC')!;
    await asEmployee.expenses.claims.lines.add.mutate(
      { id: claimId, type: 'advance_offset', expense_date: current.lines[0]!.expense_date, category_id: advance.id, description: 'Cash advance', amount: '50.00', shares: [{ analytic_account_id: klcc.id, percentage: '100' }] },
      revision(current.claim.revision),
    );
    await page.getByTestId('add-line').click();
    await page.locator('select[name="type"]').selectOption('per_diem');
    await choose(page, 'select[name="category_id"]', 'Meals and entertainment');
    await page.locator('input[name="description"]').fill('Day trip to Melaka');
    await choose(page, 'select[name="rate_id"]', 'Daily subsistence allowance');
    await page.locator('select[name="band"]').selectOption('peninsular');
    await page.locator('input[name="quantity"]').fill('1');
    await choose(page, 'select[name="shares.0.analytic_account_id"]', 'P-KLCC — KLCC fit-out');
    await page.getByTestId('save-line').click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Someone else changed this record' }).count()).toBe(1);
    await expect.poll(() => page.locator('[data-line-type="advance_offset"]').count()).toBe(1);
    expect(await page.locator('input[name="description"]').inputValue()).toBe('Day trip to Melaka');
    expect(await page.locator('input[name="quantity"]').inputValue()).toBe('1');
    await page.getByTestId('save-line').click();
    await expect.poll(() => page.locator('[data-line-type="per_diem"]').count()).toBe(1);
    // 95.00 − 50.00 + 80.00
    await expect.poll(() => page.getByTestId('claim-total').textContent()).toContain('125.00');
    expect((await asEmployee.expenses.claims.get.query({ id: claimId })).claim.total).toBe('125.00');
  }, 90_000);

  it('a claim returned by the superior shows who returned it and why, at the top; my claims lists it under Returned to me', async () => {
    const employee = app.member('employee');
    const owner = app.member('owner');
    const asEmployee = api(employee.session_token!);
    const klcc = app.demo.projects.find((p) => p.code === 'P-KLCC')!;
    const meals = app.demo.expense_categories.find((c) => c.code === 'MEALS')!;
    const created = await asEmployee.expenses.claims.create.mutate({ title: 'Team dinner' }, key());
    const id = created.claim.id;
    const withLine = await asEmployee.expenses.claims.lines.add.mutate(
      {
        id,
        type: 'receipt',
        expense_date: new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10),
        category_id: meals.id,
        description: 'Dinner after the stock take',
        amount: '240.00',
        document_basis: 'relaxation_receipt',
        relaxation_reason: 'Hawker stall, no e-invoice',
        shares: [{ analytic_account_id: klcc.id, percentage: '100' }],
      },
      revision(created.claim.revision),
    );
    const submitted = await asEmployee.expenses.claims.transition.mutate({ id, action_key: 'submit' }, revision(withLine.claim.revision));
    const reason = 'Split the alcohol out: it is not claimable.';
    const returned = await api(owner.session_token!).expenses.claims.transition.mutate({ id, action_key: 'return', reason }, revision(submitted.claim.revision));
    expect(returned.claim.state).toBe('draft');
    shared.returnedId = id;

    const page = await app.newPage({ ...PHONE, language: 'en' });
    await app.signIn(page, 'employee', { next: `/claims/${id}` });
    const banner = page.getByTestId('returned-banner');
    await expect.poll(() => banner.textContent(), { timeout: 15_000 }).toContain(`Returned to you by ${owner.name}`);
    expect(await banner.textContent()).toContain(reason);
    // At the top: before the claim's heading.
    const [bannerBox, headingBox] = [await banner.boundingBox(), await page.locator('h1').boundingBox()];
    expect(bannerBox!.y).toBeLessThan(headingBox!.y);
    expect(await page.locator('[data-action="submit"]').isEnabled()).toBe(true);

    await page.goto(`${app.url}/claims?state=returned`);
    const card = page.locator('[data-claim-reference]', { hasText: 'Team dinner' });
    await expect.poll(() => card.count(), { timeout: 15_000 }).toBe(1);
    expect(await card.textContent()).toContain(reason);
    expect(await page.locator('[data-claim-reference]').count()).toBe(1);
  }, 90_000);

  it('the first screens in Bahasa Malaysia show Malay words', async () => {
    const page = await app.newPage({ ...PHONE, language: 'ms' });
    await app.signIn(page, 'employee', { next: '/claims' });
    await expect.poll(() => page.locator('h1').textContent()).toBe('Tuntutan saya');
    expect(await page.getByRole('link', { name: 'Tuntutan baharu' }).count()).toBe(1);
    expect(await page.getByLabel('Tunjukkan tuntutan').count()).toBe(1);
    await expect.poll(() => page.locator('main').textContent()).toContain('Jumlah');
    await page.getByRole('link', { name: 'Tuntutan baharu' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Tuntutan baharu');
    expect(await page.getByLabel('Tajuk').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Cipta tuntutan' }).count()).toBe(1);
    await page.goto(`${app.url}/claims/${shared.returnedId}`);
    await expect.poll(() => page.getByTestId('returned-banner').textContent()).toContain('Dikembalikan kepada anda oleh');
    expect(await page.locator('[data-action="submit"]').textContent()).toBe('Hantar');
  }, 60_000);

  for (const language of ['en', 'ms'] as const satisfies readonly Language[]) {
    for (const [size, viewport] of [['phone', PHONE], ['desktop', DESKTOP]] as const) {
      it(`axe passes on my claims, the claim editor and a returned claim in ${language} at ${size} size`, async () => {
        const page = await app.newPage({ ...viewport, language });
        await app.signIn(page, 'employee', { next: '/claims' });
        await page.locator('[data-claim-reference]').first().waitFor();
        await app.axe(page);
        await page.goto(`${app.url}/claims/new`);
        await page.locator('input[name="title"]').waitFor();
        await app.axe(page);
        await page.goto(`${app.url}/claims/${shared.returnedId}`);
        await page.getByTestId('returned-banner').waitFor();
        await page.getByTestId('add-line').click();
        await page.getByTestId('line-form').waitFor();
        await page.locator('select[name="document_basis"]').selectOption('einvoice_employee');
        await app.axe(page);
        await page.locator('select[name="type"]').selectOption('per_diem');
        await app.axe(page);
        await page.goto(`${app.url}/claims/${shared.claimId}`);
        await page.locator('[data-line-type="per_diem"]').waitFor();
        await app.axe(page);
        expect(app.pageErrors(page)).toEqual([]);
      }, 90_000);
    }
  }
});
