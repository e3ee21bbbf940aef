import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createInProcessClient } from '../../src/client';
import { payoutChannels, settingsHistory } from '../../src/db/schema';
import { open } from '../../src/lib/secret-box';
import { TEST_PAYOUT_KEY } from '../factories/claims';
import { createTestMember, createTestOrganization, type TestMember } from '../factories/organization';
import { useTestApp } from '../helpers/app';
import { clientOf, describeSharedRefusals, expectRefused, historyOf, readAllPages, refusal } from '../helpers/settings';

const t = useTestApp();

const me = (member: TestMember, revision?: number) => clientOf(t, member.session, revision).me.payoutChannels;

const bankInput = (name = 'Salary account') => ({
  channel_key: 'bank_transfer' as const,
  name,
  fields: { bank: 'MBBEMYKL', account_holder: 'Nur Aisyah Binti Ahmad', account_number: '5140-1234 5678' },
});

async function storedRow(organizationId: string, id: string) {
  const [row] = await t.db.select().from(payoutChannels).where(and(eq(payoutChannels.organizationId, organizationId), eq(payoutChannels.id, id)));
  return row!;
}

describeSharedRefusals(t, {
  path: 'me.payoutChannels',
  validCreate: async () => bankInput(),
  text: { key: 'name', max: 100 },
  wrongType: { key: 'fields', value: 'MBBEMYKL 514012345678' },
});

