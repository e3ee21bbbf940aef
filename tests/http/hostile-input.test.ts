/**
 * Issue 14, input: hostile text, structures, dates, ids, query parameters, media types and uploads
 * are refused at the edge as problems (never a 500, never a row written), on /v1 and /trpc alike.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { queryRows, sql } from '../../src/db/client';
import { bearer, createTestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';
import { multipartBody, SAMPLE_PDF } from '../helpers/multipart';
import { createInvoiceWorld, uploadTestDocument } from '../factories/receivables';
import { expectProblem } from '../helpers/problem';

const t = useTestApp();

const CUSTOMERS = '/v1/receivables/customers';

/** A POST with the body sent exactly as given (raw JSON text or bytes). */
const postRaw = (url: string, token: string | undefined, payload: string | Buffer, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { ...(token ? bearer(token) : {}), 'content-type': 'application/json', 'idempotency-key': randomUUID(), ...headers },
    payload,
  });

async function customerCount(organizationId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from customers where organization_id = ${organizationId}`);
  return Number(row?.n ?? 0);
}

async function fileCount(organizationId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from files where organization_id = ${organizationId}`);
  return Number(row?.n ?? 0);
}

/** tRPC's error answer carries the problem under error.data.problem. */
function trpcProblem(res: { statusCode: number; json: () => any }, status: number, code: string) {
  expect(res.statusCode, JSON.stringify(res.json())).toBe(status);
  const problem = res.json().error?.data?.problem;
  expect(problem?.code).toBe(code);
  return problem as { errors?: { pointer: string; detail: string }[]; detail: string };
}

