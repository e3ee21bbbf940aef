import { describe, expect, it } from 'vitest';
import { fileTestClaim } from '../factories/claim-filing';
import { createTestMember, createTestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';
import { clientOf, refusal } from '../helpers/settings';

/**
 * expenses.claims.payoutChannels: what a payer may pay a claim to — the claimant's active channels,
 * masked, and the one the claimant chose for the claim — for expenses.claim.pay only.
 */
const t = useTestApp();

const bank = (name: string, account_number: string) => ({
  channel_key: 'bank_transfer' as const,
  name,
  fields: { bank: 'MBBEMYKL', account_holder: 'Nur Aisyah Binti Ahmad', account_number },
});

describe('expenses.claims.payoutChannels', () => {
  it('answers the claimant’s active channels, masked, with the claim’s chosen one; 403 without expenses.claim.pay; 404 for another organization’s claim', async () => {
    const org = await createTestOrganization(t.db);
    const employee = await createTestMember(t.db, org.id, { role: 'employee' });
    const payer = await createTestMember(t.db, org.id, { role: 'accountant' });
    const mine = clientOf(t, employee.session).me.payoutChannels;
    const salary = await mine.create(bank('Salary account', '5140 1234 5678'));
    const savings = await mine.create(bank('Savings', '1122 3344 9911'));
    const old = await mine.create(bank('Old account', '9999 8888 7777'));
    await clientOf(t, employee.session, old.revision).me.payoutChannels.deactivate({ id: old.id });
    const claim = await fileTestClaim(t, employee, { payout_channel_id: savings.id });

    const answer = await clientOf(t, payer.session).expenses.claims.payoutChannels({ id: claim.id });
    expect(answer.preferred_channel_id).toBe(savings.id);
    expect(answer.items.map((c: { name: string }) => c.name)).toEqual(['Salary account', 'Savings']);
    expect(answer.items[0]).toMatchObject({ id: salary.id, member_id: employee.id, fields: expect.arrayContaining([{ key: 'account_number', label: expect.any(Object), display: '••••••••5678' }]) });
    expect(JSON.stringify(answer)).not.toMatch(/514012345678|112233449911|Aisyah/);

    // The claimant (no pay permission) is refused; another organization's payer does not find the claim.
    expect((await refusal(clientOf(t, employee.session).expenses.claims.payoutChannels({ id: claim.id }))).status).toBe(403);
    const other = await createTestOrganization(t.db);
    const stranger = await createTestMember(t.db, other.id, { role: 'accountant' });
    expect((await refusal(clientOf(t, stranger.session).expenses.claims.payoutChannels({ id: claim.id }))).status).toBe(404);
  });

  it('a claim without a chosen channel, or whose chosen channel was deactivated, names none', async () => {
    const org = await createTestOrganization(t.db);
    const employee = await createTestMember(t.db, org.id, { role: 'employee' });
    const payer = await createTestMember(t.db, org.id, { role: 'accountant' });
    const chosen = await clientOf(t, employee.session).me.payoutChannels.create(bank('Salary account', '5140 1234 5678'));
    const withChannel = await fileTestClaim(t, employee, { payout_channel_id: chosen.id });
    const without = await fileTestClaim(t, employee);
    expect((await clientOf(t, payer.session).expenses.claims.payoutChannels({ id: without.id })).preferred_channel_id).toBeNull();
    await clientOf(t, employee.session, chosen.revision).me.payoutChannels.deactivate({ id: chosen.id });
    expect(await clientOf(t, payer.session).expenses.claims.payoutChannels({ id: withChannel.id })).toEqual({ preferred_channel_id: null, items: [] });
  });
});
