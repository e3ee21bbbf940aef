import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHttpClient, type HttpClient } from '../../src/client/http';
import { makeCertificate } from '../helpers/einvoicing';
import { CHROMIUM_MISSING, DESKTOP, HAS_CHROMIUM, PHONE, useConsole } from './harness';

/**
 * The owner of a new organization (made with the admin CLI, no demo data) sets it up in the console:
 * the seller identity on the profile, the default tax codes and accounts checked and one of their own
 * added, a member with the accountant role; the role editor refuses the owner's own lock-out with the
 * server's detail and what to do; the settings history shows who did it. Each step checks the page
 * and then the API; axe on every screen; phone and desktop; the members step in Bahasa Malaysia.
 */
if (!HAS_CHROMIUM) console.warn(`SKIPPED: ${CHROMIUM_MISSING}`);

const OWNER = { name: 'Nurul Owner', email: 'nurul@kedai-baru.test', password: 'owner passphrase 2026' };
// The operator's intermediary system is configured, so the owner may choose it.
const app = useConsole({
  organization: { name: 'Kedai Baru Sdn Bhd', ownerName: OWNER.name, ownerEmail: OWNER.email, ownerPassword: OWNER.password },
  env: { MYINVOIS_INTERMEDIARY_CLIENT_ID: 'operator-intermediary', MYINVOIS_INTERMEDIARY_CLIENT_SECRET: 'operator intermediary secret' },
});

/** A PKCS#12 file (.p12) of a new certificate naming the organization's TIN and BRN, made with openssl as a CA would issue it. */
function pkcs12File(passphrase: string): string {
  const cert = makeCertificate('/CN=Kedai Baru/O=Kedai Baru Sdn Bhd/C=MY/serialNumber=202401012345/organizationIdentifier=C20880050010');
  const dir = mkdtempSync(join(tmpdir(), 'console-p12-'));
  writeFileSync(join(dir, 'c.pem'), cert.pem);
  writeFileSync(join(dir, 'k.pem'), cert.private_key);
  execFileSync('openssl', ['pkcs12', '-export', '-in', join(dir, 'c.pem'), '-inkey', join(dir, 'k.pem'), '-out', join(dir, 'kedai-baru.p12'), '-passout', `pass:${passphrase}`], { stdio: 'ignore' });
  return join(dir, 'kedai-baru.p12');
}

const poll = <T,>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 });

/** The owner's own client over tRPC with a session token (the API the page's answers are checked against). */
let api: HttpClient;

