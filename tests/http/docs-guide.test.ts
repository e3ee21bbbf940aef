import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, WHAT_TO_DO } from '../../src/lib/errors';
import { useTestApp } from '../helpers/app';

/**
 * What the /docs page shows before the operations: the product's name as the page's title and heading,
 * the sections on authentication, errors (every code, its status, what to do, its /problems page) and
 * the MyInvois lifecycle, and whole examples of each shape a record takes.
 */
const t = useTestApp();
type Json = Record<string, any>;

async function fetchDoc(): Promise<Json> {
  const res = await t.app.inject({ method: 'GET', url: '/v1/openapi.json' });
  expect(res.statusCode).toBe(200);
  return res.json();
}

const mediaExamples = (doc: Json, method: string, path: string): Json => doc.paths[path][method].responses[method === 'post' ? '201' : '200'].content['application/json'].examples;

describe('the /docs page', () => {
  it("has the product's name as its <title> and as the document's title (the page heading), not Scalar's", async () => {
    const page = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/<title>Finance API<\/title>/);
    expect(page.body).not.toMatch(/<title>[^<]*Scalar/);
    expect((await fetchDoc()).info.title).toBe('Finance API');
  });

  it('has the sections authentication, errors and the MyInvois lifecycle', async () => {
    const description: string = (await fetchDoc()).info.description;
    const headings = [...description.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(headings).toEqual(expect.arrayContaining(['Authentication', 'Errors', 'The MyInvois lifecycle']));
    const section = (name: string) => description.split(/^## /m).find((s) => s.startsWith(name))!;

    const auth = section('Authentication');
    for (const words of ['key create', 'key revoke', 'auth.login', 'auth.logout', 'session create', 'Authorization: Bearer', 'Idempotency-Key', 'If-Match', 'person_required']) {
      expect(auth, words).toContain(words);
    }

    const errors = section('Errors');
    for (const [code, entry] of Object.entries(ERROR_CATALOGUE)) {
      const row = errors.split('\n').find((line) => line.includes(`[\`${code}\`](/problems/${code})`));
      expect(row, code).toBeDefined();
      expect(row).toMatch(new RegExp(`^\\| ${entry.status} \\|`));
      expect(row).toContain(WHAT_TO_DO[code as keyof typeof WHAT_TO_DO]!.replace(/\|/g, '\\|'));
    }

    const myinvois = section('The MyInvois lifecycle');
    for (const words of ['draft', 'submitted', 'valid', 'invalid', 'cancel_requested', 'cancelled', 'rejection_requested', '72 hours', 'einvoice_not_ready', 'validation_link', 'credit note']) {
      expect(myinvois, words).toContain(words);
    }
  });

  it('shows each shape of a receivables document: a draft without number or issued_at, an issued invoice and a credit note with both', async () => {
    const doc = await fetchDoc();
    const read = mediaExamples(doc, 'get', '/receivables/invoices/{id}');
    expect(Object.keys(read)).toEqual(['draft', 'issued_invoice', 'credit_note']);
    expect(read.draft.value).toMatchObject({ state: 'draft', reference: null, issued_at: null });
    expect(read.issued_invoice.value).toMatchObject({ kind: 'sales_invoice', state: 'issued', reference: expect.stringMatching(/^INV-/), issued_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(read.issued_invoice.value.buyer).not.toBeNull();
    expect(read.credit_note.value).toMatchObject({ kind: 'customer_credit_note', reference: expect.stringMatching(/^CN-/), issued_at: expect.any(String), original_invoice_id: read.issued_invoice.value.id });
    // A create answers a draft.
    expect(Object.keys(mediaExamples(doc, 'post', '/receivables/invoices'))).toEqual(['draft']);
    // The list shows an issued invoice with its number.
    const page = mediaExamples(doc, 'get', '/receivables/invoices').page.value;
    expect(page.documents[0]).toMatchObject({ state: 'issued', reference: expect.any(String), issued_at: expect.any(String) });
    expect(page.documents[0].lines).toBeUndefined();
  });

  it("shows the e-invoice in each status, the valid one with LHDN's UUID and validation link", async () => {
    const einvoice = mediaExamples(await fetchDoc(), 'get', '/receivables/invoices/{id}/einvoice');
    expect(Object.keys(einvoice).sort()).toEqual(['cancelled', 'invalid', 'not_submitted', 'rejection_requested', 'submitted', 'valid']);
    expect(einvoice.valid.value).toMatchObject({ status: 'valid', uuid: expect.stringMatching(/^[A-Z0-9]{26}$/), validated_at: expect.any(String), validation_link: expect.stringContaining('/share/') });
    expect(einvoice.not_submitted.value.preflight.length).toBeGreaterThan(0);
    expect(einvoice.invalid.value.errors.length).toBeGreaterThan(0);
  });

  it('shows a claim in its states', async () => {
    const claims = mediaExamples(await fetchDoc(), 'get', '/expenses/claims/{id}');
    expect(Object.fromEntries(Object.entries<Json>(claims).map(([name, e]) => [name, e.value.claim.state]))).toEqual({
      draft: 'draft',
      review: 'review',
      returned: 'draft',
      approved: 'approved',
      paid: 'paid',
      rejected: 'rejected',
    });
    expect(claims.draft.value.claim.submitted_at).toBeNull();
    expect(claims.paid.value.settlements).toHaveLength(1);
    expect(claims.review.value.available_transitions.map((a: Json) => a.action_key)).toContain('approve');
  });
});
