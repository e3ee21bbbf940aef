import { describe, expect, it } from 'vitest';
import { createTestCustomer } from '../factories/customer';
import { createTestMember, createTestOrganization } from '../factories/organization';
import { issueTestDocument } from '../factories/receivables';
import { useTestApp } from '../helpers/app';
import { httpHelpers } from '../helpers/http';
import { callerFor, expectRefused, refusal } from '../helpers/settings';

/** organization.profile.get|update: the organization's own settings and the seller identity. */

const t = useTestApp();
const { post, get } = httpHelpers(t);

const identity = {
  name: 'Maju Teknik Sdn Bhd',
  tin: 'C25845632020',
  registration_no: '202001234567',
  sst_no: 'W10-1808-32000001',
  tourism_tax_no: '123-4567-89012345',
  msic: '62010',
  business_activity: 'Computer programming activities',
  address: { line1: 'Lot 66, Bangunan Merdeka', line2: 'Persiaran Jaya', city: 'Kuala Lumpur', postcode: '50480', state: '14', country_code: 'MY' },
  phone: '+60312345678',
  email: 'billing@maju.example.my',
};

describe('organization.profile.get', () => {
  it("answers a new organization's defaults: MYR, Asia/Kuala_Lumpur, en and ms, an empty identity, revision 1", async () => {
    const org = await createTestOrganization(t.db, { name: 'Kedai Baru' });
    const profile = await callerFor(t, org.owner.session).organization.profile.get();
    expect(profile).toEqual({
      id: org.id,
      name: 'Kedai Baru',
      base_currency: 'MYR',
      time_zone: 'Asia/Kuala_Lumpur',
      record_languages: ['en', 'ms'],
      tin: null,
      registration_no: null,
      sst_no: null,
      tourism_tax_no: null,
      msic: null,
      business_activity: null,
      address: null,
      phone: null,
      email: null,
      bank_name: null,
      bank_account_no: null,
      duitnow_id: null,
      jompay_biller_code: null,
      revision: 1,
    });
  });

  it('takes the payment instructions invoices print (bank, account, DuitNow ID, JomPAY biller code); null clears one', async () => {
    const org = await createTestOrganization(t.db);
    const set = { bank_name: 'Maybank', bank_account_no: '5140 1234 5678', duitnow_id: '202001234567', jompay_biller_code: '12345' };
    expect(await callerFor(t, org.owner.session, 1).organization.profile.update(set)).toMatchObject({ ...set, revision: 2 });
    expect(await callerFor(t, org.owner.session, 2).organization.profile.update({ duitnow_id: null })).toMatchObject({ duitnow_id: null, bank_name: 'Maybank', revision: 3 });
  });

  it('every role may read it (organization.settings.read); a key without that permission is 403; unknown fields 400', async () => {
    const org = await createTestOrganization(t.db);
    const employee = await createTestMember(t.db, org.id, { role: 'employee' });
    expect((await callerFor(t, employee.session).organization.profile.get()).id).toBe(org.id);
    const keyOnly = await createTestMember(t.db, org.id, { role: 'owner', keyPermissions: ['receivables.invoice.read'] });
    expectRefused(await refusal(callerFor(t, keyOnly.apiKey).organization.profile.get()), 403, 'forbidden');
    expectRefused(await refusal(callerFor(t, org.owner.session).organization.profile.get({ id: org.id })), 400, 'invalid_request', '/id');
  });
});

