import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app';

const run = promisify(execFile);
const t = useTestApp();

/**
 * The operations of the public contract (spec section 4) plus the ones docs/design.md §12 adds.
 * A procedure that is not in this list must not appear on /v1; one in it must not be missing.
 */
export const CONTRACT_OPERATIONS = [
  'GET /receivables/customers/{id}',
  'GET /receivables/invoices',
  'GET /receivables/invoices/{id}',
  'POST /receivables/invoices',
  'POST /expenses/claims',
];
export const ADDED_OPERATIONS = [
  'POST /documents',
  'GET /receivables/reports/ageing',
  'GET /receivables/reports/figures',
  'POST /receivables/invoices/{id}/attachments',
  'GET /receivables/customers',
  'POST /receivables/customers',
  'PATCH /receivables/customers/{id}',
  'PATCH /receivables/invoices/{id}',
  'GET /receivables/invoices/{id}/einvoice',
  'GET /receivables/invoices/{id}/pdf',
  'GET /receivables/customers/{id}/statement',
  'GET /receivables/customers/{id}/statement/pdf',
  'GET /receivables/receipts/{id}/pdf',
  'GET /documents/{id}',
  'GET /documents/{id}/content',
  'POST /receivables/receipts',
  'POST /receivables/bank-accounts/{id}/statements',
  'GET /receivables/bank-accounts/{id}/lines',
  'POST /receivables/bank-statement-lines/{id}/accept',
  'GET /receivables/receipts/{id}',
  'GET /receivables/receipts',
  'GET /expenses/claims/{id}',
  'GET /expenses/claims',
  'POST /expenses/claims/{id}/lines',
  'PATCH /expenses/claims/{id}/lines/{line_id}',
  'POST /expenses/claims/{id}/lines/{line_id}/withdraw',
  'GET /settings/accounts',
  'GET /settings/tax-codes',
  'GET /events',
  'GET /events/{id}',
  'POST /webhook-endpoints',
  'GET /webhook-endpoints',
  'GET /webhook-endpoints/{id}',
  'PATCH /webhook-endpoints/{id}',
  'DELETE /webhook-endpoints/{id}',
  'POST /webhook-endpoints/{id}/rotate-secret',
  'POST /webhook-endpoints/{id}/test',
  'GET /webhook-endpoints/{id}/deliveries',
  'POST /webhook-endpoints/{id}/redeliver',
  'POST /journal/exports',
  'GET /journal/exports',
  'GET /journal/exports/{number}',
  'GET /journal/trial-balance',
  'GET /journal/accounts',
  'PUT /journal/accounts',
];

async function fetchDoc() {
  const res = await t.app.inject({ method: 'GET', url: '/v1/openapi.json' });
  expect(res.statusCode).toBe(200);
  return res.json();
}

