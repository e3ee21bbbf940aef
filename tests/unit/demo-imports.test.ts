import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The demo is built through the operations people use and the services behind their decisions
 * (issue 9): no file under src/demo reaches the database's query functions, its tables or the ORM.
 */

const root = resolve(__dirname, '../..');
const demoDir = join(root, 'src/demo');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : /\.(ts|js|mts|cts)$/.test(e.name) ? [join(dir, e.name)] : []));
}

/** Every module a file names: static imports and re-exports (type-only too), dynamic import() and require(). */
function specifiers(source: string): string[] {
  const found: string[] = [];
  const patterns = [/\b(?:import|export)\s[^'"]*?\bfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*['"]([^'"]+)['"]/g, /\b(?:import|require)\s*\(\s*['"]([^'"]+)['"]\s*\)/g];
  for (const re of patterns) for (const m of source.matchAll(re)) found.push(m[1]!);
  return found;
}

function forbidden(file: string, specifier: string): boolean {
  if (specifier === 'drizzle-orm' || specifier.startsWith('drizzle-orm/')) return true;
  if (!specifier.startsWith('.')) return false;
  const target = relative(root, resolve(dirname(file), specifier)).replace(/\\/g, '/');
  return /^src\/db\/(queries|schema)(\/|\.ts$|$)/.test(target);
}

describe('src/demo', () => {
  it('imports nothing from src/db/queries, src/db/schema or drizzle-orm', () => {
    const files = filesUnder(demoDir);
    expect(files.map((f) => relative(demoDir, f)).sort()).toEqual(expect.arrayContaining(['seed-demo.ts', 'people.ts', 'reference-data.ts', 'receivables.ts', 'claims.ts']));
    let seen = 0;
    const offending: string[] = [];
    for (const file of files) {
      for (const specifier of specifiers(readFileSync(file, 'utf8'))) {
        seen += 1;
        if (forbidden(file, specifier)) offending.push(`${relative(root, file)} imports ${specifier}`);
      }
    }
    // The scan reads the imports (it is not vacuous), and none of them is the database's.
    expect(seen).toBeGreaterThan(20);
    expect(offending).toEqual([]);
  });

  it('the check itself catches each forbidden form', () => {
    const file = join(demoDir, 'x.ts');
    const caught = (source: string) => specifiers(source).some((s) => forbidden(file, s));
    expect(caught("import { listClaimSignoffs } from '../db/queries/claims';")).toBe(true);
    expect(caught("import type { SellerIdentity } from '../db/schema';")).toBe(true);
    expect(caught("import { eq } from 'drizzle-orm';")).toBe(true);
    expect(caught("const q = await import('../db/queries/reference-data');")).toBe(true);
    expect(caught("export { findOrganization } from '../db/queries/organizations';")).toBe(true);
    expect(caught("import type { Database } from '../db/client';")).toBe(false);
    expect(caught("import { issueDocument } from '../services/receivables/issue-document';")).toBe(false);
  });
});
