/**
 * MyInvois client, tokens: one token request serves every call (and concurrent callers) until 5
 * minutes before expiry; a 401 drops the token and the call is retried once with a new one; the
 * token endpoint's refusals are MyInvoisErrors with OAuth's error name; intermediaries log in with
 * `onbehalfof` under their own cache entry.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MyInvoisError } from '../../src/integrations/myinvois/client';
import { BUYER, minimalInvoice, START, startSimulator, SUPPLIER, toSubmit } from './helpers';

let sim: Awaited<ReturnType<typeof startSimulator>>;
afterEach(async () => sim.close());

const MINUTE = 60_000;
const validate = (client: ReturnType<typeof sim.client>) => client.validateTin(BUYER.tin, 'BRN', '201901234567');

describe('MyInvois client tokens', () => {
  it('fetches one token and reuses it across calls and clients of the same credentials', async () => {
    sim = await startSimulator();
    const client = sim.client();
    expect(await validate(client)).toBe(true);
    expect(await validate(client)).toBe(true);
    expect(await validate(sim.client())).toBe(true);
    expect(sim.control.requestCount('token')).toBe(1);
    expect(sim.control.requestCount('validateTin')).toBe(3);
    // Another client id has its own token.
    expect(await validate(sim.client(BUYER))).toBe(true);
    expect(sim.control.requestCount('token')).toBe(2);
  });

  it('shares one token request among concurrent callers', async () => {
    sim = await startSimulator();
    const client = sim.client();
    const answers = await Promise.all([validate(client), validate(client), validate(sim.client()), validate(client)]);
    expect(answers).toEqual([true, true, true, true]);
    expect(sim.control.requestCount('token')).toBe(1);
  });

  it('asks for a new token 5 minutes before the hour is over', async () => {
    sim = await startSimulator();
    const client = sim.client();
    await validate(client);
    sim.control.advance(54 * MINUTE);
    await validate(client);
    expect(sim.control.requestCount('token')).toBe(1);
    sim.control.advance(2 * MINUTE);
    await validate(client);
    expect(sim.control.requestCount('token')).toBe(2);
  });

  it('after a 401, drops the token and retries the call once with a new one', async () => {
    sim = await startSimulator();
    // The client's clock stands still, so it believes its token good; LHDN's says it expired.
    const client = sim.client(SUPPLIER, { now: () => new Date(START) });
    await validate(client);
    sim.control.advance(61 * MINUTE);
    expect(await validate(client)).toBe(true);
    expect(sim.control.requestCount('token')).toBe(2);
    expect(sim.control.requestCount('validateTin')).toBe(3);
  });

  it('gives up after the one retry when LHDN keeps answering 401', async () => {
    sim = await startSimulator();
    const refused: typeof fetch = (input, init) => {
      const headers = new Headers(init?.headers);
      if (headers.has('authorization')) headers.set('authorization', 'Bearer not-a-token');
      return fetch(input, { ...init, headers });
    };
    const error = await validate(sim.client(SUPPLIER, { fetch: refused })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MyInvoisError);
    expect(error).toMatchObject({ status: 401, code: 'Unauthorized', transient: false });
    expect(sim.control.requestCount('token')).toBe(2);
    expect(sim.control.requestCount('validateTin')).toBe(2);
  });

  it("answers the token endpoint's refusal as a MyInvoisError with OAuth's error name, without the secret", async () => {
    sim = await startSimulator();
    const error = await validate(sim.client({ clientId: SUPPLIER.clientId, clientSecret: 'wrong-secret' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MyInvoisError);
    expect(error).toMatchObject({ status: 400, code: 'invalid_client', transient: false, operation: 'POST /connect/token' });
    expect(JSON.stringify({ ...(error as object), message: (error as Error).message })).not.toContain('wrong-secret');
  });

  it('logs an intermediary in on behalf of the taxpayer, under its own cache entry', async () => {
    sim = await startSimulator();
    const agent = { clientId: 'agent-erp', clientSecret: 'agent-secret' };
    sim.control.registerClient({ ...agent, tin: 'C1111111110', onBehalfOf: [SUPPLIER.tin] });
    const forSupplier = sim.client(agent, { onBehalfOf: SUPPLIER.tin });
    const answer = await forSupplier.submitDocuments([toSubmit(minimalInvoice('INV-AGENT'))]);
    expect(answer.acceptedDocuments).toHaveLength(1);
    // Without onbehalfof the token is the agent's own: the supplier's invoice does not match it.
    const own = await sim.client(agent).submitDocuments([toSubmit(minimalInvoice('INV-AGENT-2'))]);
    expect(own.acceptedDocuments).toEqual([]);
    expect(own.rejectedDocuments[0]!.error.details?.[0]?.message).toMatch(/TIN/);
    expect(sim.control.requestCount('token')).toBe(2);
  });
});
