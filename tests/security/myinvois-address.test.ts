/**
 * settings.einvoicing and the MyInvois address (issue 25): where the client secret is posted is a
 * person's decision (an API key changing the environment or the address: 403 person_required),
 * a new address clears the stored secret unless the same request gives it again, and the address
 * must pass the outbound guard when it is saved (422 at /api_base_url): no loopback, private,
 * link-local or metadata address, no host name resolving to one, no user, query or fragment.
 * This app allows no internal network (OUTBOUND_ALLOWED_NETWORKS empty).
 */
import { describe, expect, it } from 'vitest';
import { createTestMember, createTestOrganization, type TestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';
import { setSeller } from '../helpers/einvoicing';
import { clientOf, expectRefused, refusal } from '../helpers/settings';

const t = useTestApp({ OUTBOUND_ALLOWED_NETWORKS: '' });
const settings = (org: TestOrganization, revision?: number) => clientOf(t, org.owner.session, revision).settings.einvoicing;
/** A public address as a literal: passes the guard without DNS. */
const PUBLIC = 'https://93.184.215.14';

async function withKey(token: string, revision: number, payload: Record<string, unknown>) {
  return t.app.inject({
    method: 'POST',
    url: '/trpc/settings.einvoicing.update',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'if-match': `"${revision}"`, 'idempotency-key': `k-${Math.random()}` },
    payload: JSON.stringify(payload),
  });
}

describe('changing the MyInvois address', () => {
  it('clears the stored client secret unless the same request gives it again', async () => {
    const org = await createTestOrganization(t.db);
    expect(await settings(org, 1).update({ client_id: 'erp', client_secret: 'the-secret' })).toMatchObject({ client_secret_set: true, revision: 2 });
    const moved = await settings(org, 2).update({ api_base_url: PUBLIC });
    expect(moved).toMatchObject({ api_base_url: PUBLIC, client_id: 'erp', client_secret_set: false });
    expect(await settings(org, 3).update({ client_secret: 'the-secret' })).toMatchObject({ client_secret_set: true });
    // The environment is an address too.
    expect(await settings(org, 4).update({ environment: 'production' })).toMatchObject({ environment: 'production', client_secret_set: false });
    // Given again in the same request, the new secret is kept; the same address again changes nothing.
    expect(await settings(org, 5).update({ environment: 'sandbox', client_secret: 'sandbox-secret' })).toMatchObject({ client_secret_set: true });
    expect(await settings(org, 6).update({ environment: 'sandbox' })).toMatchObject({ client_secret_set: true });
  });

  it('while e-invoicing is on, a new address needs the secret in the same request (422 /client_secret)', async () => {
    const org = await createTestOrganization(t.db);
    await setSeller(t.db, org.id);
    await settings(org, 1).update({ enabled: true, client_id: 'erp', client_secret: 'the-secret' });
    expectRefused(await refusal(settings(org, 2).update({ api_base_url: PUBLIC })), 422, 'validation', '/client_secret');
    expect(await settings(org, 2).update({ api_base_url: PUBLIC, client_secret: 'the-secret' })).toMatchObject({ enabled: true, client_secret_set: true });
  });

  it('is a decision for a person: an API key is 403 person_required, other changes still work with a key', async () => {
    const org = await createTestOrganization(t.db);
    const admin = await createTestMember(t.db, org.id, { role: 'owner' });
    await settings(org, 1).update({ client_id: 'erp', client_secret: 'the-secret' });
    for (const payload of [{ api_base_url: PUBLIC }, { environment: 'production' }, { environment: 'simulator', client_secret: 'x' }]) {
      const res = await withKey(admin.apiKey, 2, payload);
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().error.data.problem).toMatchObject({ status: 403, code: 'person_required' });
    }
    expect(await settings(org).get()).toMatchObject({ environment: 'sandbox', client_secret_set: true, revision: 2 });
    const ok = await withKey(admin.apiKey, 2, { client_id: 'erp-2', environment: 'sandbox' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().result.data).toMatchObject({ client_id: 'erp-2', client_secret_set: true });
  });
});

describe('the MyInvois address is checked when saved', () => {
  it.each([
    ['http://127.0.0.1', 'loopback'],
    ['https://127.0.0.1:8443', 'loopback'],
    ['http://10.0.0.1', 'private'],
    ['https://192.168.10.20', 'private'],
    ['http://169.254.169.254', 'link-local'],
    ['https://100.64.1.1', 'carrier-grade NAT'],
    ['https://[::1]', 'loopback'],
    ['https://[::ffff:127.0.0.1]', 'loopback'],
    ['https://[fd00::1]', 'unique-local'],
    ['https://localhost', 'loopback'],
    ['https://metadata.google.internal', 'metadata'],
    ['https://lhdn.example/?', 'query or fragment'],
    ['https://lhdn.example/#', 'query or fragment'],
    ['https://user:pw@lhdn.example', 'user name or password'],
    ['http://93.184.215.14', 'https'],
  ])('%s is refused (422 at /api_base_url: %s)', async (url, why) => {
    const org = await createTestOrganization(t.db);
    const e = await refusal(settings(org, 1).update({ api_base_url: url }));
    expectRefused(e, 422, 'validation', '/api_base_url');
    expect(e.fieldErrors!.find((f) => f.pointer === '/api_base_url')!.detail).toContain(why);
    expect(await settings(org).get()).toMatchObject({ revision: 1, api_base_url: 'https://preprod-api.myinvois.hasil.gov.my' });
  });

  it('the simulator environment points at this machine: refused unless the process runs the simulator or the network is allowed', async () => {
    const org = await createTestOrganization(t.db);
    expectRefused(await refusal(settings(org, 1).update({ environment: 'simulator' })), 422, 'validation', '/environment');
    expect(await settings(org, 1).update({ environment: 'production' })).toMatchObject({ environment: 'production', revision: 2 });
  });
});
