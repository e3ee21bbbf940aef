import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { initTRPC } from '@trpc/server';
import * as trpcCore from '@trpc/server/unstable-core-do-not-import';
import { fillPlaceholders, is, sql, SQL } from 'drizzle-orm';
import { NoopCache } from 'drizzle-orm/cache/core';
import { pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import * as trpcToOpenapi from 'trpc-to-openapi';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { guardedConnections, guardedPostgres } from '../../src/db/postgres-guard';

/**
 * The places the code reaches into a library's internals (docs/library-seams.md). Each package is
 * held at the version the seams were written against: an upgrade fails here, naming the files to
 * revisit, until the table below (and the page) says the new version was checked. Where an internal
 * can be looked at without a server, it is checked to be still there.
 */

const root = resolve(__dirname, '../..');

const SEAMS: Record<string, { version: string; files: string[] }> = {
  '@trpc/server': {
    version: '11.25.2',
    files: ['src/routers/trpc.ts', 'src/routers/middleware/write-transaction.ts', 'src/routers/rest-adapter.ts', 'src/routers/output-answer.ts', 'src/routers/openapi.ts', 'src/http/metrics.ts'],
  },
  zod: { version: '4.6.7', files: ['src/routers/output-answer.ts', 'src/routers/rest-adapter.ts', 'src/lib/zod-errors.ts'] },
  'trpc-to-openapi': { version: '3.3.0', files: ['src/routers/rest-adapter.ts', 'src/routers/openapi.ts'] },
  'drizzle-orm': {
    version: '0.45.4',
    files: ['src/db/client.ts', 'src/db/queries/receivable-document-list.ts', 'src/db/queries/receivable-documents.ts', 'src/db/queries/customers.ts', 'tests/routers/claim-list-view.test.ts'],
  },
  postgres: { version: '3.4.9', files: ['src/db/postgres-guard.ts', 'src/db/client.ts'] },
  fastify: { version: '5.12.8', files: ['src/routers/request-log.ts', 'src/routers/rest-adapter.ts'] },
};

const json = (path: string) => JSON.parse(readFileSync(join(root, path), 'utf8')) as Record<string, any>;

describe('library seams: pinned versions', () => {
  const manifest = json('package.json');
  const lock = json('package-lock.json');
  for (const [name, seam] of Object.entries(SEAMS)) {
    it(`${name} is still ${seam.version} (else revisit ${seam.files.join(', ')} and docs/library-seams.md)`, () => {
      const revisit = `${name} moved: revisit ${seam.files.join(', ')}, then update docs/library-seams.md and this test`;
      const declared = manifest.dependencies?.[name] ?? manifest.devDependencies?.[name];
      expect(declared, `package.json: ${revisit}`).toBe(seam.version);
      expect(lock.packages?.[`node_modules/${name}`]?.version, `package-lock.json: ${revisit}`).toBe(seam.version);
      expect(json(`node_modules/${name}/package.json`).version, `installed: ${revisit}`).toBe(seam.version);
    });
  }
  it('the page lists the same versions as this test', () => {
    const page = readFileSync(join(root, 'docs/library-seams.md'), 'utf8');
    for (const [name, seam] of Object.entries(SEAMS)) {
      for (const file of seam.files) expect(page, `docs/library-seams.md names ${file} under ${name} ${seam.version}`).toMatch(new RegExp(`\\| ${name.replace(/[/]/g, '\\/')} \\| ${seam.version.replace(/\./g, '\\.')} \\| [^|]*${file.replace(/[./]/g, '\\$&')}`));
    }
  });
});

describe('library seams: the internals are still there', () => {
  it('@trpc/server: unstable-core exports, router._def.procedures, procedure _def (meta, type, middlewares with the output validator), _config', () => {
    expect(typeof trpcCore.getTRPCErrorFromUnknown).toBe('function');
    expect(typeof trpcCore.getErrorShape).toBe('function');
    expect(trpcCore.middlewareMarker).toBeDefined();
    const t = initTRPC.meta<{ tag?: string }>().create();
    const router = t.router({ a: t.router({ b: t.procedure.meta({ tag: 'x' }).output(z.object({ n: z.number() })).query(() => ({ n: 1 })) }) });
    const def = (router as unknown as { _def: { procedures: Record<string, { _def: { meta: unknown; type: string; output: unknown; middlewares: { _type?: string }[] } }>; _config: unknown } })._def;
    expect(Object.keys(def.procedures)).toEqual(['a.b']);
    expect(def._config).toBeTypeOf('object');
    const proc = def.procedures['a.b']!._def;
    expect(proc.meta).toEqual({ tag: 'x' });
    expect(proc.type).toBe('query');
    expect(proc.output).toBeDefined();
    expect(proc.middlewares.some((m) => m._type === 'output')).toBe(true);
  });

  it('zod: _zod.def (type, shape, element, innerType) and overwrite checks with tx', () => {
    const schema = z.object({ id: z.string().toLowerCase(), tags: z.array(z.string()), note: z.string().optional() });
    const def = (schema as unknown as { _zod: { def: { type: string; shape: Record<string, any> } } })._zod.def;
    expect(def.type).toBe('object');
    expect(Object.keys(def.shape)).toEqual(['id', 'tags', 'note']);
    const idDef = def.shape.id._zod.def;
    const overwrite = idDef.checks.find((c: any) => c._zod.def.check === 'overwrite');
    expect(overwrite._zod.def.tx('AB')).toBe('ab');
    expect(def.shape.tags._zod.def.element._zod.def.type).toBe('string');
    expect(def.shape.note._zod.def.innerType._zod.def.type).toBe('string');
    expect(def.shape.tags).toBeInstanceOf(z.ZodArray);
    expect(typeof def.shape.note.unwrap).toBe('function');
  });

  it('trpc-to-openapi: the undocumented exports the REST adapter uses', () => {
    const api = trpcToOpenapi as Record<string, unknown>;
    for (const name of ['coerceSchema', 'forEachOpenApiProcedure', 'getInputOutputParsers', 'getPathRegExp', 'instanceofZodTypeLikeVoid', 'instanceofZodTypeObject', 'instanceofZodTypeOptional', 'normalizePath', 'unwrapZodType']) {
      expect(typeof api[name], `trpc-to-openapi.${name} (src/routers/rest-adapter.ts)`).toBe('function');
    }
    expect(typeof api.zodSupportsCoerce).toBe('boolean');
  });

  it('drizzle-orm: dialect.sqlToQuery, session.prepareQuery, the postgres.js session and prepared query fields, decoders', async () => {
    const client = postgres('postgres://nobody@127.0.0.1:1/none', { max: 1 });
    try {
      const t = pgTable('t', { id: uuid('id').primaryKey(), name: text('name') });
      const db = drizzle(client) as unknown as Record<string, any>;
      expect(typeof db.dialect.sqlToQuery).toBe('function');
      expect(typeof db.session.prepareQuery).toBe('function');
      expect(typeof db.session.client.unsafe).toBe('function');
      expect(typeof db.session.logger.logQuery).toBe('function');
      expect(db.session.cache === undefined || is(db.session.cache, NoopCache)).toBe(true);
      const insert = (db as any).insert(t).values({ id: sql.placeholder('id'), name: 'x' }).returning();
      expect(insert.getSQL()).toBeInstanceOf(SQL);
      expect(insert.config.returning).toBeDefined();
      const prepared = (db as any).select().from(t).where(sql`${t.id} = ${sql.placeholder('id')}`).prepare('seam_check');
      expect(typeof prepared.queryString).toBe('string');
      expect(Array.isArray(prepared.params)).toBe(true);
      expect(Array.isArray(prepared.fields)).toBe(true);
      expect('customResultMapper' in prepared || prepared.customResultMapper === undefined).toBe(true);
      expect(fillPlaceholders(prepared.params, { id: 'abc' })).toEqual(['abc']);
      expect(typeof (sql`` as unknown as { decoder: { mapFromDriverValue: unknown } }).decoder.mapFromDriverValue).toBe('function');
      expect(typeof (t.name as unknown as { mapFromDriverValue: unknown }).mapFromDriverValue).toBe('function');
    } finally {
      await client.end({ timeout: 0 });
    }
  });

  it('postgres: the guard finds every connection of the pool while it is built', async () => {
    const client = guardedPostgres('postgres://nobody@127.0.0.1:1/none', { max: 3 });
    try {
      expect(guardedConnections(client), 'src/db/postgres-guard.ts no longer sees the pool connections').toBe(3);
    } finally {
      await client.end({ timeout: 0 });
    }
  });

  it('fastify: the types-only logger path still exists', () => {
    expect(existsSync(join(root, 'node_modules/fastify/types/logger.d.ts'))).toBe(true);
  });
});