async function sessionToken(email: string, password: string): Promise<string> {
  const res = await fetch(`${app.url}/trpc/auth.login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  const body = (await res.json()) as { result: { data: { session_token: string } } };
  return body.result.data.session_token;
}

async function toast(page: Page, text: string) {
  await poll(() => page.locator('[aria-live="polite"]').innerText()).toContain(text);
}

describe.skipIf(!HAS_CHROMIUM)('the owner sets up a new organization', () => {
  let desktop: Page;
  let phone: Page;

  beforeAll(async () => {
    api = createHttpClient({ baseUrl: app.url, token: await sessionToken(OWNER.email, OWNER.password) });
    desktop = await app.newPage({ ...DESKTOP, language: 'en' });
    phone = await app.newPage({ ...PHONE, language: 'ms' });
    await app.signIn(desktop, OWNER);
    await app.signIn(phone, OWNER);
  }, 60_000);

  it('the checklist on /settings comes from the readiness answer: a new organization lacks a customer and the seller identity; every settings screen is listed; axe at both sizes', async () => {
    const readiness = await api.organization.readiness.query();
    const invoicing = readiness.areas.find((a) => a.key === 'invoicing')!;
    expect(invoicing.ready).toBe(false);
    expect(Object.fromEntries(invoicing.items.map((i) => [i.key, i.done]))).toEqual({
      'customers.any': false,
      'accounts.any': true,
      'tax_codes.any': true,
      'members.issuer': true,
      // The journal's control accounts resolve to the default chart of a new organization.
      'journal.receivables_accounts': true,
    });
    await desktop.goto(`${app.url}/settings`);
    await poll(() => desktop.locator('h1').textContent()).toBe('Settings');
    const area = desktop.locator('[data-area="invoicing"]');
    await poll(() => area.getAttribute('data-ready')).toBe('false');
    expect(await area.locator('[data-item="customers.any"]').getAttribute('data-done')).toBe('false');
    expect(await area.locator('[data-item="customers.any"]').innerText()).toContain(invoicing.items.find((i) => i.key === 'customers.any')!.detail);
    expect(await area.locator('[data-item="tax_codes.any"]').getAttribute('data-done')).toBe('true');
    expect(await area.locator('[data-item="accounts.any"]').getAttribute('data-done')).toBe('true');
    await poll(() => desktop.locator('[data-area="einvoicing"] [data-item="profile.seller_identity"]').getAttribute('data-done')).toBe('false');
    for (const title of ['Members', 'Roles', 'Chart of accounts', 'Tax codes', 'Approval grants and bands', 'Counterparty map', 'Settings history', 'Integration keys', 'E-invoicing', 'Collections']) {
      expect(await desktop.getByRole('link', { name: new RegExp(title) }).count(), title).toBeGreaterThan(0);
    }
    await app.axe(desktop);
    await app.screenshot(desktop, '6-owner-settings-checklist');
    await phone.goto(`${app.url}/settings`);
    await poll(() => phone.locator('h1').textContent()).toBe('Tetapan');
    await poll(() => phone.locator('[data-area]').count()).toBe(3);
    await app.axe(phone);
    expect(app.pageErrors(desktop)).toEqual([]);
  });

  it('the profile, from the checklist: the seller identity saved; a malformed MSIC code refused on its field; the item is done', async () => {
    await desktop.goto(`${app.url}/settings`);
    await desktop.locator('[data-area="einvoicing"]').getByRole('link', { name: 'The seller identity' }).click();
    await poll(() => desktop.locator('h1').textContent()).toBe('Organization and seller identity');
    await app.axe(desktop);
    await desktop.getByLabel('Tax identification number (TIN)').fill('C20880050010');
    await desktop.getByLabel('Business registration number (BRN)').fill('202401012345');
    await desktop.getByLabel('MSIC code').fill('46510');
    await desktop.getByLabel('Business activity').fill('Wholesale of computer hardware');
    await desktop.getByLabel('Phone').fill('+60312345678');
    await desktop.getByLabel('Address line 1').fill('Lot 5, Jalan Teknologi');
    await desktop.getByLabel('City').fill('Petaling Jaya');
    await desktop.getByLabel('Postcode').fill('47810');
    await desktop.getByLabel('State').selectOption('10');
    await desktop.getByRole('button', { name: 'Save' }).click();
    await toast(desktop, 'The organization’s profile is saved.');
    const profile = await api.organization.profile.get.query();
    expect(profile).toMatchObject({ tin: 'C20880050010', registration_no: '202401012345', msic: '46510', phone: '+60312345678', address: { line1: 'Lot 5, Jalan Teknologi', city: 'Petaling Jaya', postcode: '47810', state: '10', country_code: 'MY' } });
    // The server's refusal lands on its field.
    await desktop.getByLabel('MSIC code').fill('123');
    await desktop.getByRole('button', { name: 'Save' }).click();
    await poll(() => desktop.locator('[aria-invalid="true"]').getAttribute('name')).toBe('msic');
    await app.axe(desktop);
    expect((await api.organization.profile.get.query()).msic).toBe('46510');
    await desktop.getByRole('link', { name: '← Settings' }).click();
    await poll(() => desktop.locator('[data-area="einvoicing"] [data-item="profile.seller_identity"]').getAttribute('data-done')).toBe('true');
    const einvoicing = (await api.organization.readiness.query()).areas.find((a) => a.key === 'einvoicing')!;
    expect(einvoicing.items.find((i) => i.key === 'profile.seller_identity')?.done).toBe(true);
  });

  it('a customer, from the checklist: the link leads to the customers screen, a customer is created there; invoicing is ready', async () => {
    await desktop.locator('[data-area="invoicing"]').getByRole('link', { name: 'A customer' }).click();
    await poll(() => new URL(desktop.url()).pathname).toBe('/customers');
    await poll(() => desktop.locator('h1').textContent()).toBe('Customers');
    await desktop.getByRole('link', { name: 'New customer' }).click();
    await desktop.getByLabel('Code', { exact: true }).fill('C001');
    await desktop.getByLabel('Legal name', { exact: true }).fill('Syarikat Pelanggan Sdn Bhd');
    await desktop.getByRole('button', { name: 'Create customer' }).click();
    await toast(desktop, 'Customer Syarikat Pelanggan Sdn Bhd created.');
    const { customers } = await api.receivables.customers.list.query({});
    expect(customers.map((c) => [c.code, c.legal_name, c.is_active])).toEqual([['C001', 'Syarikat Pelanggan Sdn Bhd', true]]);
    await desktop.goto(`${app.url}/settings`);
    await poll(() => desktop.locator('[data-area="invoicing"]').getAttribute('data-ready')).toBe('true');
    await app.axe(desktop);
    expect((await api.organization.readiness.query()).areas.find((a) => a.key === 'invoicing')?.ready).toBe(true);
  });

  it('tax codes and accounts: the defaults are listed; a code already in use is refused on its field; a new account is created, changed and deactivated', async () => {
    const defaults = await api.settings.taxCodes.list.query({ limit: 100 });
    expect(defaults.items.length).toBeGreaterThan(0);
    await desktop.goto(`${app.url}/settings/reference/taxCodes`);
    await poll(() => desktop.locator('h1').textContent()).toBe('Tax codes');
    await poll(() => desktop.locator('[data-record-id]').count()).toBe(defaults.items.length);
    await app.axe(desktop);

    const accounts = await api.settings.accounts.list.query({ limit: 100 });
    const taken = accounts.items[0]!;
    await desktop.goto(`${app.url}/settings/reference/accounts`);
    await poll(() => desktop.locator('h1').textContent()).toBe('Chart of accounts');
    await poll(() => desktop.locator('[data-record-id]').count()).toBe(accounts.items.length);
    await desktop.getByRole('button', { name: 'New', exact: true }).click();
    const form = desktop.getByTestId('record-form');
    await form.getByLabel('Code').fill(taken.code);
    await form.getByLabel('Name').fill('Consulting income');
    await form.getByLabel('Type').selectOption('revenue');
    await form.getByRole('button', { name: 'Create' }).click();
    await poll(() => form.locator('[aria-invalid="true"]').getAttribute('name')).toBe('code');
    expect(await form.innerText()).toContain('is already in use');
    await app.axe(desktop);

    await form.getByLabel('Code').fill('4710');
    await form.getByRole('button', { name: 'Create' }).click();
    await toast(desktop, '4710 Consulting income created.');
    const created = (await api.settings.accounts.list.query({ limit: 100 })).items.find((a) => a.code === '4710');
    expect(created).toMatchObject({ name: 'Consulting income', type: 'revenue', active: true });

    await desktop.getByRole('button', { name: 'Edit 4710 Consulting income' }).click();
    await form.getByLabel('Name').fill('Consulting fees');
    await form.getByRole('button', { name: 'Save' }).click();
    await toast(desktop, '4710 Consulting fees saved.');
    await desktop.getByRole('button', { name: 'Deactivate 4710 Consulting fees' }).click();
    await desktop.getByRole('dialog').getByRole('button', { name: 'Deactivate' }).click();
    await toast(desktop, '4710 Consulting fees is deactivated.');
    const after = (await api.settings.accounts.list.query({ limit: 100, include_inactive: true })).items.find((a) => a.code === '4710');
    expect(after).toMatchObject({ name: 'Consulting fees', active: false, revision: created!.revision + 2 });
    expect(app.pageErrors(desktop)).toEqual([]);
  });

  it('a family with bands: a mileage rate with two bands is created from the form; a band out of order is refused', async () => {
    await desktop.goto(`${app.url}/settings/reference/mileageRates`);
    await poll(() => desktop.locator('h1').textContent()).toBe('Mileage rates');
    await desktop.getByRole('button', { name: 'New', exact: true }).click();
    const form = desktop.getByTestId('record-form');
    await form.getByLabel('Name').fill('Car 2026');
    await form.getByLabel('From', { exact: true }).fill('2026-01-01');
    await form.getByRole('button', { name: 'Add a band' }).click();
    await form.getByRole('button', { name: 'Add a band' }).click();
    const band = (n: number) => form.getByRole('group', { name: `Band ${n}`, exact: true });
    await band(1).getByLabel('Band', { exact: true }).fill('first 500 km');
    await band(1).getByLabel('From km').fill('0');
    await band(1).getByLabel('To km (exclusive)').fill('500');
    await band(1).getByLabel('Rate per km').fill('0.80');
    await band(2).getByLabel('Band', { exact: true }).fill('beyond');
    await band(2).getByLabel('From km').fill('600');
    await band(2).getByLabel('Rate per km').fill('0.50');
    await form.getByRole('button', { name: 'Create' }).click();
    await poll(() => form.locator('[aria-invalid="true"]').count()).toBeGreaterThan(0);
    await app.axe(desktop);
    expect((await api.settings.mileageRates.list.query({ limit: 100 })).items).toEqual([]);
    await band(2).getByLabel('From km').fill('500');
    await form.getByRole('button', { name: 'Create' }).click();
    await toast(desktop, 'Car 2026 created.');
    const [rate] = (await api.settings.mileageRates.list.query({ limit: 100 })).items;
    expect(rate).toMatchObject({ name: 'Car 2026', currency: 'MYR', valid_from: '2026-01-01', bands: [{ band: 'first 500 km', from_km: '0', to_km: '500', rate_per_km: '0.8' }, { band: 'beyond', from_km: '500', to_km: null, rate_per_km: '0.5' }] });
  });

  it('members, in Bahasa Malaysia on a phone: an employee added, the checklist asks for an issuer, an accountant added makes invoicing ready; the owner’s own lock-out is refused with what to do', async () => {
    await phone.goto(`${app.url}/settings/members`);
    await poll(() => phone.locator('h1').textContent()).toBe('Ahli');
    await poll(() => phone.locator('[data-member-email]').count()).toBe(1);
    await app.axe(phone);
    // An employee who files claims: nobody but the owner could then issue the owner's invoices.
    await phone.getByLabel('Nama').fill('Ali Pekerja');
    await phone.getByLabel('E-mel').fill('ali@kedai-baru.test');
    await phone.getByRole('group', { name: 'Peranan' }).getByLabel('Employee').check();
    await phone.getByRole('button', { name: 'Tambah ahli' }).click();
    await toast(phone, 'Ali Pekerja kini seorang ahli.');
    await phone.getByRole('link', { name: '← Tetapan' }).click();
    const issuer = phone.locator('[data-area="invoicing"] [data-item="members.issuer"]');
    await poll(() => issuer.getAttribute('data-done')).toBe('false');
    expect(await issuer.innerText()).toContain('Add a member who may issue invoices');
    await app.axe(phone);
    await issuer.getByRole('link', { name: 'Ahli yang mengeluarkan invois' }).click();
    await poll(() => phone.locator('h1').textContent()).toBe('Ahli');
    await phone.getByLabel('Nama').fill('Aina Akauntan');
    await phone.getByLabel('E-mel').fill('aina@kedai-baru.test');
    await phone.getByLabel('Kata laluan (pilihan)').fill('accountant passphrase 1');
    await phone.getByRole('group', { name: 'Peranan' }).getByLabel('Accountant').check();
    await phone.getByRole('button', { name: 'Tambah ahli' }).click();
    await toast(phone, 'Aina Akauntan kini seorang ahli.');
    await poll(() => phone.locator('[data-member-email="aina@kedai-baru.test"]').innerText()).toContain('Accountant');
    const members = (await api.organization.members.list.query({ limit: 100 })).items;
    expect(members.find((m) => m.email === 'aina@kedai-baru.test')).toMatchObject({ name: 'Aina Akauntan', roles: ['accountant'], active: true });
    // The accountant can sign in with the password given.
    expect(await sessionToken('aina@kedai-baru.test', 'accountant passphrase 1')).toMatch(/^fs_/);
    await phone.getByRole('link', { name: '← Tetapan' }).click();
    await poll(() => phone.locator('[data-area="invoicing"]').getAttribute('data-ready')).toBe('true');
    expect((await api.organization.readiness.query()).areas.find((a) => a.key === 'invoicing')?.ready).toBe(true);
    await app.screenshot(phone, '7-owner-checklist-phone-ms');
    await phone.goto(`${app.url}/settings/members`);
    await poll(() => phone.locator('[data-member-email]').count()).toBe(3);

    // The owner tries to give up the owner role: the server refuses (self_lockout).
    await phone.getByRole('button', { name: `Peranan ${OWNER.name}` }).click();
    const dialog = phone.getByRole('dialog');
    await dialog.getByLabel('Owner').uncheck();
    await dialog.getByLabel('Accountant').check();
    await dialog.getByRole('button', { name: 'Simpan peranan' }).click();
    await poll(() => dialog.locator('[data-problem-code]').getAttribute('data-problem-code')).toBe('self_lockout');
    const alert = await dialog.getByRole('alert').innerText();
    expect(alert).toContain('The change would leave you without organization.roles.manage');
    expect(alert).toContain('Kekalkan sekurang-kurangnya seorang ahli aktif yang mengurus peranan');
    await app.axe(phone);
    const owner = (await api.organization.members.list.query({ limit: 100 })).items.find((m) => m.email === OWNER.email);
    expect(owner).toMatchObject({ roles: ['owner'], active: true });
    await dialog.getByRole('button', { name: 'Batal' }).click();
    expect(app.pageErrors(phone)).toEqual([]);
  });

  it('the role editor: a custom role created with two permissions; removing role management from the owner role is refused (self_lockout)', async () => {
    await desktop.goto(`${app.url}/settings/roles`);
    await poll(() => desktop.locator('h1').textContent()).toBe('Roles');
    await desktop.getByRole('button', { name: 'New role' }).click();
    await desktop.getByLabel('Key').fill('auditor');
    await desktop.getByLabel('Name').fill('Auditor');
    await desktop.getByLabel(/See invoices and notes/).check();
    await desktop.getByLabel(/See the settings/).check();
    await desktop.getByRole('button', { name: 'Create role' }).click();
    await toast(desktop, 'Role Auditor created.');
    const roles = (await api.organization.roles.list.query({ limit: 100 })).items;
    expect(roles.find((r) => r.key === 'auditor')).toMatchObject({ name: 'Auditor', permissions: ['organization.settings.read', 'receivables.invoice.read'], built_in: false });
    await app.axe(desktop);

    await desktop.getByRole('button', { name: /^Owner/ }).click();
    const form = desktop.getByTestId('role-form');
    await form.getByLabel(/Manage roles organization\.roles\.manage$/).uncheck();
    await form.getByRole('button', { name: 'Save role' }).click();
    await poll(() => form.locator('[data-problem-code]').getAttribute('data-problem-code')).toBe('self_lockout');
    expect(await form.getByRole('alert').innerText()).toContain('Keep at least one active member who manages roles');
    await app.axe(desktop);
    const owner = (await api.organization.roles.list.query({ limit: 100 })).items.find((r) => r.key === 'owner');
    expect(owner?.permissions).toContain('organization.roles.manage');
  });

  it('integration keys: a key for the accountant with one of her permissions and an expiry, its secret shown once; it works, its last use is listed; revoked, it is refused', async () => {
    await desktop.goto(`${app.url}/settings/keys`);
    await poll(() => desktop.locator('h1').textContent()).toBe('Integration keys');
    await app.axe(desktop);
    const form = desktop.getByTestId('key-form');
    await form.getByLabel('Member').selectOption({ label: 'Aina Akauntan' });
    await form.getByLabel('Name').fill('Online shop');
    await form.getByLabel(/See customers/).check();
    const expiry = new Date(Date.now() + 30 * 86_400_000);
    await form.getByLabel('Expires at (optional)').fill(`${expiry.toISOString().slice(0, 10)}T17:00`);
    await form.getByRole('button', { name: 'Create key' }).click();
    const secret = (await desktop.getByTestId('new-secret').innerText()).trim();
    expect(secret).toMatch(/^fk_/);
    await app.axe(desktop);
    const [key] = (await api.organization.apiKeys.list.query({})).items;
    expect(key).toMatchObject({ name: 'Online shop', owner_member_name: 'Aina Akauntan', permissions: ['receivables.customer.read'], state: 'active', last_used_at: null });
    expect(key!.expires_at?.slice(0, 10)).toBe(expiry.toISOString().slice(0, 10));
    // The secret is not shown again once dismissed, nor by the list.
    await desktop.getByRole('button', { name: 'I have copied it' }).click();
    expect(await desktop.locator('body').innerText()).not.toContain(secret);

    const used = await fetch(`${app.url}/v1/receivables/customers`, { headers: { authorization: `Bearer ${secret}` } });
    expect(used.status).toBe(200);
    await desktop.reload();
    await poll(() => desktop.locator(`[data-key-id="${key!.id}"] [data-testid="last-used"]`).innerText()).not.toBe('Never');
    expect((await api.organization.apiKeys.list.query({})).items[0]?.last_used_at).not.toBeNull();

    await desktop.getByRole('button', { name: 'Revoke Online shop' }).click();
    await desktop.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await toast(desktop, 'The key Online shop is revoked.');
    await poll(() => desktop.locator(`[data-key-id="${key!.id}"]`).getAttribute('data-state')).toBe('revoked');
    expect((await fetch(`${app.url}/v1/receivables/customers`, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(401);
    expect(app.pageErrors(desktop)).toEqual([]);
  });

  it('e-invoicing settings: turning it on without credentials is refused; the connection test shows the server’s steps; a client id and secret saved, the secret never shown', async () => {
    await desktop.goto(`${app.url}/settings/einvoicing`);
    await poll(() => desktop.locator('h1').textContent()).toBe('E-invoicing');
    await app.axe(desktop);
    const form = desktop.getByTestId('einvoicing-form');
    await form.getByLabel('Send issued documents to MyInvois').check();
    await form.getByRole('button', { name: 'Save e-invoicing settings' }).click();
    await poll(() => form.getByRole('alert').count()).toBeGreaterThan(0);
    expect((await api.settings.einvoicing.get.query()).enabled).toBe(false);
    await app.axe(desktop);
    // The connection test, before any credentials: each step as the server answers it.
    const panel = desktop.getByTestId('connection-test');
    await panel.getByRole('button', { name: 'Test the connection' }).click();
    await poll(() => panel.locator('[data-step]').count()).toBeGreaterThan(0);
    const answer = await api.settings.einvoicing.testConnection.mutate(undefined, { context: { idempotencyKey: crypto.randomUUID() } });
    expect(await panel.locator('[role="status"]').getAttribute('data-ok')).toBe(String(answer.ok));
    for (const step of answer.steps) {
      const shown = panel.locator(`[data-step="${step.key}"]`);
      expect(await shown.getAttribute('data-ok'), step.key).toBe(String(step.ok));
      expect(await shown.innerText()).toContain(step.detail);
    }
    expect(answer).toMatchObject({ ok: false, steps: [{ key: 'credentials', ok: false }] });
    await app.axe(desktop);
    await form.getByLabel('Send issued documents to MyInvois').uncheck();
    await form.getByLabel('Client ID').fill('kedai-baru-client');
    await form.getByLabel('Client secret').fill('a secret from the portal');
    await form.getByRole('button', { name: 'Save e-invoicing settings' }).click();
    await toast(desktop, 'E-invoicing settings saved.');
    const saved = await api.settings.einvoicing.get.query();
    expect(saved).toMatchObject({ enabled: false, client_id: 'kedai-baru-client', client_secret_set: true });
    await poll(() => form.getByText('Client secret saved').count()).toBe(1);
    expect(await form.getByLabel('Client secret').inputValue()).toBe('');
    expect(await desktop.locator('body').innerText()).not.toContain('a secret from the portal');

    // The signing certificate as a PKCS#12 file: a wrong passphrase is refused at the file, the right one saves it.
    const p12 = pkcs12File('p12 passphrase');
    await form.getByLabel('Certificate file type').selectOption('pkcs12');
    await form.getByLabel('PKCS#12 file (.p12 or .pfx)', { exact: true }).setInputFiles(p12);
    await form.getByLabel('Key passphrase (if any)').fill('not the passphrase');
    await form.getByRole('button', { name: 'Save e-invoicing settings' }).click();
    await poll(() => form.locator('[aria-invalid="true"][name="certificate.pkcs12"]').count()).toBe(1);
    expect((await api.settings.einvoicing.get.query()).certificate).toBeNull();
    await app.axe(desktop);
    await form.getByLabel('Key passphrase (if any)').fill('p12 passphrase');
    await form.getByRole('button', { name: 'Save e-invoicing settings' }).click();
    // (The last save's toast may still be showing: the API says when this one is saved.)
    await poll(async () => (await api.settings.einvoicing.get.query()).certificate?.subject ?? '').toContain('C20880050010');
    await poll(() => form.locator('dd').first().innerText()).toContain('C20880050010');

    // Intermediary mode: the client fields give way to what the owner must do in MyTax; saved as such.
    await form.getByLabel('How the service logs in to MyInvois').selectOption('intermediary');
    await poll(() => form.getByTestId('intermediary-hint').count()).toBe(1);
    expect(await form.getByLabel('Client ID').count()).toBe(0);
    await app.axe(desktop);
    await form.getByRole('button', { name: 'Save e-invoicing settings' }).click();
    await poll(async () => (await api.settings.einvoicing.get.query()).login).toBe('intermediary');
    await poll(() => desktop.getByTestId('intermediary-hint').count()).toBe(1);
    expect(await form.getByRole('alert').count()).toBe(0);
  });

  it('the settings history shows the changes, by whom, with before and after', async () => {
    await desktop.goto(`${app.url}/settings/history`);
    await poll(() => desktop.locator('h1').textContent()).toBe('Settings history');
    await poll(() => desktop.locator('[data-entity="accounts"][data-action="deactivate"]').count()).toBe(1);
    const entry = desktop.locator('[data-entity="accounts"][data-action="update"]').first();
    expect(await entry.innerText()).toContain(`By ${OWNER.name}`);
    await entry.getByText(/What changed/).click();
    expect(await entry.locator('table').innerText()).toMatch(/Consulting income\s+Consulting fees/);
    await app.axe(desktop);
    await desktop.getByLabel('Show').selectOption('members');
    await poll(() => desktop.locator('[data-entity]').first().getAttribute('data-entity')).toBe('members');
    const history = await api.organization.settingsHistory.list.query({ entity: 'members', limit: 10 });
    expect(await desktop.locator('[data-entity]').count()).toBe(history.items.length);
  });

  it('collections: the ageing buckets refused when unreadable or out of order, then saved; payment reminders turned on; nothing sent yet (phone, Bahasa Malaysia for the reminders)', async () => {
    await desktop.goto(`${app.url}/settings`);
    await desktop.getByRole('link', { name: /Collections/ }).click();
    await poll(() => desktop.locator('h1').textContent()).toBe('Collections');
    await app.axe(desktop);
    const ageing = desktop.getByTestId('ageing-edges-form');
    const edges = ageing.getByLabel('Bucket edges (days past due)');
    expect(await edges.inputValue()).toBe('30, 60, 90, 120');
    // Not whole numbers: the form says so and sends nothing.
    await edges.fill('30, sixty');
    await ageing.getByRole('button', { name: 'Save the buckets' }).click();
    await poll(() => ageing.getByText('Write whole numbers of days separated by commas').count()).toBe(1);
    // Out of order: the server's sentence on the field.
    await edges.fill('60, 30');
    await ageing.getByRole('button', { name: 'Save the buckets' }).click();
    await poll(() => edges.getAttribute('aria-invalid')).toBe('true');
    expect((await api.settings.ageing.get.query()).edges).toEqual([30, 60, 90, 120]);
    await app.axe(desktop);
    await edges.fill('15, 30, 60');
    await ageing.getByRole('button', { name: 'Save the buckets' }).click();
    await poll(async () => (await api.settings.ageing.get.query()).edges).toEqual([15, 30, 60]);
    await poll(() => edges.getAttribute('aria-invalid')).toBeNull();

    await phone.goto(`${app.url}/settings/collections`);
    await poll(() => phone.locator('h1').textContent()).toBe('Kutipan');
    const reminders = phone.getByTestId('reminders-form');
    await reminders.getByLabel('Hantar peringatan bayaran').check();
    await reminders.getByLabel('Hantar pada hari-hari selepas tarikh akhir ini').fill('7, 14');
    await reminders.getByRole('button', { name: 'Simpan peringatan' }).click();
    await poll(async () => {
      const schedule = await api.settings.paymentReminders.get.query();
      return { enabled: schedule.enabled, steps: schedule.steps };
    }).toEqual({ enabled: true, steps: [7, 14] });
    await poll(() => phone.getByText('Belum ada peringatan dihantar.').count()).toBe(1);
    await app.axe(phone);
    expect(app.pageErrors(desktop)).toEqual([]);
    expect(app.pageErrors(phone)).toEqual([]);
  });
});