describe('text the database cannot store, or that is not what was sent, is 400 naming the field', () => {
  it('a NUL character in a customer field is 400 at its pointer, and nothing is stored', async () => {
    const org = await createTestOrganization(t.db);
    const res = await postRaw(CUSTOMERS, org.owner.apiKey, JSON.stringify({ code: 'NUL-1', legal_name: 'Kedai\u0000Satu' }));
    const problem = expectProblem(res, 400, 'invalid_request');
    expect(problem.errors).toEqual([{ pointer: '/legal_name', detail: expect.stringContaining('NUL') }]);
    expect(await customerCount(org.id)).toBe(0);
  });

  it('a lone surrogate in a JSON value (custom fields, address) is 400 at its pointer', async () => {
    const org = await createTestOrganization(t.db);
    const custom = await postRaw(CUSTOMERS, org.owner.apiKey, '{"code":"LS-1","legal_name":"Kedai","custom_fields":{"note":"a\\ud800b"}}');
    expect(expectProblem(custom, 400, 'invalid_request').errors).toEqual([{ pointer: '/custom_fields/note', detail: expect.stringContaining('surrogate') }]);
    const address = await postRaw(CUSTOMERS, org.owner.apiKey, '{"code":"LS-2","legal_name":"Kedai","address":{"line1":"\\udc00"}}');
    expect(expectProblem(address, 400, 'invalid_request').errors).toEqual([{ pointer: '/address/line1', detail: expect.stringContaining('surrogate') }]);
    expect(await customerCount(org.id)).toBe(0);
  });

  it('a lone surrogate in a code is refused rather than stored as U+FFFD (two codes cannot collide)', async () => {
    const org = await createTestOrganization(t.db);
    const res = await postRaw(CUSTOMERS, org.owner.apiKey, '{"code":"C-\\ud800","legal_name":"Kedai"}');
    expect(expectProblem(res, 400, 'invalid_request').errors).toEqual([{ pointer: '/code', detail: expect.stringContaining('surrogate') }]);
    expect(await customerCount(org.id)).toBe(0);
  });

  it('a body that is not valid UTF-8 is 400, not decoded with replacement characters', async () => {
    const org = await createTestOrganization(t.db);
    const body = Buffer.concat([Buffer.from('{"code":"U8-1","legal_name":"Kedai '), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const res = await postRaw(CUSTOMERS, org.owner.apiKey, body);
    expect(expectProblem(res, 400, 'invalid_request').detail).toMatch(/UTF-8/);
    expect(await customerCount(org.id)).toBe(0);
  });

  it('a NUL in a query parameter is 400 at /query/<name>', async () => {
    const org = await createTestOrganization(t.db);
    const res = await t.app.inject({ method: 'GET', url: `${CUSTOMERS}?q=a%00b`, headers: bearer(org.owner.apiKey) });
    expect(expectProblem(res, 400, 'invalid_request').errors).toEqual([{ pointer: '/query/q', detail: expect.stringContaining('NUL') }]);
  });

  it('invalid percent-encoded UTF-8 in a query parameter is 400 at /query/<name>', async () => {
    const org = await createTestOrganization(t.db);
    const res = await t.app.inject({ method: 'GET', url: `${CUSTOMERS}?q=%FF`, headers: bearer(org.owner.apiKey) });
    expect(expectProblem(res, 400, 'invalid_request').errors).toEqual([{ pointer: '/query/q', detail: expect.stringContaining('UTF-8') }]);
  });

  it('on /trpc too: a NUL in a claim title is 400 at /title and no claim is written', async () => {
    const org = await createTestOrganization(t.db);
    const res = await postRaw('/trpc/expenses.claims.create', org.owner.apiKey, JSON.stringify({ title: 'Taxi\u0000' }));
    expect(trpcProblem(res, 400, 'invalid_request').errors).toEqual([{ pointer: '/title', detail: expect.stringContaining('NUL') }]);
    const [row] = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from claims where organization_id = ${org.id}`);
    expect(Number(row?.n)).toBe(0);
  });
});

describe('nesting is limited (64) before anything parses, hashes or authenticates the body', () => {
  const deep = (n: number) => `{"code":"D","legal_name":"D","custom_fields":${'['.repeat(n)}${']'.repeat(n)}}`;

  it('JSON nested 5,000 deep on /v1 is 400, with or without a key', async () => {
    const org = await createTestOrganization(t.db);
    expect(expectProblem(await postRaw(CUSTOMERS, org.owner.apiKey, deep(5000)), 400, 'invalid_request').detail).toMatch(/64/);
    const anonymous = await postRaw(CUSTOMERS, undefined, deep(5000));
    expect(anonymous.statusCode).toBeLessThan(500);
    expectProblem(anonymous, anonymous.statusCode);
    expect(await customerCount(org.id)).toBe(0);
  });

  it('JSON nested 5,000 deep on /trpc is 400 before the idempotency fingerprint', async () => {
    const org = await createTestOrganization(t.db);
    const res = await postRaw('/trpc/receivables.customers.create', org.owner.apiKey, deep(5000));
    expect(trpcProblem(res, 400, 'invalid_request').detail).toMatch(/64/);
    expect(await customerCount(org.id)).toBe(0);
  });

  it('nesting within the limit is parsed as usual (65 levels in a string are only text)', async () => {
    const org = await createTestOrganization(t.db);
    const res = await postRaw(CUSTOMERS, org.owner.apiKey, JSON.stringify({ code: 'D-OK', legal_name: '['.repeat(65) }));
    expect(res.statusCode, res.body).toBe(201);
  });
});

describe('keys that name a prototype are refused anywhere in a body', () => {
  for (const key of ['__proto__', 'constructor', 'prototype']) {
    it(`"${key}" as a key of a JSON value (custom fields) is 400 at its pointer, on /v1 and /trpc`, async () => {
      const org = await createTestOrganization(t.db);
      const body = `{"code":"P-1","legal_name":"Kedai","custom_fields":{"${key}":"yes"}}`;
      const rest = await postRaw(CUSTOMERS, org.owner.apiKey, body);
      expectProblem(rest, 400, 'invalid_request');
      const trpc = await postRaw('/trpc/receivables.customers.create', org.owner.apiKey, body);
      expect(trpcProblem(trpc, 400, 'invalid_request').errors).toEqual([{ pointer: `/custom_fields/${key}`, detail: expect.any(String) }]);
      expect(await customerCount(org.id)).toBe(0);
    });
  }
});

describe('unknown query parameters are refused on every operation', () => {
  it('a query parameter on a POST is 400 at /query/<name>, and nothing is stored', async () => {
    const org = await createTestOrganization(t.db);
    const res = await postRaw(`${CUSTOMERS}?dry_run=true`, org.owner.apiKey, JSON.stringify({ code: 'Q-1', legal_name: 'Kedai' }));
    expect(expectProblem(res, 400, 'invalid_request').errors).toEqual([{ pointer: '/query/dry_run', detail: 'is not a field this operation accepts' }]);
    expect(await customerCount(org.id)).toBe(0);
  });

  it('a query parameter on a plain route (document content) is 400 at /query/<name>', async () => {
    const org = await createTestOrganization(t.db);
    const res = await t.app.inject({ method: 'GET', url: `/v1/documents/${randomUUID()}/content?download=1`, headers: bearer(org.owner.apiKey) });
    expect(expectProblem(res, 400, 'invalid_request').errors).toEqual([{ pointer: '/query/download', detail: 'is not a field this operation accepts' }]);
  });

  it('documented query parameters still work', async () => {
    const org = await createTestOrganization(t.db);
    const res = await t.app.inject({ method: 'GET', url: `${CUSTOMERS}?limit=5`, headers: bearer(org.owner.apiKey) });
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('dates within the years the business and PostgreSQL accept (1900-01-01 to 9999-12-31)', () => {
  it('invoice_date_from=0000-01-01 is 400 at /query/invoice_date_from', async () => {
    const org = await createTestOrganization(t.db);
    const res = await t.app.inject({ method: 'GET', url: '/v1/receivables/invoices?invoice_date_from=0000-01-01', headers: bearer(org.owner.apiKey) });
    expect(expectProblem(res, 400, 'invalid_request').errors).toEqual([{ pointer: '/query/invoice_date_from', detail: 'must be a day from 1900-01-01 to 9999-12-31' }]);
  });

  it('a day in range is taken', async () => {
    const org = await createTestOrganization(t.db);
    const res = await t.app.inject({ method: 'GET', url: '/v1/receivables/invoices?invoice_date_from=1900-01-01', headers: bearer(org.owner.apiKey) });
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('UUIDs are canonical (lower case) on entry', () => {
  it('ids in upper case find their records: in the path, and in body fields (customer, account, tax code, attachment)', async () => {
    const w = await createInvoiceWorld(t.db);
    const token = w.org.owner.apiKey;
    const got = await t.app.inject({ method: 'GET', url: `${CUSTOMERS}/${w.customer.id.toUpperCase()}`, headers: bearer(token) });
    expect(got.statusCode, got.body).toBe(200);
    expect(got.json().id).toBe(w.customer.id);
    const document = await uploadTestDocument(t.db, w.org.id, w.org.owner.id);
    const up = (id: string) => id.toUpperCase();
    const body = w.body({
      customer_id: up(w.customer.id),
      lines: [w.line({ account_id: up(w.ref.revenue.id), tax_code_id: up(w.ref.sv8.id) })],
      attachment_ids: [up(document.id)],
    });
    const created = await postRaw('/v1/receivables/invoices', token, JSON.stringify(body));
    expect(created.statusCode, created.body).toBe(201);
    const [row] = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from file_attachments where organization_id = ${w.org.id}`);
    expect(Number(row?.n)).toBe(1);
  });
});

describe('blank means blank once invisible characters are removed', () => {
  it('a claim title of only zero-width spaces is 422 at /title, and no claim is written', async () => {
    const org = await createTestOrganization(t.db);
    const res = await postRaw('/v1/expenses/claims', org.owner.apiKey, JSON.stringify({ title: '\u200b\u200b' }));
    const problem = expectProblem(res, 422, 'validation');
    expect(problem.errors?.[0]?.pointer).toBe('/title');
    const [row] = await queryRows<{ n: number }>(t.db, sql`select count(*)::int as n from claims where organization_id = ${org.id}`);
    expect(Number(row?.n)).toBe(0);
  });
});

describe('media types', () => {
  it('APPLICATION/JSON is application/json', async () => {
    const org = await createTestOrganization(t.db);
    const res = await postRaw(CUSTOMERS, org.owner.apiKey, JSON.stringify({ code: 'MT-1', legal_name: 'Kedai' }), { 'content-type': 'APPLICATION/JSON; Charset=UTF-8' });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('a JSON body in another charset is 415, and nothing is stored', async () => {
    const org = await createTestOrganization(t.db);
    const res = await postRaw(CUSTOMERS, org.owner.apiKey, JSON.stringify({ code: 'MT-2', legal_name: 'Kedai' }), { 'content-type': 'application/json; charset=iso-8859-1' });
    expectProblem(res, 415, 'unsupported_media_type');
    expect(await customerCount(org.id)).toBe(0);
  });
});

describe('codes and names are compared in Unicode NFC', () => {
  it('a code in decomposed form is the same code as its precomposed form (409), and is stored in NFC', async () => {
    const org = await createTestOrganization(t.db);
    const first = await postRaw(CUSTOMERS, org.owner.apiKey, JSON.stringify({ code: 'CAF\u00c9', legal_name: 'Caf\u00e9 Satu' }));
    expect(first.statusCode, first.body).toBe(201);
    const second = await postRaw(CUSTOMERS, org.owner.apiKey, JSON.stringify({ code: 'CAFE\u0301', legal_name: 'Cafe\u0301 Dua' }));
    expectProblem(second, 409);
    expect(await customerCount(org.id)).toBe(1);
    const [row] = await queryRows<{ code: string }>(t.db, sql`select code from customers where organization_id = ${org.id}`);
    expect(row?.code).toBe('CAF\u00c9');
  });
});

describe('uploads: multipart failures are 400 problems, XML must be well-formed and free of script', () => {
  const upload = (token: string, payload: Buffer | string, contentType: string) =>
    t.app.inject({ method: 'POST', url: '/v1/documents', headers: { ...bearer(token), 'content-type': contentType, 'idempotency-key': randomUUID() }, payload });

  it('multipart/form-data without a boundary is 400', async () => {
    const org = await createTestOrganization(t.db);
    const { payload } = multipartBody({ filename: 'a.pdf', contentType: 'application/pdf', content: SAMPLE_PDF });
    expectProblem(await upload(org.owner.apiKey, payload, 'multipart/form-data'), 400, 'invalid_request');
    expect(await fileCount(org.id)).toBe(0);
  });

  it('a truncated multipart body is 400', async () => {
    const org = await createTestOrganization(t.db);
    const { payload, contentType } = multipartBody({ filename: 'a.pdf', contentType: 'application/pdf', content: SAMPLE_PDF });
    expectProblem(await upload(org.owner.apiKey, payload.subarray(0, payload.length - 30), contentType), 400, 'invalid_request');
    expect(await fileCount(org.id)).toBe(0);
  });

  it('a garbage body is 400', async () => {
    const org = await createTestOrganization(t.db);
    expectProblem(await upload(org.owner.apiKey, 'this is not multipart at all', 'multipart/form-data; boundary=XYZ'), 400, 'invalid_request');
    expect(await fileCount(org.id)).toBe(0);
  });

  const xmlUpload = (token: string, xml: string, type = 'application/xml') => {
    const { payload, contentType } = multipartBody({ filename: 'doc.xml', contentType: type, content: Buffer.from(xml) });
    return upload(token, payload, contentType);
  };

  it('HTML with <script> declared as XML is refused (422 at /file)', async () => {
    const org = await createTestOrganization(t.db);
    const res = await xmlUpload(org.owner.apiKey, '<html><body><script>alert(document.cookie)</script></body></html>', 'text/xml');
    expect(expectProblem(res, 422, 'validation').errors).toEqual([{ pointer: '/file', detail: expect.stringContaining('script') }]);
    expect(await fileCount(org.id)).toBe(0);
  });

  it('XML that is not well-formed is refused (415 at /file)', async () => {
    const org = await createTestOrganization(t.db);
    const res = await xmlUpload(org.owner.apiKey, '<?xml version="1.0"?><Invoice><ID>1</Invoice>');
    expect(expectProblem(res, 415, 'unsupported_media_type').errors).toEqual([{ pointer: '/file', detail: expect.stringContaining('well-formed') }]);
    expect(await fileCount(org.id)).toBe(0);
  });

  it('an XML document with a DOCTYPE (entity definitions) is refused', async () => {
    const org = await createTestOrganization(t.db);
    const res = await xmlUpload(org.owner.apiKey, '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>');
    expectProblem(res, 422, 'validation');
    expect(await fileCount(org.id)).toBe(0);
  });

  it('a well-formed XML document is taken', async () => {
    const org = await createTestOrganization(t.db);
    const res = await xmlUpload(org.owner.apiKey, '<?xml version="1.0" encoding="UTF-8"?><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><ID>INV-1</ID></Invoice>');
    expect(res.statusCode, res.body).toBe(201);
  });
});
