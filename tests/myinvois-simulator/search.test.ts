/**
 * MyInvois simulator: `GET /api/v1.0/documents/search`: the date window (one pair required, at most
 * 31 days), the filters and free-text query, paging newest first, and LHDN's visibility (Sent by the
 * submitter; Received by the receiver only once Valid or Cancelled; nothing for anybody else).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BUYER, inv, minimalInvoice, OTHER, setup } from './helpers';

let sim: ReturnType<typeof setup>;
afterEach(async () => sim.app.close());

const WINDOW = 'submissionDateFrom=2026-08-01T00:00:00Z&submissionDateTo=2026-08-04T00:00:00Z';
const search = (bearer: string, query: string) => sim.get(bearer, `/api/v1.0/documents/search?${query}`);
const ids = (body: any) => body.result.map((d: any) => d.internalId);

describe('GET /api/v1.0/documents/search', () => {
  it('finds the issuer its documents by internal id, name or TIN, newest first, in pages', async () => {
    sim = setup();
    const issuer = await sim.token();
    await sim.submit(issuer, minimalInvoice('INV-1'), minimalInvoice('INV-2'));
    sim.control.advance(60_000);
    await sim.submit(issuer, minimalInvoice('INV-3'));
    const all = await search(issuer, `${WINDOW}&invoiceDirection=Sent`);
    expect(all.statusCode).toBe(200);
    expect(ids(all.json())).toEqual(['INV-3', 'INV-2', 'INV-1']);
    expect(all.json().metadata).toEqual({ totalPages: 1, totalCount: 3 });
    const first = all.json().result[0];
    expect(first).toMatchObject({ status: 'Submitted', issuerTin: 'C1234567890', receiverId: BUYER.tin, dateTimeReceived: '2026-08-03T02:21:00Z', totalPayableAmount: 216 });
    expect(first.submissionUID).toBe(first.submissionUid);

    expect(ids((await search(issuer, `${WINDOW}&searchQuery=inv-2`)).json())).toEqual(['INV-2']);
    expect(ids((await search(issuer, `${WINDOW}&searchQuery=pelanggan`)).json())).toHaveLength(3);
    expect(ids((await search(issuer, `${WINDOW}&searchQuery=${BUYER.tin}`)).json())).toHaveLength(3);
    expect(ids((await search(issuer, `${WINDOW}&searchQuery=nothing-like-it`)).json())).toEqual([]);
    expect(ids((await search(issuer, `${WINDOW}&uuid=${first.uuid}`)).json())).toEqual(['INV-3']);

    const page2 = (await search(issuer, `${WINDOW}&pageSize=2&pageNo=2`)).json();
    expect(ids(page2)).toEqual(['INV-1']);
    expect(page2.metadata).toEqual({ totalPages: 2, totalCount: 3 });
  });

  it('filters by status, document type and issue date', async () => {
    sim = setup();
    const issuer = await sim.token();
    const bad = minimalInvoice('BAD');
    inv(bad).LegalMonetaryTotal[0].PayableAmount[0]._ = 1;
    await sim.submit(issuer, minimalInvoice('GOOD'), bad);
    sim.control.validatePending();
    expect(ids((await search(issuer, `${WINDOW}&status=Valid`)).json())).toEqual(['GOOD']);
    expect(ids((await search(issuer, `${WINDOW}&status=Invalid`)).json())).toEqual(['BAD']);
    expect(ids((await search(issuer, `${WINDOW}&documentType=02`)).json())).toEqual([]);
    expect(ids((await search(issuer, `${WINDOW}&documentType=01`)).json())).toHaveLength(2);
    expect(ids((await search(issuer, 'issueDateFrom=2026-08-03T02:00:00Z&issueDateTo=2026-08-03T02:15:00Z')).json())).toHaveLength(2);
    expect(ids((await search(issuer, 'issueDateFrom=2026-08-03T02:16:00Z&issueDateTo=2026-08-04T00:00:00Z')).json())).toEqual([]);
    expect(ids((await search(issuer, 'submissionDateFrom=2026-08-03T02:20:01Z&submissionDateTo=2026-08-04T00:00:00Z')).json())).toEqual([]);
  });

  it('shows the receiver only Valid or Cancelled documents, and a third party nothing', async () => {
    sim = setup();
    const issuer = await sim.token();
    const buyer = await sim.token(BUYER);
    const other = await sim.token(OTHER);
    const bad = minimalInvoice('BAD');
    inv(bad).LegalMonetaryTotal[0].PayableAmount[0]._ = 1;
    await sim.submit(issuer, minimalInvoice('GOOD'), bad);
    expect(ids((await search(buyer, `${WINDOW}&invoiceDirection=Received`)).json())).toEqual([]);
    sim.control.validatePending();
    expect(ids((await search(buyer, `${WINDOW}&invoiceDirection=Received`)).json())).toEqual(['GOOD']);
    expect(ids((await search(buyer, WINDOW)).json())).toEqual(['GOOD']);
    expect(ids((await search(buyer, `${WINDOW}&invoiceDirection=Sent`)).json())).toEqual([]);
    expect(ids((await search(issuer, `${WINDOW}&invoiceDirection=Received`)).json())).toEqual([]);
    expect((await search(other, WINDOW)).json()).toEqual({ result: [], metadata: { totalPages: 0, totalCount: 0 } });
  });

  it('refuses a missing or half date pair, a window over 31 days, bad paging or filters with 400 BadArgument', async () => {
    sim = setup();
    const issuer = await sim.token();
    const refusals: [string, string][] = [
      ['', 'submissionDateFrom'],
      ['submissionDateFrom=2026-08-01T00:00:00Z', 'submissionDateTo'],
      ['issueDateTo=2026-08-01T00:00:00Z', 'issueDateFrom'],
      ['submissionDateFrom=2026-07-01T00:00:00Z&submissionDateTo=2026-08-01T00:00:01Z', 'submissionDateTo'],
      ['submissionDateFrom=2026-08-02T00:00:00Z&submissionDateTo=2026-08-01T00:00:00Z', 'submissionDateFrom'],
      ['submissionDateFrom=yesterday&submissionDateTo=2026-08-01T00:00:00Z', 'submissionDateFrom'],
      [`${WINDOW}&pageSize=101`, 'pageSize'],
      [`${WINDOW}&pageNo=0`, 'pageNo'],
      [`${WINDOW}&invoiceDirection=Both`, 'invoiceDirection'],
      [`${WINDOW}&status=Rejected`, 'status'],
      [`${WINDOW}&documentType=05`, 'documentType'],
    ];
    for (const [query, target] of refusals) {
      const res = await search(issuer, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error, query).toMatchObject({ code: 'BadArgument', target });
    }
    const exactly31 = await search(issuer, 'submissionDateFrom=2026-07-01T00:00:00Z&submissionDateTo=2026-08-01T00:00:00Z');
    expect(exactly31.statusCode).toBe(200);
  });

  it('is limited to 12 requests a minute per client by default', async () => {
    sim = setup();
    const issuer = await sim.token();
    for (let i = 0; i < 12; i++) expect((await search(issuer, WINDOW)).statusCode).toBe(200);
    const limited = await search(issuer, WINDOW);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('60');
    expect(sim.control.requestCount('search')).toBe(13);
  });
});
