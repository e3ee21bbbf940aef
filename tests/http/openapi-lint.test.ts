import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import spectralCore from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../src/routers/openapi';
import { createTestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';

/**
 * The OpenAPI document as the /docs page and client generators read it: lint-clean under Redocly's
 * `recommended` ruleset and Spectral's `spectral:oas`, both with no error and no warning, and real
 * examples everywhere (what the page shows and its request client pre-fills is a value the API accepts).
 */
const run = promisify(execFile);
const t = useTestApp();
type Json = Record<string, any>;
const build = () => buildOpenApiDocument({ rateLimits: { perKey: 600, perOrganization: 3000, windowSeconds: 60, authFailures: 20, authFailureWindowSeconds: 300 } }) as Json;

async function redocly(doc: Json) {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
  writeFileSync(join(dir, 'openapi.json'), JSON.stringify(doc));
  writeFileSync(join(dir, 'redocly.yaml'), 'extends:\n  - recommended\n');
  const out = await run(join(process.cwd(), 'node_modules', '.bin', 'redocly'), ['lint', 'openapi.json', '--config', 'redocly.yaml', '--format', 'json'], { cwd: dir }).catch(
    (e: { stdout: string }) => e,
  );
  const report = JSON.parse(out.stdout) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; message: string; location: { pointer: string }[] }[] };
  return { ...report.totals, problems: report.problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`) };
}

async function spectral(doc: Json) {
  // CommonJS packages: their named exports sit on the default export under Node's ESM loader.
  const core = ((spectralCore as Json).Spectral ? spectralCore : (spectralCore as Json).default) as typeof spectralCore;
  const parsers = ((spectralParsers as Json).Json ? spectralParsers : (spectralParsers as Json).default) as typeof spectralParsers;
  const linter = new core.Spectral();
  linter.setRuleset({ extends: [[oas as never, 'recommended']] } as never);
  const results = await linter.run(new core.Document(JSON.stringify(doc, null, 2), parsers.Json, 'openapi.json'));
  return results.map((r) => `${['error', 'warning', 'info', 'hint'][r.severity]} ${r.code} ${r.path.join('.')}: ${r.message}`);
}

/** Every schema position of the document: components, parameters, headers, bodies and answers. */
function schemaRoots(doc: Json): [string, Json][] {
  const roots: [string, Json][] = [];
  for (const [n, s] of Object.entries<Json>(doc.components.schemas)) roots.push([`#/components/schemas/${n}`, s]);
  for (const [n, h] of Object.entries<Json>(doc.components.headers ?? {})) roots.push([`#/components/headers/${n}`, h.schema]);
  for (const [path, item] of Object.entries<Json>(doc.paths)) {
    for (const [method, op] of Object.entries<Json>(item)) {
      const at = `${method.toUpperCase()} ${path}`;
      for (const p of op.parameters ?? []) if (!p.$ref && p.example === undefined) roots.push([`${at} ${p.in}:${p.name}`, p.schema]);
      for (const [type, m] of Object.entries<Json>(op.requestBody?.content ?? {})) roots.push([`${at} body ${type}`, m.schema]);
      for (const [status, r] of Object.entries<Json>(op.responses)) {
        for (const [h, header] of Object.entries<Json>(r.headers ?? {})) if (!header.$ref) roots.push([`${at} ${status} ${h}`, header.schema]);
        for (const [type, m] of Object.entries<Json>(r.content ?? {})) roots.push([`${at} ${status} ${type}`, m.schema]);
      }
    }
  }
  return roots;
}

/** Each value schema (not an object, an array, null or a reference) below `s`, with where it is. */
function* leaves(where: string, s: Json | undefined): Generator<[string, Json]> {
  if (!s || s.$ref) return;
  for (const key of ['anyOf', 'oneOf', 'allOf']) for (const [i, b] of (s[key] ?? []).entries()) yield* leaves(`${where}/${key}/${i}`, b);
  for (const [p, sub] of Object.entries<Json>(s.properties ?? {})) yield* leaves(`${where}.${p}`, sub);
  if (s.items) yield* leaves(`${where}[]`, s.items);
  if (s.additionalProperties && typeof s.additionalProperties === 'object') yield* leaves(`${where}{}`, s.additionalProperties);
  if (s.propertyNames) yield* leaves(`${where}<key>`, s.propertyNames);
  const types = ([] as string[]).concat(s.type ?? []).filter((t) => t !== 'null');
  if (types.length && !types.includes('object') && !types.includes('array')) yield [where, s];
}

const exampleOf = (s: Json) => s.examples?.[0] ?? s.example ?? s.const ?? s.enum?.[0];

describe('the OpenAPI document lints clean', () => {
  it("with Redocly's recommended ruleset: no error, no warning (which includes every example fitting its own schema)", async () => {
    const report = await redocly(build());
    expect(report.problems).toEqual([]);
    expect([report.errors, report.warnings]).toEqual([0, 0]);
  }, 60_000);

  it("with Spectral's spectral:oas (recommended): no error, no warning", async () => {
    expect(await spectral(build())).toEqual([]);
  }, 60_000);

  it('Redocly does refuse an example that does not fit its schema: the check above is real', async () => {
    const doc = build();
    doc.paths['/receivables/invoices'].post.requestBody.content['application/json'].schema.properties.customer_id.examples = [''];
    doc.components.schemas.Customer.properties.payment_terms_days.examples = [-9007199254740991];
    const report = await redocly(doc);
    expect(report.problems.filter((p) => p.startsWith('no-invalid-schema-examples'))).toHaveLength(3);
  }, 60_000);
});

