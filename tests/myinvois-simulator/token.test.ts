/**
 * MyInvois simulator: `POST /connect/token` (client credentials in the form body, one-hour JWT,
 * `onbehalfof` for intermediaries, LHDN's OAuth errors) and the 401 of an expired or missing token.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { OTHER, setup, SUPPLIER } from './helpers';

let sim: ReturnType<typeof setup>;
afterEach(async () => sim.app.close());

function tokenRequest(form: Record<string, string>, headers: Record<string, string> = {}) {
  return sim.app.inject({
    method: 'POST', url: '/connect/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams(form).toString(),
  });
}

const good = { client_id: SUPPLIER.clientId, client_secret: SUPPLIER.clientSecret, grant_type: 'client_credentials', scope: 'InvoicingAPI' };

describe('POST /connect/token', () => {
  it('answers a JWT valid one hour bound to the client taxpayer', async () => {
    sim = setup();
    const res = await tokenRequest(good);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'InvoicingAPI' });
    const parts = body.access_token.split('.');
    expect(parts).toHaveLength(3);
    const claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString());
    expect(claims.taxpayer_tin).toBe(SUPPLIER.tin);
    expect(claims.exp - claims.iat).toBe(3600);
    expect(res.headers['correlationid']).toBeTruthy();
  });

  it('refuses a wrong secret or an unknown client with 400 invalid_client', async () => {
    sim = setup();
    for (const form of [{ ...good, client_secret: 'nope' }, { ...good, client_id: 'nobody' }]) {
      const res = await tokenRequest(form);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('invalid_client');
    }
  });

  it('does not read HTTP Basic credentials: 400 invalid_request', async () => {
    sim = setup();
    const basic = Buffer.from(`${SUPPLIER.clientId}:${SUPPLIER.clientSecret}`).toString('base64');
    const res = await tokenRequest({ grant_type: 'client_credentials', scope: 'InvoicingAPI' }, { authorization: `Basic ${basic}` });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('invalid_request');
  });

  it('refuses another grant type and another scope', async () => {
    sim = setup();
    const grant = await tokenRequest({ ...good, grant_type: 'password' });
    expect(grant.statusCode).toBe(400);
    expect(grant.json().error).toBe('unsupported_grant_type');
    const scope = await tokenRequest({ ...good, scope: 'Everything' });
    expect(scope.statusCode).toBe(400);
    expect(scope.json().error).toBe('invalid_scope');
  });

  it('binds an intermediary token to the onbehalfof taxpayer, and refuses a taxpayer it does not represent', async () => {
    sim = setup();
    sim.control.registerClient({ clientId: 'agent', clientSecret: 'agent-secret', tin: 'C1111111110', onBehalfOf: [OTHER.tin] });
    const form = { ...good, client_id: 'agent', client_secret: 'agent-secret' };
    const ok = await tokenRequest(form, { onbehalfof: `${OTHER.tin}:201801234567` });
    expect(ok.statusCode).toBe(200);
    const claims = JSON.parse(Buffer.from(ok.json().access_token.split('.')[1], 'base64url').toString());
    expect(claims.taxpayer_tin).toBe(OTHER.tin);
    const refused = await tokenRequest(form, { onbehalfof: SUPPLIER.tin });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('unauthorized_client');
  });

  it('answers 401 without a token and once the token is an hour old', async () => {
    sim = setup();
    const none = await sim.get('nothing', '/api/v1.0/documentsubmissions/X');
    expect(none.statusCode).toBe(401);
    expect(none.json().error.code).toBe('Unauthorized');
    const bearer = await sim.token();
    sim.control.advance(3599_000);
    expect((await sim.get(bearer, '/api/v1.0/documentsubmissions/X')).statusCode).toBe(404);
    sim.control.advance(1_000);
    const expired = await sim.get(bearer, '/api/v1.0/documentsubmissions/X');
    expect(expired.statusCode).toBe(401);
    expect(expired.json().error.message).toMatch(/expired/);
  });
});
