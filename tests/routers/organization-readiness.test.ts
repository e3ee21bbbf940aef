import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accounts, taxCodes } from '../../src/db/schema';
import { insertAssignment } from '../factories/approvals';
import { createTestCustomer } from '../factories/customer';
import { createTestMember, createTestOrganization, type TestOrganization } from '../factories/organization';
import { assignPosition, createAnalyticAccount, createAnalyticAxis, createExpenseCategory, createOrgUnit, createPosition } from '../factories/setup';
import { useTestApp } from '../helpers/app';
import { COMPLETE_SELLER, setSeller } from '../helpers/einvoicing';
import { httpHelpers } from '../helpers/http';
import { callerFor, clientOf, expectRefused, refusal } from '../helpers/settings';

/**
 * organization.readiness: the set-up checklist. A new organization is not ready and lists what is
 * missing; doing each thing ticks its item; the answer agrees with the refusals of issuing and of
 * turning e-invoicing on.
 */

const t = useTestApp();
const { post } = httpHelpers(t);

type Area = { key: string; ready: boolean; items: { key: string; done: boolean; detail: string }[] };

async function readiness(token: string): Promise<Record<string, Area>> {
  const answer = (await callerFor(t, token).organization.readiness()) as { areas: Area[] };
  return Object.fromEntries(answer.areas.map((a) => [a.key, a]));
}

const doneOf = (area: Area) => Object.fromEntries(area.items.map((i) => [i.key, i.done]));
const detailOf = (area: Area, key: string) => area.items.find((i) => i.key === key)!.detail;

async function prepareDraft(org: TestOrganization, customerId: string, token: string) {
  const owner = clientOf(t, org.owner.session);
  const account = (await owner.settings.accounts.list({ limit: 100 })).items.find((a: { code: string }) => a.code === '4020');
  const taxCode = (await owner.settings.taxCodes.list({})).items.find((c: { code: string }) => c.code === 'SV-8');
  const res = await post(
    '/v1/receivables/invoices',
    { kind: 'sales_invoice', customer_id: customerId, lines: [{ account_id: account!.id, description: 'Support', quantity: '1', unit_price: '50.00', tax_code_id: taxCode!.id }] },
    token,
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; revision: number };
}