describe('the OpenAPI document tells a client what it needs', () => {
  it('every value has a real example: decimal strings, valid UUIDs, dates; no empty placeholder', () => {
    const doc = build();
    const missing: string[] = [];
    const empty: string[] = [];
    for (const [root, schema] of schemaRoots(doc)) {
      for (const [where, leaf] of leaves(root, schema)) {
        if (leaf.format === 'binary') continue;
        const example = exampleOf(leaf);
        if (example === undefined) missing.push(where);
        else if (example === '') empty.push(where);
      }
    }
    expect(missing).toEqual([]);
    expect(empty).toEqual([]);

    const invoice = doc.paths['/receivables/invoices'].post.requestBody.content['application/json'].schema.properties;
    expect(exampleOf(invoice.customer_id)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const document = doc.components.schemas.ReceivablesDocument.properties;
    expect(exampleOf(document.gross_amount)).toBe('1060.00');
    expect(exampleOf(document.net_total)).toBe('1000.00');
    expect(exampleOf(doc.components.schemas.Customer.properties.id)).toBe(exampleOf(invoice.customer_id));
  });

  it('integers carry their real bounds, not the safe-integer range', () => {
    const doc = build();
    const unbounded: string[] = [];
    for (const [root, schema] of schemaRoots(doc)) {
      for (const [where, leaf] of leaves(root, schema)) {
        if (!([] as string[]).concat(leaf.type).includes('integer')) continue;
        if (!(Math.abs(leaf.minimum) <= 2 ** 31) || !(Math.abs(leaf.maximum) <= 2 ** 31)) unbounded.push(`${where} [${leaf.minimum}, ${leaf.maximum}]`);
      }
    }
    expect(unbounded).toEqual([]);
    const customer = doc.paths['/receivables/customers'].post.requestBody.content['application/json'].schema.properties;
    expect(customer.payment_terms_days).toMatchObject({ minimum: 0, maximum: 365, examples: [30] });
    const limit = doc.paths['/receivables/invoices'].get.parameters.find((p: Json) => p.name === 'limit').schema.anyOf.find((s: Json) => s.type === 'integer');
    expect(limit).toMatchObject({ minimum: 1, maximum: 100 });
  });

  it('bearer security for the whole document, every tag defined with a description, no unused component', () => {
    const doc = build();
    expect(doc.security).toEqual([{ bearer: [] }]);
    const used = new Set(Object.values<Json>(doc.paths).flatMap((item) => Object.values<Json>(item).flatMap((op) => op.tags ?? [])));
    expect(doc.tags.map((t: Json) => t.name).sort()).toEqual([...used].sort());
    for (const tag of doc.tags) expect(tag.description, tag.name).toMatch(/\w/);

    const text = JSON.stringify(doc);
    const unused = Object.entries<Json>(doc.components)
      .filter(([kind]) => kind !== 'securitySchemes')
      .flatMap(([kind, entries]) => Object.keys(entries).map((name) => `#/components/${kind}/${name}`))
      .filter((ref) => !text.includes(`"${ref}"`));
    expect(unused).toEqual([]);
    expect(Object.keys(doc.components.schemas).filter((n) => n.startsWith('error.'))).toEqual([]);
  });
});

describe('the examples work when pasted', () => {
  /** The operation's path with its path parameters' examples, and its query with every query example (but the signed cursor). */
  function exampleUrl(path: string, op: Json, doc: Json) {
    const params = (op.parameters ?? []).map((p: Json) => (p.$ref ? doc.components.parameters[p.$ref.split('/').pop()] : p));
    let url = `/v1${path}`;
    const query = new URLSearchParams();
    for (const p of params) {
      const example = p.example ?? exampleOf(p.schema) ?? exampleOf(p.schema?.anyOf?.find((b: Json) => b.type === 'integer') ?? {});
      if (p.in === 'path') url = url.replace(`{${p.name}}`, String(example));
      // A cursor is what next_cursor gave, signed by the service: no example can be one.
      if (p.in === 'query' && p.name !== 'cursor') query.set(p.name, String(example));
    }
    return { url: query.size ? `${url}?${query}` : url, params };
  }

  it("every operation's example request (path, query and body) is of the operation's shape: never 400, never 5xx; a customer is created", async () => {
    const doc = build();
    const org = await createTestOrganization(t.db);
    const answers: string[] = [];
    for (const [path, item] of Object.entries<Json>(doc.paths)) {
      for (const [method, op] of Object.entries<Json>(item)) {
        if (path === '/documents' && method === 'post') continue; // multipart: tests/http/documents.test.ts
        const { url, params } = exampleUrl(path, op, doc);
        const body = op.requestBody?.content?.['application/json']?.example;
        const headers: Record<string, string> = { authorization: `Bearer ${org.owner.apiKey}` };
        for (const p of params) if (p.in === 'header') headers[p.name.toLowerCase()] = String(p.example);
        headers['idempotency-key'] = `example-${method}-${path}`;
        if (body !== undefined) headers['content-type'] = 'application/json';
        const res = await t.app.inject({ method: method.toUpperCase() as never, url, headers, payload: body === undefined ? undefined : JSON.stringify(body) });
        answers.push(`${res.statusCode} ${method.toUpperCase()} ${path}${res.statusCode === 400 ? ` ${res.body}` : ''}`);
      }
    }
    expect(answers.filter((a) => a.startsWith('400') || a.startsWith('5'))).toEqual([]);
    expect(answers).toContain('201 POST /receivables/customers');
    expect(answers).toContain('200 GET /receivables/invoices');
  }, 60_000);
});
