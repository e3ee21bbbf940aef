/**
 * MyInvois simulator: per-client rate limits per endpoint (429 with Retry-After and X-Rate-Limit-*),
 * taxpayer TIN validation, the fault switch (500 or hang) and the LHDN v1.1 samples through the
 * structural signature verifier.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { partyId, supplierParty } from '../../src/integrations/myinvois/simulator/ubl';
import { BUYER, loadSample, setup, SUPPLIER } from './helpers';

let sim: ReturnType<typeof setup>;
afterEach(async () => sim.app.close());

describe('rate limits, TIN validation, faults, samples', () => {
  it('answers 429 with Retry-After past the per-client limit, per endpoint, until the minute is over', async () => {
    sim = setup({ rateLimits: { validateTin: 3 } });
    const bearer = await sim.token();
    const url = `/api/v1.0/taxpayer/validate/${BUYER.tin}?idType=BRN&idValue=201901234567`;
    const first = await sim.get(bearer, url);
    expect(first.headers['x-rate-limit-limit']).toBe('3');
    expect(first.headers['x-rate-limit-remaining']).toBe('2');
    await sim.get(bearer, url);
    await sim.get(bearer, url);
    sim.control.advance(20_000);
    const limited = await sim.get(bearer, url);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('40');
    expect(limited.json().error.code).toBe('TooManyRequests');
    expect((await sim.get(await sim.token(BUYER), url)).statusCode).toBe(200);
    expect((await sim.get(bearer, '/api/v1.0/documentsubmissions/NOPE')).statusCode).toBe(404);
    sim.control.advance(40_000);
    expect((await sim.get(bearer, url)).statusCode).toBe(200);
  });

  it('limits the token endpoint to 12 a minute per client id by default', async () => {
    sim = setup();
    for (let i = 0; i < 12; i++) await sim.token();
    await expect(sim.token()).rejects.toThrow(/429/);
    await expect(sim.token(BUYER)).resolves.toBeTruthy();
  });

  it('validates a TIN with its ID: 200, 404 for a wrong combination, 400 BadArgument', async () => {
    sim = setup();
    const bearer = await sim.token();
    const base = `/api/v1.0/taxpayer/validate/${SUPPLIER.tin}`;
    const ok = await sim.get(bearer, `${base}?idType=BRN&idValue=202001234567`);
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe('');
    expect((await sim.get(bearer, `${base}?idType=BRN&idValue=1`)).statusCode).toBe(404);
    expect((await sim.get(bearer, `/api/v1.0/taxpayer/validate/C0000000000?idType=BRN&idValue=202001234567`)).statusCode).toBe(404);
    const bad = await sim.get(bearer, `${base}?idType=SSM&idValue=1`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatchObject({ code: 'BadArgument', target: 'idType' });
  });

  it('answers 500 or hangs when told to, and recovers', async () => {
    sim = setup();
    const bearer = await sim.token();
    sim.control.fail('error', ['submission']);
    const failed = await sim.get(bearer, '/api/v1.0/documentsubmissions/NOPE');
    expect(failed.statusCode).toBe(500);
    expect(failed.json().error.code).toBe('InternalServerError');
    expect((await sim.get(bearer, '/api/v1.0/taxpayer/validate/X?idType=BRN&idValue=1')).statusCode).toBe(404);
    sim.control.fail('hang');
    let settled = false;
    const pending = sim.get(bearer, '/api/v1.0/documentsubmissions/NOPE').then((res) => {
      settled = true;
      return res;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(settled).toBe(false);
    sim.control.recover();
    expect((await pending).statusCode).toBe(503);
    expect((await sim.get(bearer, '/api/v1.0/documentsubmissions/NOPE')).statusCode).toBe(404);
    expect(sim.control.requestCount('submission')).toBe(3);
  });

  for (const file of ['1.1-Invoice-Sample.json', '1.1-Credit-Note-Sample.json', '1.1-Invoice-ForeignCurrency-Sample.json', 'sample-ul-invoice-2.1-signed.min.json']) {
    it(`reads LHDN's ${file}: structure and signature parts pass; its stale date and totals do not`, async () => {
      const sample = loadSample(file);
      const tin = partyId(supplierParty(sample['Invoice'][0]), 'TIN')!;
      sim = setup();
      sim.control.registerClient({ clientId: 'sample', clientSecret: 'sample-secret', tin });
      const bearer = await sim.token({ clientId: 'sample', clientSecret: 'sample-secret' });
      const { details } = await sim.submitAndValidate(bearer, sample);
      const steps = Object.fromEntries(details.validationResults.validationSteps.map((s: any) => [s.name, s.status]));
      expect(steps['Step01-Structure Validator']).toBe('Valid');
      expect(steps['Step08-Document Signature Validator']).toBe('Valid');
      expect(details.status).toBe('Invalid');
      expect(sim.stepErrors(details, 'Core Fields Validator').map((e: any) => e.errorCode)).toContain('CF329');
    });
  }
});
