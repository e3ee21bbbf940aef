import { describe, expect, it } from 'vitest';
import { mapCounterparty } from '../factories/setup';
import { PERMISSIONS } from '../../src/domain/permissions';
import { createTestCustomer } from '../factories/customer';
import { createTestMember, createTestOrganization } from '../factories/organization';
import { createReceivablesSetup } from '../factories/receivables';
import { useTestApp } from '../helpers/app';
import { httpHelpers } from '../helpers/http';
import { callerFor, expectRefused, refusal } from '../helpers/settings';

/**
 * Company group membership needs consent (issue 25): an organization named by a group's creator is
 * only invited, and an invitation grants nothing (its customer mapped to it is no group company, the
 * invoice list's group=only leaves it out, the counterparty map refuses it) until a person of the
 * invited organization with organization.settings.manage accepts it, with a session (an API key is
 * 403 person_required). Only the creator manages the group; any other organization may only leave.
 */

const t = useTestApp();
const { post, get } = httpHelpers(t);

/** A (the creator) with a customer that is B, a draft invoice to it, and B invited to A's group. */
async function world() {
  const a = await createTestOrganization(t.db);
  const b = await createTestOrganization(t.db);
  const bKeyHolder = await createTestMember(t.db, b.id, { role: 'owner', keyPermissions: [...PERMISSIONS] });
  const ref = await createReceivablesSetup(t.db, a.id);
  const sister = await createTestCustomer(t.db, a.id, { legalName: 'Sister Company Bhd' });
  // The fixtures' map skips the procedure's group check: the mapping exists before any consent.
  await mapCounterparty(t.db, { organizationId: a.id, customerId: sister.id, companyOrganizationId: b.id, validFrom: '2020-01-01' });
  const draft = await post(
    '/v1/receivables/invoices',
    { kind: 'sales_invoice', customer_id: sister.id, lines: [{ account_id: ref.revenue.id, description: 'Rent', quantity: '1', unit_price: '100.00', tax_code_id: ref.sv8.id }] },
    a.owner.apiKey,
  );
  expect(draft.statusCode, draft.body).toBe(201);
  const aSettings = (ifMatch?: number) => callerFor(t, a.owner.session, ifMatch).settings;
  const bSettings = (ifMatch?: number) => callerFor(t, b.owner.session, ifMatch).settings;
  const group = await aSettings().companyGroups.create({ name: 'Maju Group', member_organization_ids: [b.id] });
  /** What the group grants A now: the customer is a group company, and the draft is listed under group=only. */
  const granted = async () => {
    const customer = (await get(`/v1/receivables/customers/${sister.id}`, a.owner.apiKey)).json();
    const only = (await get('/v1/receivables/invoices?group=only', a.owner.apiKey)).json();
    return { is_group_company: customer.is_group_company, listed: only.documents.map((d: { id: string }) => d.id).includes(draft.json().id) };
  };
  return { a, b, bKeyHolder, sister, group, aSettings, bSettings, granted };
}

