import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as domain from '../../src/domain';

/**
 * The layers, kept honest: each test is one rule, named so that a failure says which rule broke and
 * where. Imports are read from the source text (static imports and re-exports, `import type`
 * included unless a rule says otherwise).
 *
 * ALLOWED lists what breaks a rule today on purpose, each with its reason. It only shrinks: an entry
 * that no longer matches anything fails too, so a fixed violation is taken off the list.
 */

const root = resolve(__dirname, '../..');
const rel = (file: string) => relative(root, file).replace(/\\/g, '/');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

interface Import {
  from: string;
  /** A path under src/ ('src/db/schema/index.ts') or a package name ('drizzle-orm'). */
  to: string;
  typeOnly: boolean;
  /** `import './x'`: run for its side effects only. */
  bare: boolean;
  line: number;
}

function resolveSpecifier(file: string, specifier: string): string {
  if (!specifier.startsWith('.')) return specifier;
  const base = resolve(dirname(file), specifier);
  for (const candidate of [`${base}.ts`, join(base, 'index.ts'), base]) if (existsSync(candidate)) return rel(candidate);
  return rel(base);
}

function importsOf(file: string, source: string): Import[] {
  const found: Import[] = [];
  // The clause holds no quote or semicolon, so a bare `import './x';` never swallows the next statement.
  const statement = /^\s*(import|export)\s+(type\s+)?(?:([^'";]*?)\s+from\s+)?['"]([^'"]+)['"]/gm;
  for (const m of source.matchAll(statement)) {
    const clause = m[3];
    if (m[1] === 'export' && clause === undefined) continue;
    // `import { type A, type B } from` is as type-only as `import type { A, B } from`.
    const names = clause?.match(/^\{([\s\S]*)\}$/)?.[1]?.split(',').map((n) => n.trim()).filter(Boolean);
    const typeOnly = Boolean(m[2]) || (names !== undefined && names.length > 0 && names.every((n) => n.startsWith('type ')));
    found.push({ from: rel(file), to: resolveSpecifier(file, m[4]!), typeOnly, bare: clause === undefined && m[1] === 'import', line: source.slice(0, m.index).split('\n').length });
  }
  return found;
}

const sources = new Map(filesUnder(join(root, 'src')).map((f) => [rel(f), readFileSync(f, 'utf8')]));
const imports = [...sources].flatMap(([file, source]) => importsOf(join(root, file), source));
const at = (i: Import) => `${i.from}:${i.line} imports ${i.to}${i.typeOnly ? ' (type)' : ''}`;

/** On purpose, for now: each entry with its reason. */
const ALLOWED: Record<'cycles' | 'servicesWithSql' | 'schemasInRouters' | 'ownKeysetPaging' | 'errorHelpers', string[]> = {
  /** `from -> to` import edges that close a cycle. */
  cycles: [
  ],
  /** Services that build SQL themselves. */
  servicesWithSql: [
    // The rate limits' database store (beside the memory and Redis ones): prepared statements on the
    // rate_limit_counters table, composed from shared pieces inside the store's per-request logic and
    // measured per request. Not a simple move: db/queries/rate-limits.ts is its own change.
    'src/services/rate-limit/limits.ts',
  ],
  /** Schema modules still under src/routers. */
  schemasInRouters: [
  ],
  /** Lists that open and sign cursors themselves instead of services/keyset-page.ts. */
  ownKeysetPaging: [
  ],
  /** Definitions of notFound / conflict outside lib/errors.ts. */
  errorHelpers: [
  ],
};

const matches = (pattern: string, file: string) => (pattern.endsWith('/**') ? file.startsWith(pattern.slice(0, -2)) : file === pattern);

describe('architecture', () => {
  it('services never import routers', () => {
    const offending = imports.filter((i) => i.from.startsWith('src/services/') && i.to.startsWith('src/routers/')).map(at);
    expect(offending, 'a service imports from src/routers: move the shape to src/contract').toEqual([]);
  });

  it('db never imports services', () => {
    const offending = imports.filter((i) => i.from.startsWith('src/db/') && i.to.startsWith('src/services/')).map(at);
    expect(offending, 'src/db imports from src/services: move the vocabulary to src/domain').toEqual([]);
  });

  it('services reach the database only through db/queries', () => {
    // A service may import the Database type and types of the schema; values (tables, the ORM's
    // operators, statement builders) only db/queries uses.
    const reachesIn = (i: Import) =>
      !i.typeOnly && (i.to === 'drizzle-orm' || i.to.startsWith('drizzle-orm/') || i.to.startsWith('src/db/schema') || (i.to === 'src/db/client.ts' && /\b(sql|queryRows|preparedSql)\b/.test(sources.get(i.from)!.split('\n')[i.line - 1] ?? '')));
    const builderCall = /\b(db|tx|ctx\.db|deps\.db)\s*\.\s*(select|selectDistinct|insert|update|delete|execute)\s*\(/;
    const offending = new Set<string>();
    for (const i of imports) if (i.from.startsWith('src/services/') && reachesIn(i)) offending.add(i.from);
    for (const [file, source] of sources) if (file.startsWith('src/services/') && builderCall.test(source)) offending.add(file);
    const unexpected = [...offending].filter((f) => !ALLOWED.servicesWithSql.includes(f)).sort();
    expect(unexpected, 'these services build queries themselves: move them into src/db/queries').toEqual([]);
    for (const f of ALLOWED.servicesWithSql) expect(offending.has(f), `${f} no longer builds SQL: take it off ALLOWED.servicesWithSql`).toBe(true);
  });

  it('no import cycles', () => {
    // Runtime imports only: a type-only import is erased and cannot make a cycle at load time.
    const graph = new Map<string, string[]>();
    for (const i of imports) if (!i.typeOnly && i.to.startsWith('src/') && !ALLOWED.cycles.includes(`${i.from} -> ${i.to}`)) graph.set(i.from, [...(graph.get(i.from) ?? []), i.to]);
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const path: string[] = [];
    const visit = (node: string) => {
      state.set(node, 'open');
      path.push(node);
      for (const next of graph.get(node) ?? []) {
        if (state.get(next) === 'open') cycles.push([...path.slice(path.indexOf(next)), next].join(' -> '));
        else if (!state.has(next)) visit(next);
      }
      path.pop();
      state.set(node, 'done');
    };
    for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
    expect(cycles).toEqual([]);
    for (const edge of ALLOWED.cycles) {
      const [from, to] = edge.split(' -> ');
      expect(imports.some((i) => i.from === from && i.to === to && !i.typeOnly), `${edge} is gone: take it off ALLOWED.cycles`).toBe(true);
    }
  });

  it('one spelling of the tenant: ctx.org.id, never the principal\'s organizationId in a service context', () => {
    const offending: string[] = [];
    for (const [file, source] of sources) {
      source.split('\n').forEach((line, n) => {
        if (/\bctx\.principal\.organizationId\b/.test(line)) offending.push(`${file}:${n + 1}`);
      });
      // `const { principal } = ctx;` then `principal.organizationId`: the same spelling, unrolled.
      if (/\{[^}]*\bprincipal\b[^}]*\}\s*=\s*ctx\b/.test(source) && /\bprincipal\.organizationId\b/.test(source)) offending.push(file);
    }
    expect(offending).toEqual([]);
  });

  it('closed sets from src/domain: no literal z.enum([...]) of a set src/domain exports', () => {
    const key = (values: readonly string[]) => [...values].sort().join('|');
    const sets = new Map<string, string>();
    for (const [name, value] of Object.entries(domain)) {
      if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string')) sets.set(key(value), name);
    }
    expect(sets.size).toBeGreaterThan(10);
    const offending: string[] = [];
    for (const [file, source] of sources) {
      for (const m of source.matchAll(/z\.enum\(\s*\[([^\]]*)\]/g)) {
        const values = [...m[1]!.matchAll(/'([^']*)'|"([^"]*)"/g)].map((v) => v[1] ?? v[2]!);
        const named = sets.get(key(values));
        if (named) offending.push(`${file}:${source.slice(0, m.index).split('\n').length} spells out ${named}`);
      }
    }
    expect(offending).toEqual([]);
  });

  it('output schemas and field builders in src/contract/, which imports only zod, src/domain, src/lib and itself', () => {
    const schemaModules = [...sources.keys()].filter((f) => f.startsWith('src/routers/') && /(^|\/|-)(schemas|fields)\.ts$/.test(f));
    const unexpected = schemaModules.filter((f) => !ALLOWED.schemasInRouters.some((p) => matches(p, f)));
    expect(unexpected, 'schema modules under src/routers: move them to src/contract').toEqual([]);
    for (const p of ALLOWED.schemasInRouters) expect(schemaModules.some((f) => matches(p, f)), `${p} is gone: take it off ALLOWED.schemasInRouters`).toBe(true);
    const contract = imports.filter((i) => i.from.startsWith('src/contract/'));
    expect(contract.length).toBeGreaterThan(10);
    const upward = contract.filter((i) => !(i.to === 'zod' || /^src\/(domain|lib|contract)\//.test(i.to))).map(at);
    expect(upward).toEqual([]);
  });

  it('one keyset page helper: only services/keyset-page.ts opens and signs cursors', () => {
    const opens = /\b(decodeCursor|encodeCursor)\(/;
    const found = [...sources].filter(([file, source]) => !['src/lib/cursor.ts', 'src/services/keyset-page.ts'].includes(file) && opens.test(source)).map(([file]) => file);
    expect(found.filter((f) => !ALLOWED.ownKeysetPaging.includes(f))).toEqual([]);
    for (const f of ALLOWED.ownKeysetPaging) expect(found, `${f} pages through keysetPage now: take it off ALLOWED.ownKeysetPaging`).toContain(f);
  });

  it('organization defaults are an explicit list: no module is imported for its side effects', () => {
    const offending = imports.filter((i) => i.bare && i.to.startsWith('src/')).map(at);
    expect(offending).toEqual([]);
  });

  it('one notFound and one conflict helper (src/lib/errors.ts)', () => {
    const defines = /\b(?:function|const|let)\s+(notFound|conflict)\b/;
    const found = [...sources].filter(([file, source]) => file !== 'src/lib/errors.ts' && defines.test(source)).map(([file]) => file);
    expect(found.filter((f) => !ALLOWED.errorHelpers.includes(f))).toEqual([]);
    for (const f of ALLOWED.errorHelpers) expect(found, `${f} no longer defines its own: take it off ALLOWED.errorHelpers`).toContain(f);
    expect(sources.get('src/lib/errors.ts')).toMatch(/export function notFound\(/);
    expect(sources.get('src/lib/errors.ts')).toMatch(/export function conflict\(/);
  });
});

describe('architecture: the rules see what they check', () => {
  it('reads imports of every kind', () => {
    const found = importsOf(join(root, 'src/x/y.ts'), "import type { A } from '../db/client';\nimport { type B, type C } from 'drizzle-orm';\nimport { sql } from 'drizzle-orm';\nimport './side';\nexport * from '../domain';\nexport { z } from 'zod';");
    expect(found.map((i) => [i.to, i.typeOnly, i.bare])).toEqual([
      ['src/db/client.ts', true, false],
      ['drizzle-orm', true, false],
      ['drizzle-orm', false, false],
      ['src/x/side', false, true],
      ['src/domain/index.ts', false, false],
      ['zod', false, false],
    ]);
  });
});