function operations(doc: any): string[] {
  return Object.entries(doc.paths as Record<string, Record<string, unknown>>)
    .flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`))
    .sort();
}

describe('GET /v1/openapi.json', () => {
  it('is served without authentication and passes redocly lint with no errors', async () => {
    const doc = await fetchDoc();
    const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    const { stdout, stderr } = await run(join('node_modules', '.bin', 'redocly'), ['lint', file, '--format', 'summary'], { cwd: process.cwd() }).catch(
      (e: { stdout: string; stderr: string }) => {
        throw new Error(`redocly lint failed:\n${e.stdout}\n${e.stderr}`);
      },
    );
    expect(`${stdout}${stderr}`).not.toMatch(/\b[1-9]\d* errors?\b/);
  }, 60_000);

  it("documents exactly the contract's operations plus the ones docs/design.md adds, and no others", async () => {
    const ops = operations(await fetchDoc());
    expect(ops).toEqual([...CONTRACT_OPERATIONS, ...ADDED_OPERATIONS].sort());
  });

  it("the contract's own list of endpoints (section 4 headings) matches, when the contract is beside the repository", () => {
    const contract = join(process.cwd(), '..', 'shared', 'spec', 'public-interface.md');
    if (!existsSync(contract)) return;
    const headings = [...readFileSync(contract, 'utf8').matchAll(/^### 4\.\d+ (GET|POST|PUT|PATCH|DELETE) (\/\S+)/gm)].map((m) => `${m[1]} ${m[2]}`);
    expect(headings.sort()).toEqual([...CONTRACT_OPERATIONS].sort());
  });

  it('tells the truth about answers: problem+json errors, bearer security, ETag', async () => {
    const doc = await fetchDoc();
    const op = doc.paths['/receivables/customers/{id}'].get;
    expect(op.security).toEqual([{ bearer: [] }]);
    expect(Object.keys(op.responses).sort()).toEqual(['200', '400', '401', '403', '404', '422', '429', '500', '503']);
    expect(op.responses['200'].headers.ETag).toEqual({ $ref: '#/components/headers/ETag' });
    expect(doc.components.responses.Problem404.content['application/problem+json'].schema).toEqual({ $ref: '#/components/schemas/Problem' });
    expect(doc.components.schemas.Problem.required).toEqual(['type', 'title', 'status']);
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
  });
});

describe('docs and health', () => {
  it('/docs renders an interactive page from the document', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('/v1/openapi.json');
  });
  it('/healthz and /readyz answer', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().status).toBe('ready');
  });
  it('/problems/<code> explains a code', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/problems/idempotency_key_reused' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Idempotency key reused');
  });
});

describe('receivables documents and uploads in the document', () => {
  it('POST /receivables/invoices answers 201 with Location and ETag; the upload is multipart with a binary file part', async () => {
    const doc = await fetchDoc();
    const create = doc.paths['/receivables/invoices'].post;
    expect(Object.keys(create.responses)).toContain('201');
    expect(create.responses['200']).toBeUndefined();
    expect(create.responses['201'].headers).toMatchObject({ Location: expect.any(Object), ETag: expect.any(Object) });
    expect(create.responses['201'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ReceivablesDocument' });
    expect(doc.paths['/receivables/invoices/{id}'].get.responses['200'].headers.ETag).toBeDefined();
    expect(doc.paths['/receivables/invoices/{id}/attachments'].post.responses['200']).toBeDefined();
    const upload = doc.paths['/documents'].post;
    expect(upload.requestBody.content['multipart/form-data'].schema.properties.file).toEqual({ type: 'string', format: 'binary', description: 'The file' });
    expect(Object.keys(upload.responses).sort()).toEqual(['201', '400', '401', '403', '409', '413', '415', '422', '429', '500', '503']);
    expect(upload.security).toEqual([{ bearer: [] }]);
  });
});

describe('customers in the document', () => {
  it('the list pages with a cursor; POST answers 201 with Location and ETag; PATCH needs If-Match (428) and documents 409', async () => {
    const doc = await fetchDoc();
    const list = doc.paths['/receivables/customers'].get;
    expect(Object.keys(list.responses).sort()).toEqual(['200', '400', '401', '403', '422', '429', '500', '503']);
    expect(list.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/CustomerList' });
    expect(list.parameters.map((p: any) => p.name).sort()).toEqual(['cursor', 'group', 'is_active', 'limit', 'order', 'q', 'sort']);

    const create = doc.paths['/receivables/customers'].post;
    expect(create.responses['200']).toBeUndefined();
    expect(create.responses['201'].headers).toMatchObject({ Location: expect.any(Object), ETag: expect.any(Object) });
    expect(create.responses['201'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Customer' });
    expect(create.parameters).toContainEqual({ $ref: '#/components/parameters/IdempotencyKey' });
    expect(create.parameters).not.toContainEqual({ $ref: '#/components/parameters/IfMatch' });

    const patch = doc.paths['/receivables/customers/{id}'].patch;
    expect(Object.keys(patch.responses).sort()).toEqual(['200', '400', '401', '403', '404', '409', '413', '415', '422', '428', '429', '500', '503']);
    expect(patch.responses['200'].headers.ETag).toEqual({ $ref: '#/components/headers/ETag' });
    expect(patch.parameters).toContainEqual({ $ref: '#/components/parameters/IfMatch' });
    expect(patch.parameters).toContainEqual({ $ref: '#/components/parameters/IdempotencyKey' });
    expect(doc.components.parameters.IfMatch).toMatchObject({ name: 'If-Match', in: 'header', required: true });
    expect(doc.components.responses.Problem428.content['application/problem+json'].schema).toEqual({ $ref: '#/components/schemas/Problem' });
    expect(doc.components.responses.Problem409.description).toContain('revision_mismatch');
    expect(patch.requestBody.content['application/json'].schema.properties).toHaveProperty('is_active');
    expect(doc.components.schemas.Customer.properties.country_code.description).toMatch(/alpha-2/);
  });
});

describe('expense claims in the document', () => {
  it('the claim answer names its date-times and dates by format, like the invoice schemas', async () => {
    const doc = await fetchDoc();
    const schemas = doc.components.schemas;
    for (const field of ['created_at', 'submitted_at']) {
      expect(JSON.stringify(schemas.Claim.properties[field])).toContain('"format":"date-time"');
    }
    expect(schemas.ClaimLine.properties.expense_date).toMatchObject({ type: 'string', format: 'date' });
    expect(JSON.stringify(schemas.ClaimLine.properties.einvoice_validated_at)).toContain('"format":"date-time"');
    for (const [schema, field] of [
      ['ClaimDecision', 'decided_at'],
      ['ClaimSettlement', 'settled_at'],
    ]) {
      expect(schemas[schema!].properties[field!]).toMatchObject({ type: 'string', format: 'date-time' });
    }
    // The same formats as the invoices'.
    expect(schemas.ReceivablesDocument.properties.created_at).toMatchObject({ type: 'string', format: 'date-time' });
  });
  it('POST /expenses/claims says its Location is the canonical URL, which GET /expenses/claims/{id} reads with an ETag', async () => {
    const doc = await fetchDoc();
    const create = doc.paths['/expenses/claims'].post;
    expect(create.responses['201'].headers).toMatchObject({ Location: expect.any(Object), ETag: expect.any(Object) });
    expect(create.description).toContain("The Location header is the claim's canonical URL (/v1/expenses/claims/{id}), which GET reads.");
    expect(create.description).not.toContain('tRPC');
    const read = doc.paths['/expenses/claims/{id}'].get;
    expect(read.responses['200'].headers.ETag).toEqual({ $ref: '#/components/headers/ETag' });
    expect(read.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ClaimAnswer' });
    const list = doc.paths['/expenses/claims'].get;
    expect(list.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['cursor', 'limit', 'month', 'q', 'scope', 'state']);
    expect(list.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ClaimList' });
  });
});
