import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildOpenApiDocument } from '../../src/routers/openapi';
import { readProcedure, writeProcedure } from '../../src/routers/procedures';
import { router } from '../../src/routers/trpc';
import { useTestApp } from '../helpers/app';

const run = promisify(execFile);
const t = useTestApp();

const thing = z.object({ id: z.string() }).meta({ id: 'Thing' });

/** A write and a read as the contract's operations will be declared, to see the document they get. */
const sampleRouter = router({
  things: router({
    create: writeProcedure('receivables.invoice.create')
      .meta({ openapi: { method: 'POST', path: '/things', summary: 'Create a thing', tags: ['Things'], protect: true }, successStatus: 201 })
      .input(z.strictObject({ name: z.string() }))
      .output(thing)
      .mutation(() => ({ id: 'x' })),
    get: readProcedure('receivables.invoice.read')
      .meta({ openapi: { method: 'GET', path: '/things/{id}', summary: 'Read a thing', tags: ['Things'], protect: true } })
      .input(z.strictObject({ id: z.string() }))
      .output(thing)
      .query(({ input }) => ({ id: input.id })),
  }),
});

const settings = { perKey: 600, perOrganization: 1800, windowSeconds: 60, authFailures: 20, authFailureWindowSeconds: 300 };

describe('the OpenAPI document describes idempotency and rate limits', () => {
  it('every POST takes the Idempotency-Key header and answers Idempotent-Replayed, 409, 422 and 429', async () => {
    const doc = buildOpenApiDocument({ router: sampleRouter as never, rateLimits: settings }) as any;
    const post = doc.paths['/things'].post;
    expect(post.parameters).toContainEqual({ $ref: '#/components/parameters/IdempotencyKey' });
    expect(doc.components.parameters.IdempotencyKey).toMatchObject({
      name: 'Idempotency-Key',
      in: 'header',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    });
    expect(doc.components.parameters.IdempotencyKey.description).toMatch(/24 hours/);
    const created = post.responses['201'];
    for (const h of ['Idempotent-Replayed', 'ETag', 'Location', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']) {
      expect(created.headers[h], h).toEqual({ $ref: `#/components/headers/${h}` });
    }
    expect(Object.keys(post.responses)).toEqual(expect.arrayContaining(['409', '422', '429']));
    expect(doc.components.responses.Problem409.description).toMatch(/idempotency_key_reused.*idempotency_in_progress/);
    expect(doc.components.responses.Problem422.description).toMatch(/idempotency_key_required/);
    expect(doc.components.responses.Problem429.headers['Retry-After']).toEqual({ $ref: '#/components/headers/Retry-After' });
    expect(doc.components.responses.Problem429.headers['RateLimit-Reset']).toEqual({ $ref: '#/components/headers/RateLimit-Reset' });
    expect(doc.components.responses.Problem409.headers['Retry-After']).toBeDefined();
    expect(doc.components.schemas.Problem.properties.code.enum).toEqual(
      expect.arrayContaining(['idempotency_key_required', 'idempotency_key_reused', 'idempotency_in_progress', 'rate_limited']),
    );
    // A read takes no Idempotency-Key.
    expect(doc.paths['/things/{id}'].get.parameters.map((p: any) => p.name ?? p.$ref)).not.toContain('#/components/parameters/IdempotencyKey');
    expect(doc.info.description).toMatch(/600 requests per 60 s/);
    expect(doc.info.description).toMatch(/20 failed authentications \(keys or sessions\) per 300 s/);

    const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    const { stdout, stderr } = await run(join('node_modules', '.bin', 'redocly'), ['lint', file, '--format', 'summary']).catch((e: { stdout: string; stderr: string }) => {
      throw new Error(`redocly lint failed:\n${e.stdout}\n${e.stderr}`);
    });
    expect(`${stdout}${stderr}`).not.toMatch(/\b[1-9]\d* errors?\b/);
  }, 60_000);

  it('the served document publishes the limits this process enforces', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    expect(doc.info.description).toContain(`${t.deps.config.RATE_LIMIT_PER_KEY} requests per ${t.deps.config.RATE_LIMIT_WINDOW_SECONDS} s`);
    expect(doc.components.parameters.IdempotencyKey.name).toBe('Idempotency-Key');
    for (const [, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      if (item.post) expect(item.post.parameters).toContainEqual({ $ref: '#/components/parameters/IdempotencyKey' });
    }
  });
});