describe('company groups need the named organization to accept', () => {
  it('B added by A is only invited and the invitation grants nothing; B accepts with a session and it grants', async () => {
    const w = await world();
    // A's answer names B by the id A typed, as invited, and nothing else of B.
    expect(w.group).toEqual({
      id: expect.any(String),
      name: 'Maju Group',
      created_by_organization_id: w.a.id,
      member_organization_ids: [w.a.id],
      invited_organization_ids: [w.b.id],
      membership: 'creator',
      active: true,
      revision: 1,
    });
    expect(await w.granted()).toEqual({ is_group_company: false, listed: false });
    // Nor can A map another customer to B while B has not accepted.
    const other = await createTestCustomer(t.db, w.a.id);
    expectRefused(await refusal(
      w.aSettings().counterpartyMappings.create({ customer_id: other.id, company_organization_id: w.b.id, valid_from: '2020-01-01' })),
      422,
      'validation',
      '/company_organization_id',
    );
    // B sees the invitation (the group and its members, not the other invitations).
    const seen = (await w.bSettings().companyGroups.list({})).items;
    expect(seen).toEqual([{ ...w.group, invited_organization_ids: [], membership: 'invited' }]);

    const accepted = await w.bSettings(1).companyGroups.accept({ id: w.group.id });
    expect(accepted).toMatchObject({ member_organization_ids: [w.a.id, w.b.id].sort(), invited_organization_ids: [], membership: 'member', revision: 2 });
    expect(await w.granted()).toEqual({ is_group_company: true, listed: true });
    const mapped = await w.aSettings().counterpartyMappings.create({ customer_id: other.id, company_organization_id: w.b.id, valid_from: '2020-01-01' });
    expect(mapped.company_organization_id).toBe(w.b.id);
    const history = await callerFor(t, w.b.owner.session).organization.settingsHistory.list({ entity: 'companyGroups', record_id: w.group.id });
    expect(history.items.map((h: { action: string }) => h.action)).toEqual(['accept']);
  });

  it('an API key cannot accept, whatever its permissions (403 person_required); nothing is granted', async () => {
    const w = await world();
    const res = await t.app.inject({
      method: 'POST',
      url: '/trpc/settings.companyGroups.accept',
      headers: { authorization: `Bearer ${w.bKeyHolder.apiKey}`, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID(), 'if-match': '"1"' },
      payload: JSON.stringify({ id: w.group.id }),
    });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().error.data.problem).toMatchObject({ status: 403, code: 'person_required' });
    expect(await w.granted()).toEqual({ is_group_company: false, listed: false });
    // A member without organization.settings.manage cannot accept either; an outsider does not see the group.
    const clerk = await createTestMember(t.db, w.b.id, { role: 'clerk' });
    expectRefused(await refusal(callerFor(t, clerk.session, 1).settings.companyGroups.accept({ id: w.group.id })), 403, 'forbidden');
    const outsider = await createTestOrganization(t.db);
    expectRefused(await refusal(callerFor(t, outsider.owner.session, 1).settings.companyGroups.accept({ id: w.group.id })), 404, 'not_found');
  });

  it('a member that did not create the group cannot remove the creator, change or deactivate it (403 company_group_creator_only)', async () => {
    const w = await world();
    await w.bSettings(1).companyGroups.accept({ id: w.group.id });
    expectRefused(await refusal(w.bSettings(2).companyGroups.update({ id: w.group.id, member_organization_ids: [w.b.id] })), 403, 'company_group_creator_only');
    expectRefused(await refusal(w.bSettings(2).companyGroups.update({ id: w.group.id, name: 'Ours now' })), 403, 'company_group_creator_only');
    expectRefused(await refusal(w.bSettings(2).companyGroups.deactivate({ id: w.group.id })), 403, 'company_group_creator_only');
    // Nor can it put a third organization in the group.
    const third = await createTestOrganization(t.db);
    expectRefused(await refusal(w.bSettings(2).companyGroups.update({ id: w.group.id, member_organization_ids: [w.a.id, third.id] })), 403, 'company_group_creator_only');
    const [group] = (await w.aSettings().companyGroups.list({})).items;
    expect(group).toMatchObject({ member_organization_ids: [w.a.id, w.b.id].sort(), invited_organization_ids: [], active: true, revision: 2 });
    expect(await w.granted()).toEqual({ is_group_company: true, listed: true });
  });

  it('B can leave (and then the group grants nothing); B can decline an invitation; the creator cannot leave (409)', async () => {
    const w = await world();
    await w.bSettings(1).companyGroups.accept({ id: w.group.id });
    const left = await w.bSettings(2).companyGroups.leave({ id: w.group.id });
    expect(left).toMatchObject({ membership: 'none', member_organization_ids: [w.a.id], revision: 3 });
    expect(await w.granted()).toEqual({ is_group_company: false, listed: false });
    expect((await w.bSettings().companyGroups.list({ include_inactive: true })).items).toEqual([]);
    expectRefused(await refusal(w.aSettings(3).companyGroups.leave({ id: w.group.id })), 409, 'conflict');

    // Invited again, B declines: it is out, and A sees no invitation left.
    const invited = await w.aSettings(3).companyGroups.update({ id: w.group.id, member_organization_ids: [w.b.id] });
    expect(invited).toMatchObject({ member_organization_ids: [w.a.id], invited_organization_ids: [w.b.id], revision: 4 });
    expect(await w.granted()).toEqual({ is_group_company: false, listed: false });
    await w.bSettings(4).companyGroups.decline({ id: w.group.id });
    expect((await w.aSettings().companyGroups.list({})).items[0]).toMatchObject({ member_organization_ids: [w.a.id], invited_organization_ids: [], revision: 5 });
    expectRefused(await refusal(w.bSettings(5).companyGroups.accept({ id: w.group.id })), 404, 'not_found');
  });
});
