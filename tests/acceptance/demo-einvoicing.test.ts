import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payoutEncryptionKey } from '../../src/config';
import { seedDemo } from '../../src/demo/seed-demo';
import { outboundOf } from '../../src/services/einvoicing/build-client';
import { startInProcessSimulator, type InProcessSimulator } from '../../src/services/einvoicing/in-process-simulator';
import { useTestApp } from '../helpers/app';

/**
 * What `npm start` does on the embedded database (issue 12): the in-process MyInvois simulator runs
 * beside the server and the demo's invoices are issued through it, so a new user sees validated
 * e-invoices (uuid, long id, validation link, the document as LHDN holds it) with no account at LHDN.
 */
const t = useTestApp();
let sim: InProcessSimulator;
beforeAll(async () => {
  sim = await startInProcessSimulator({ db: t.db, port: 0, myinvois: { key: payoutEncryptionKey(t.deps.config), outbound: outboundOf(t.deps) }, log: t.deps.log });
});
afterAll(async () => {
  await sim?.close();
});

describe('the demo with the in-process simulator', () => {
  it('issues Acme’s invoices and credit note as validated e-invoices', async () => {
    const demo = await seedDemo(t.deps, new Date(), { einvoicing: sim.demo });
    const acme = demo.organizations[0]!;
    const owner = acme.members.find((m) => m.role === 'owner')!;
    const issued = acme.invoices.filter((d) => d.reference !== null);
    expect(issued.map((d) => [d.kind, d.state])).toEqual([
      ['sales_invoice', 'issued'],
      ['customer_credit_note', 'issued'],
      ['sales_invoice', 'issued'],
    ]);
    for (const doc of issued) {
      const res = await t.app.inject({ method: 'GET', url: `/v1/receivables/invoices/${doc.id}/einvoice`, headers: { authorization: `Bearer ${owner.api_key}` } });
      expect(res.statusCode, res.body).toBe(200);
      const e = res.json();
      expect(e).toMatchObject({ status: 'valid', uuid: expect.stringMatching(/^[A-Z0-9]{26}$/), errors: [] });
      expect(e.validation_link).toBe(`${sim.url}/${e.uuid}/share/${e.long_id}`);
      expect(e.document.Invoice[0].ID[0]._).toBe(doc.reference);
      // The simulator's portal page behind the validation link says it is valid.
      const page = await fetch(e.validation_link);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('Valid');
    }
  });
});