describe('organization.readiness', () => {
  it('a new organization is not ready: it lists each missing thing with what to do, in three areas', async () => {
    const org = await createTestOrganization(t.db);
    const areas = await readiness(org.owner.session);
    expect(Object.keys(areas)).toEqual(['invoicing', 'einvoicing', 'claims']);
    // The defaults give accounts and tax codes; the sole owner may issue what they prepare (with a reason).
    expect(doneOf(areas.invoicing!)).toEqual({ 'customers.any': false, 'accounts.any': true, 'tax_codes.any': true, 'members.issuer': true, 'journal.receivables_accounts': true });
    expect(areas.invoicing!.ready).toBe(false);
    expect(detailOf(areas.invoicing!, 'customers.any')).toBe('Add a customer: an invoice is made out to one.');
    expect(doneOf(areas.einvoicing!)).toEqual({ 'profile.seller_identity': false, 'einvoicing.credentials': false });
    expect(detailOf(areas.einvoicing!, 'profile.seller_identity')).toMatch(/^Complete the organization's seller identity in the profile: The organization's TIN is missing;/);
    expect(doneOf(areas.claims!)).toEqual({ 'expense_categories.any': false, 'approvals.review': false, 'approvals.finance': false, 'journal.claims_accounts': true });
    expect(areas.claims!.ready).toBe(false);
    for (const area of Object.values(areas)) for (const item of area.items) expect(item.detail).toMatch(/^[A-Z].*\.$/);
  });

  it('invoicing: a customer, an active account and tax code tick their items; deactivated ones untick them', async () => {
    const org = await createTestOrganization(t.db);
    await createTestCustomer(t.db, org.id);
    expect((await readiness(org.owner.session)).invoicing).toMatchObject({ ready: true });
    await t.db.update(accounts).set({ active: false }).where(eq(accounts.organizationId, org.id));
    await t.db.update(taxCodes).set({ active: false }).where(eq(taxCodes.organizationId, org.id));
    const after = (await readiness(org.owner.session)).invoicing!;
    expect(doneOf(after)).toMatchObject({ 'accounts.any': false, 'tax_codes.any': false });
    expect(after.ready).toBe(false);
  });

  it('members.issuer agrees with the issue edge: with a second member who cannot issue, the owner cannot issue their own draft; an accountant can', async () => {
    const org = await createTestOrganization(t.db);
    const customer = await createTestCustomer(t.db, org.id);
    const draft = await prepareDraft(org, customer.id, org.owner.apiKey);
    // Alone, the owner issues their own draft with a reason (the sole-owner exception): ready.
    expect((await readiness(org.owner.session)).invoicing!.ready).toBe(true);

    await createTestMember(t.db, org.id, { role: 'employee' });
    const blocked = (await readiness(org.owner.session)).invoicing!;
    expect(blocked.ready).toBe(false);
    expect(doneOf(blocked)['members.issuer']).toBe(false);
    expect(detailOf(blocked, 'members.issuer')).toMatch(/^Add a member who may issue invoices/);
    const refused = await refusal(clientOf(t, org.owner.session, draft.revision).receivables.invoices.transition({ id: draft.id, action_key: 'issue', reason: 'only me' }));
    expectRefused(refused, 403, 'transition_refused');
    expect(refused.detail).toMatch(/segregation of duties/);

    const accountant = await createTestMember(t.db, org.id, { role: 'accountant' });
    expect((await readiness(org.owner.session)).invoicing!.ready).toBe(true);
    const issued = await clientOf(t, accountant.session, draft.revision).receivables.invoices.transition({ id: draft.id, action_key: 'issue' });
    expect(issued.state).toBe('issued');
  });

  it('e-invoicing: turning it on is refused exactly while the area is not ready; once on, invoicing also needs the seller identity', async () => {
    const org = await createTestOrganization(t.db);
    const settings = (revision?: number) => clientOf(t, org.owner.session, revision).settings.einvoicing;
    expectRefused(await refusal(settings(1).update({ enabled: true })), 422, 'validation', '/seller/tin');
    // A TIN of this organization's own: on a database shared with other files, another organization
    // may already e-invoice under the sample one, and a TIN is claimed by one organization only.
    await setSeller(t.db, org.id, { ...COMPLETE_SELLER, tin: `C${String(Math.floor(Math.random() * 1e10)).padStart(10, '0')}` });
    let areas = await readiness(org.owner.session);
    expect(doneOf(areas.einvoicing!)).toEqual({ 'profile.seller_identity': true, 'einvoicing.credentials': false });
    expectRefused(await refusal(settings(1).update({ enabled: true })), 422, 'validation', '/client_id');
    await settings(1).update({ environment: 'simulator', client_id: 'client-1', client_secret: 'secret-1' });
    areas = await readiness(org.owner.session);
    expect(areas.einvoicing).toMatchObject({ ready: true });
    expect(areas.invoicing!.items.map((i) => i.key)).not.toContain('profile.seller_identity');
    expect((await settings(2).update({ enabled: true })).enabled).toBe(true);

    // With e-invoicing on, the seller identity is one of the invoicing items.
    await setSeller(t.db, org.id, { ...COMPLETE_SELLER, tin: undefined });
    areas = await readiness(org.owner.session);
    expect(doneOf(areas.invoicing!)['profile.seller_identity']).toBe(false);
    expect(doneOf(areas.einvoicing!)['profile.seller_identity']).toBe(false);
  });

  it('claims: an expense category, a superior in the chart and an analytic account with its approver tick the three items', async () => {
    const org = await createTestOrganization(t.db);
    const employee = await createTestMember(t.db, org.id, { role: 'employee' });
    await createExpenseCategory(t.db, { organizationId: org.id, code: 'MEAL', name: 'Meals' });
    expect(doneOf((await readiness(org.owner.session)).claims!)).toEqual({ 'expense_categories.any': true, 'approvals.review': false, 'approvals.finance': false, 'journal.claims_accounts': true });

    const unit = await createOrgUnit(t.db, { organizationId: org.id, code: 'HQ', name: 'Head office' });
    const head = await createPosition(t.db, { organizationId: org.id, orgUnitId: unit.id, title: 'Director', isUnitHead: true });
    const clerk = await createPosition(t.db, { organizationId: org.id, orgUnitId: unit.id, title: 'Clerk' });
    await assignPosition(t.db, { organizationId: org.id, memberId: org.owner.id, positionId: head.id, validFrom: '2020-01-01' });
    // The head alone: nobody above them, so nobody would review their claim.
    expect(doneOf((await readiness(org.owner.session)).claims!)['approvals.review']).toBe(false);
    await assignPosition(t.db, { organizationId: org.id, memberId: employee.id, positionId: clerk.id, validFrom: '2020-01-01' });
    expect(doneOf((await readiness(org.owner.session)).claims!)['approvals.review']).toBe(true);

    const axis = await createAnalyticAxis(t.db, org.id, { code: 'PRJ', name: 'Projects', isProjectAxis: true });
    const project = await createAnalyticAccount(t.db, org.id, { axisId: axis.id, code: 'P-1', name: 'Project One' });
    const noApprover = (await readiness(org.owner.session)).claims!;
    expect(detailOf(noApprover, 'approvals.finance')).toMatch(/assign an approver to an analytic account/);
    await insertAssignment(t.db, org.id, { analyticAccountId: project.id, memberId: org.owner.id, validFrom: '2020-01-01' });
    expect((await readiness(org.owner.session)).claims).toMatchObject({ ready: true });
  });

  it('any member may read it (organization.settings.read), by session or API key; a key without the permission is 403; it is the caller organization\'s own', async () => {
    const org = await createTestOrganization(t.db);
    const other = await createTestOrganization(t.db);
    await createTestCustomer(t.db, other.id);
    const employee = await createTestMember(t.db, org.id, { role: 'employee' });
    expect(doneOf((await readiness(employee.apiKey)).invoicing!)['customers.any']).toBe(false);
    expect(doneOf((await readiness(other.owner.apiKey)).invoicing!)['customers.any']).toBe(true);
    const keyOnly = await createTestMember(t.db, org.id, { role: 'owner', keyPermissions: ['receivables.invoice.read'] });
    expectRefused(await refusal(callerFor(t, keyOnly.apiKey).organization.readiness()), 403, 'forbidden');
    expectRefused(await refusal(callerFor(t, org.owner.session).organization.readiness({ area: 'claims' })), 400, 'invalid_request', '/area');
  });
});