describe('me.payoutChannels', () => {
  it('creates a bank account of the caller, answered masked only; the values are encrypted at rest under the payout key', async () => {
    const org = await createTestOrganization(t.db);
    const employee = await createTestMember(t.db, org.id, { role: 'employee' });
    const channel = await me(employee).create(bankInput());
    expect(channel).toEqual({
      id: expect.any(String),
      member_id: employee.id,
      channel_key: 'bank_transfer',
      name: 'Salary account',
      fields: [
        { key: 'bank', label: { en: 'Bank', ms: 'Bank', zh: '银行' }, display: 'Maybank' },
        { key: 'account_holder', label: { en: 'Account holder', ms: 'Pemegang akaun', zh: '账户持有人' }, display: 'N** A***** B**** A****' },
        { key: 'account_number', label: { en: 'Account number', ms: 'Nombor akaun', zh: '账号' }, display: '••••••••5678' },
      ],
      active: true,
      revision: 1,
      created_at: expect.any(String),
    });
    expect(JSON.stringify(channel)).not.toMatch(/514012345678|5140-1234|Aisyah/);

    const row = await storedRow(org.id, channel.id);
    expect(row.fieldsCiphertext).toMatch(/^v1\./);
    expect(row.fieldsCiphertext).not.toMatch(/5140|Aisyah/);
    expect(row.accountTail).toBe('5678');
    // Digits only, as the service keeps them; bound to the organization (another one's id does not open it).
    expect(JSON.parse(open(TEST_PAYOUT_KEY, row.fieldsCiphertext, org.id))).toEqual({ bank: 'MBBEMYKL', account_holder: 'Nur Aisyah Binti Ahmad', account_number: '514012345678' });
    expect(() => open(TEST_PAYOUT_KEY, row.fieldsCiphertext, crypto.randomUUID())).toThrow();

    // The claimant can name it on a claim at once.
    const filed = await clientOf(t, employee.session).expenses.claims.create({ title: 'Taxi', payout_channel_id: channel.id });
    expect(filed.claim.id).toEqual(expect.any(String));
  });

  it('creates a DuitNow ID of each type, normalised before it is sealed and masked to its tail', async () => {
    const org = await createTestOrganization(t.db);
    const cases = [
      { id_type: 'mobile', id_value: '012-345 6789', stored: '+60123456789', type: 'Mobile number', display: '••••••••6789' },
      { id_type: 'mobile', id_value: '+60 11-2345 6789', stored: '+601123456789', type: 'Mobile number', display: '•••••••••6789' },
      { id_type: 'nric', id_value: '900101-14-5678', stored: '900101145678', type: 'MyKad (NRIC) number', display: '••••••••5678' },
      { id_type: 'business_reg', id_value: '201901000005', stored: '201901000005', type: 'Business registration number', display: '••••••••0005' },
      { id_type: 'business_reg', id_value: '123456-x', stored: '123456X', type: 'Business registration number', display: '••••456X' },
      { id_type: 'passport', id_value: 'a1234567', stored: 'A1234567', type: 'Passport number', display: '••••4567' },
    ] as const;
    for (const c of cases) {
      const channel = await me(org.owner).create({ channel_key: 'duitnow', name: `DuitNow ${c.id_type}`, fields: { id_type: c.id_type, id_value: c.id_value } });
      expect(channel.fields.map((f) => [f.key, f.display])).toEqual([
        ['id_type', c.type],
        ['id_value', c.display],
      ]);
      const row = await storedRow(org.id, channel.id);
      expect(JSON.parse(open(TEST_PAYOUT_KEY, row.fieldsCiphertext, org.id))).toEqual({ id_type: c.id_type, id_value: c.stored });
    }
  });

  it('refuses fields by their rules (422 naming each) and by their shape (400)', async () => {
    const org = await createTestOrganization(t.db);
    const create = me(org.owner).create;
    const bank = (fields: Record<string, unknown>) => refusal(create({ ...bankInput(), fields: { ...bankInput().fields, ...fields } } as never));
    const both = await bank({ bank: 'DEUTDEFF', account_number: '12345' });
    expectRefused(both, 422, 'validation');
    expect(both.fieldErrors?.map((f) => f.pointer)).toEqual(['/fields/bank', '/fields/account_number']);
    expectRefused(await bank({ account_number: '1234567890123456789012' }), 422, 'validation', '/fields/account_number');
    expectRefused(await bank({ account_number: '5140 12AB 5678' }), 422, 'validation', '/fields/account_number');
    expectRefused(await bank({ account_holder: '   ' }), 422, 'validation', '/fields/account_holder');
    expectRefused(await bank({ account_holder: 'x'.repeat(101) }), 422, 'validation', '/fields/account_holder');
    expectRefused(await bank({ account_number: 5140123456 }), 400, 'invalid_request', '/fields/account_number');
    expectRefused(await bank({ swift: 'MBBEMYKL' }), 400, 'invalid_request', '/fields/swift');
    const duitnow = (fields: Record<string, unknown>) => refusal(create({ channel_key: 'duitnow', name: 'DuitNow', fields } as never));
    expectRefused(await duitnow({ id_type: 'nric', id_value: '90010114567' }), 422, 'validation', '/fields/id_value');
    expectRefused(await duitnow({ id_type: 'mobile', id_value: '03-2345 6789' }), 422, 'validation', '/fields/id_value');
    expectRefused(await duitnow({ id_type: 'email', id_value: 'a@b.my' }), 400, 'invalid_request', '/fields/id_type');
    // The fields of the other kind are not this kind's fields.
    expectRefused(await duitnow(bankInput().fields), 400, 'invalid_request');
    expectRefused(await refusal(create({ channel_key: 'cheque', name: 'Cheque', fields: {} } as never)), 400, 'invalid_request', '/channel_key');
    expect((await me(org.owner).list({ include_inactive: true })).items).toEqual([]);
  });

  it("lists and deactivates the caller's own channels only: another member's is never listed and is 404", async () => {
    const org = await createTestOrganization(t.db);
    const aisyah = await createTestMember(t.db, org.id, { role: 'employee' });
    const ravi = await createTestMember(t.db, org.id, { role: 'accountant' });
    const hers = await me(aisyah).create(bankInput('Hers'));
    const his = await me(ravi).create(bankInput('His'));
    expect((await me(aisyah).list({})).items.map((c) => c.id)).toEqual([hers.id]);
    expect((await me(ravi).list({})).items.map((c) => c.id)).toEqual([his.id]);
    // Not even the owner, who manages everything else, reaches someone else's channel here.
    expectRefused(await refusal(me(ravi, his.revision).deactivate({ id: hers.id })), 404, 'not_found');
    expectRefused(await refusal(me(org.owner, hers.revision).deactivate({ id: hers.id })), 404, 'not_found');
    expect((await storedRow(org.id, hers.id)).active).toBe(true);
    const off = await me(aisyah, hers.revision).deactivate({ id: hers.id });
    expect(off).toMatchObject({ active: false, revision: 2, fields: hers.fields });
    expect((await me(aisyah).list({})).items).toEqual([]);
    expect((await me(aisyah).list({ include_inactive: true })).items).toEqual([off]);
    // A cursor of one member's list does not page another's.
    await me(aisyah).create(bankInput('A'));
    await me(aisyah).create(bankInput('B'));
    const page = await me(aisyah).list({ limit: 1 });
    expectRefused(await refusal(me(ravi).list({ limit: 1, cursor: page.next_cursor! })), 422, 'validation', '/query/cursor');
  });

  it('an API key acts for its owner (Idempotency-Key required); pages by name without duplicates', async () => {
    const org = await createTestOrganization(t.db);
    const employee = await createTestMember(t.db, org.id, { role: 'employee' });
    const keyed = (idempotencyKey?: string) => createInProcessClient(t.deps, { token: employee.apiKey, idempotencyKey }).me.payoutChannels;
    expectRefused(await refusal(keyed().create(bankInput())), 422, 'idempotency_key_required');
    for (const name of ['Savings', 'Salary', 'Joint', 'Salary', 'Business']) {
      const c = await keyed(crypto.randomUUID()).create(bankInput(name));
      expect(c.member_id).toBe(employee.id);
    }
    const { items } = await readAllPages(keyed().list as never, {}, 2);
    expect(items.map((c) => (c as unknown as { name: string }).name)).toEqual(['Business', 'Joint', 'Salary', 'Salary', 'Savings']);
    expect(new Set(items.map((c) => c.id)).size).toBe(5);
  });

  it('writes history for create and deactivate with the masked record only, never a value or the ciphertext', async () => {
    const org = await createTestOrganization(t.db);
    const employee = await createTestMember(t.db, org.id, { role: 'employee' });
    const channel = await me(employee).create(bankInput());
    await me(employee, 1).deactivate({ id: channel.id });
    const history = await historyOf(t, org.owner.session, 'payoutChannels', channel.id);
    expect(history.map((h) => [h.action, h.actor_member_id, h.after?.active])).toEqual([
      ['create', employee.id, true],
      ['deactivate', employee.id, false],
    ]);
    const rows = await t.db.select().from(settingsHistory).where(and(eq(settingsHistory.organizationId, org.id), eq(settingsHistory.recordId, channel.id)));
    const raw = JSON.stringify(rows);
    expect(raw).toContain('••••••••5678');
    expect(raw).not.toMatch(/514012345678|5140-1234|Aisyah|v1\.|ciphertext/);
  });
});