describe('organization.profile.update', () => {
  it('sets the seller identity with If-Match and answers the next revision; issuing freezes it on the document', async () => {
    const org = await createTestOrganization(t.db);
    const updated = await callerFor(t, org.owner.session, 1).organization.profile.update(identity);
    expect(updated).toMatchObject({ ...identity, revision: 2 });
    expect(await callerFor(t, org.owner.session).organization.profile.get()).toEqual(updated);

    const customer = await createTestCustomer(t.db, org.id);
    const accounts = (await callerFor(t, org.owner.session).settings.accounts.list({ limit: 100 })).items;
    const taxCodes = (await callerFor(t, org.owner.session).settings.taxCodes.list({})).items;
    const draft = await post(
      '/v1/receivables/invoices',
      {
        kind: 'sales_invoice',
        customer_id: customer.id,
        lines: [{ account_id: accounts.find((a: { code: string }) => a.code === '4020').id, description: 'Support', quantity: '1', unit_price: '50.00', tax_code_id: taxCodes.find((c: { code: string }) => c.code === 'SV-8').id }],
      },
      org.owner.apiKey,
    );
    expect(draft.statusCode, draft.body).toBe(201);
    const issuer = await createTestMember(t.db, org.id, { role: 'accountant' });
    await issueTestDocument(t.db, org.id, draft.json().id, issuer.id);
    const issued = (await get(`/v1/receivables/invoices/${draft.json().id}`, org.owner.apiKey)).json();
    expect(issued.seller).toMatchObject({
      name: identity.name,
      tin: identity.tin,
      registration_no: identity.registration_no,
      sst_no: identity.sst_no,
      msic: identity.msic,
      address: { line1: identity.address.line1, city: 'Kuala Lumpur', postcode: '50480', state: '14', country_code: 'MY' },
    });
  });

  it('null clears an identity field and the address; fields not sent stay as they are', async () => {
    const org = await createTestOrganization(t.db);
    await callerFor(t, org.owner.session, 1).organization.profile.update(identity);
    const cleared = await callerFor(t, org.owner.session, 2).organization.profile.update({ tourism_tax_no: null, address: null, phone: null });
    expect(cleared).toMatchObject({ tourism_tax_no: null, address: null, phone: null, tin: identity.tin, name: identity.name, revision: 3 });
    // Sending what is already there changes nothing (no new revision, no history entry).
    expect((await callerFor(t, org.owner.session, 3).organization.profile.update({ tin: identity.tin })).revision).toBe(3);
  });

  it('refuses stale and missing If-Match (409, 428), a member without organization.settings.manage (403)', async () => {
    const org = await createTestOrganization(t.db);
    expectRefused(await refusal(callerFor(t, org.owner.session, 2).organization.profile.update({ name: 'X' })), 409, 'revision_mismatch', '/headers/if-match');
    expectRefused(await refusal(callerFor(t, org.owner.session).organization.profile.update({ name: 'X' })), 428, 'revision_required');
    for (const role of ['clerk', 'employee', 'viewer'] as const) {
      const member = await createTestMember(t.db, org.id, { role });
      expectRefused(await refusal(callerFor(t, member.session, 1).organization.profile.update({ name: 'X' })), 403, 'forbidden');
    }
    const accountant = await createTestMember(t.db, org.id, { role: 'accountant' });
    expect((await callerFor(t, accountant.session, 1).organization.profile.update({ name: 'Renamed' })).name).toBe('Renamed');
  });

  it.each([
    ['an unknown field', { colour: 'red' }, 400, '/colour'],
    ['an unknown address field', { address: { ...identity.address, country: 'MY' } }, 400, '/address/country'],
    ['an address without its city', { address: { line1: 'x', state: '14', country_code: 'MY' } }, 400, '/address/city'],
    ['a number for the TIN', { tin: 12345 }, 400, '/tin'],
    ['an unknown record language', { record_languages: ['en', 'fr'] }, 400, '/record_languages/1'],
    ['a blank name', { name: '  ' }, 422, '/name'],
    ['an over-long name', { name: 'n'.repeat(201) }, 422, '/name'],
    ['a blank TIN (null clears it)', { tin: ' ' }, 422, '/tin'],
    ['an over-long TIN', { tin: 'C'.repeat(15) }, 422, '/tin'],
    ['a TIN with punctuation', { tin: 'C-2584' }, 422, '/tin'],
    ['an over-long SST number', { sst_no: 'W'.repeat(36) }, 422, '/sst_no'],
    ['an over-long business activity', { business_activity: 'a'.repeat(301) }, 422, '/business_activity'],
    ['an MSIC code MyInvois does not list', { msic: '99999' }, 422, '/msic'],
    ['an MSIC code of four digits', { msic: '6201' }, 422, '/msic'],
    ['a state code outside 01-17', { address: { ...identity.address, state: '18' } }, 422, '/address/state'],
    ['an alpha-3 country code', { address: { ...identity.address, country_code: 'MYS' } }, 422, '/address/country_code'],
    ['an unknown country code', { address: { ...identity.address, country_code: 'XX' } }, 422, '/address/country_code'],
    ['a blank address line', { address: { ...identity.address, line1: ' ' } }, 422, '/address/line1'],
    ['an over-long city', { address: { ...identity.address, city: 'c'.repeat(51) } }, 422, '/address/city'],
    ['an e-mail without a domain', { email: 'billing@' }, 422, '/email'],
    ['a telephone number with letters', { phone: '03-CALL-NOW' }, 422, '/phone'],
    ['a bank account number with letters', { bank_account_no: '5140-ABCD-5678' }, 422, '/bank_account_no'],
    ['a bank account number of four digits', { bank_account_no: '5140' }, 422, '/bank_account_no'],
    ['a JomPAY biller code with letters', { jompay_biller_code: '12A45' }, 422, '/jompay_biller_code'],
    ['a JomPAY biller code of seven digits', { jompay_biller_code: '1234567' }, 422, '/jompay_biller_code'],
    ['a blank bank name', { bank_name: ' ' }, 422, '/bank_name'],
    ['an over-long DuitNow ID', { duitnow_id: 'd'.repeat(101) }, 422, '/duitnow_id'],
    ['a time zone that is not IANA', { time_zone: 'Mars/Olympus_Mons' }, 422, '/time_zone'],
    ['an offset for a time zone', { time_zone: '+08:00' }, 422, '/time_zone'],
    ['an unknown currency', { base_currency: 'XYZ' }, 422, '/base_currency'],
    ['no record language', { record_languages: [] }, 422, '/record_languages'],
    ['record languages without en', { record_languages: ['ms', 'zh'] }, 422, '/record_languages'],
    ['a record language twice', { record_languages: ['en', 'ms', 'en'] }, 422, '/record_languages'],
  ] as const)('refuses %s', async (_name, input, status, pointer) => {
    const org = await createTestOrganization(t.db);
    expectRefused(await refusal(callerFor(t, org.owner.session, 1).organization.profile.update(input)), status, status === 400 ? 'invalid_request' : 'validation', pointer);
    expect((await callerFor(t, org.owner.session).organization.profile.get()).revision).toBe(1);
  });

  it('takes IANA zones and the known record languages; today follows the new zone', async () => {
    const org = await createTestOrganization(t.db);
    const p = await callerFor(t, org.owner.session, 1).organization.profile.update({ time_zone: 'Pacific/Kiritimati', record_languages: ['en', 'ms', 'zh', 'ta'] });
    expect(p).toMatchObject({ time_zone: 'Pacific/Kiritimati', record_languages: ['en', 'ms', 'zh', 'ta'] });
    expect((await callerFor(t, org.owner.session, 2).organization.profile.update({ time_zone: 'UTC' })).time_zone).toBe('UTC');
  });

  it('the base currency may change until the organization holds a record, then it is fixed (409 conflict at /base_currency)', async () => {
    const org = await createTestOrganization(t.db);
    expect((await callerFor(t, org.owner.session, 1).organization.profile.update({ base_currency: 'SGD' })).base_currency).toBe('SGD');
    expect((await callerFor(t, org.owner.session, 2).organization.profile.update({ base_currency: 'MYR' })).base_currency).toBe('MYR');
    await createTestCustomer(t.db, org.id);
    expectRefused(await refusal(callerFor(t, org.owner.session, 3).organization.profile.update({ base_currency: 'SGD' })), 409, 'conflict', '/base_currency');
    // Sending the currency it already has is no change, and other fields still change.
    expect((await callerFor(t, org.owner.session, 3).organization.profile.update({ base_currency: 'MYR', name: 'Still MYR' })).name).toBe('Still MYR');
  });

  it('keeps each change in the settings history with the profile before and after', async () => {
    const org = await createTestOrganization(t.db);
    await callerFor(t, org.owner.session, 1).organization.profile.update({ tin: 'C1234567890' });
    await callerFor(t, org.owner.session, 2).organization.profile.update({ msic: '46909', business_activity: 'Non-specialised wholesale trade' });
    const history = await callerFor(t, org.owner.session).organization.settingsHistory.list({ entity: 'profile' });
    expect(history.items).toHaveLength(2);
    expect(history.items[0]).toMatchObject({
      record_id: org.id,
      action: 'update',
      actor_member_id: org.owner.id,
      before: { tin: 'C1234567890', msic: null, revision: 2 },
      after: { tin: 'C1234567890', msic: '46909', business_activity: 'Non-specialised wholesale trade', revision: 3 },
    });
    expect(history.items[1]).toMatchObject({ before: { tin: null, revision: 1 }, after: { tin: 'C1234567890', revision: 2 } });
  });

  it('another organization is never reached: the profile is always the caller’s own', async () => {
    const a = await createTestOrganization(t.db);
    const b = await createTestOrganization(t.db);
    await callerFor(t, a.owner.session, 1).organization.profile.update({ name: 'Only A' });
    expect((await callerFor(t, b.owner.session).organization.profile.get()).id).toBe(b.id);
    expect((await callerFor(t, b.owner.session).organization.profile.get()).name).not.toBe('Only A');
  });
});
