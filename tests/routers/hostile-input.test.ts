/**
 * Issue 14, input, through the in-process client (createCaller): the one input guard in the
 * procedure pipeline (trpc.ts) and the shared schemas hold for tRPC-only procedures too.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { queryRows, sql } from '../../src/db/client';
import { createTestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';
import { clientOf, expectRefused, refusal } from '../helpers/settings';

const t = useTestApp();

async function taxCodes(organizationId: string, code: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from tax_codes where organization_id = ${organizationId} and code = ${code}`);
  return Number(row?.n ?? 0);
}

const base = { rate: '8', tax_type: '02' };

describe('settings (tRPC only) go through the same input guard', () => {
  it('a NUL in a tax code name is 400 at /name, and nothing is stored', async () => {
    const org = await createTestOrganization(t.db);
    const e = await refusal(clientOf(t, org.owner.session).settings.taxCodes.create({ ...base, code: 'NUL-8', name: 'Service\u0000' }));
    expectRefused(e, 400, 'invalid_request', '/name');
    expect(await taxCodes(org.id, 'NUL-8')).toBe(0);
  });

  it('a lone surrogate in a tax code is 400 at /code, not stored as U+FFFD', async () => {
    const org = await createTestOrganization(t.db);
    const e = await refusal(clientOf(t, org.owner.session).settings.taxCodes.create({ ...base, code: 'LS-\ud800', name: 'Service' }));
    expectRefused(e, 400, 'invalid_request', '/code');
    expect(await taxCodes(org.id, 'LS-\ufffd')).toBe(0);
  });

  it('a tax code in decomposed form is the same code as its precomposed form, stored in NFC', async () => {
    const org = await createTestOrganization(t.db);
    const client = clientOf(t, org.owner.session);
    await client.settings.taxCodes.create({ ...base, code: 'S\u00c9-8', name: 'Servis' });
    const e = await refusal(client.settings.taxCodes.create({ ...base, code: 'SE\u0301-8', name: 'Servis dua' }));
    expect(e.status).toBe(409);
    expect(await taxCodes(org.id, 'S\u00c9-8')).toBe(1);
    expect(await taxCodes(org.id, 'SE\u0301-8')).toBe(0);
  });

  it('a name of only invisible characters is blank (422 at /name)', async () => {
    const org = await createTestOrganization(t.db);
    const e = await refusal(clientOf(t, org.owner.session).settings.taxCodes.create({ ...base, code: 'BL-8', name: '\u200b\u2060\u00a0' }));
    expectRefused(e, 422, 'validation', '/name');
    expect(await taxCodes(org.id, 'BL-8')).toBe(0);
  });

  it('a day before 1900 is 400 at its field', async () => {
    const org = await createTestOrganization(t.db);
    const e = await refusal(
      clientOf(t, org.owner.session).settings.approverAssignments.create({ analytic_account_id: randomUUID(), member_id: org.owner.id, valid_from: '0001-01-01', valid_to: null }),
    );
    expectRefused(e, 400, 'invalid_request', '/valid_from');
  });

  it('a rate valid from 0000-01-01 is 400 at /valid_from, not a 500 (found by the fuzz suite), and nothing is stored', async () => {
    const org = await createTestOrganization(t.db);
    const e = await refusal(
      clientOf(t, org.owner.session).settings.perDiemRates.create({
        name: 'Domestic',
        currency: 'MYR',
        valid_from: '0000-01-01',
        valid_to: '2019-01-01',
        bands: [{ band: 'Klang Valley', amount_per_day: '100.00' }],
      }),
    );
    expectRefused(e, 400, 'invalid_request', '/valid_from');
    const [row] = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from per_diem_rates where organization_id = ${org.id}`);
    expect(Number(row?.n)).toBe(0);
  });
});
