import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client';

/** Every entry under `dir` with its permission bits. */
function modes(dir: string): { path: string; dir: boolean; mode: number }[] {
  const out: { path: string; dir: boolean; mode: number }[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    out.push({ path, dir: entry.isDirectory(), mode: statSync(path).mode & 0o777 });
    if (entry.isDirectory()) out.push(...modes(path));
  }
  return out;
}

describe('the embedded database folder is owner-only', () => {
  it('folders 0700 and files 0600 once opened and migrated, and after it closes', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'pglite-modes-')), 'data');
    const handle = await openDatabase({ dataDir });
    try {
      await handle.migrate();
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      const open = modes(dataDir);
      expect(open.filter((e) => !e.dir && e.mode !== 0o600).map((e) => `${e.path} ${e.mode.toString(8)}`)).toEqual([]);
    } finally {
      await handle.close();
    }
    const closed = modes(dataDir);
    expect(closed.length).toBeGreaterThan(100);
    expect(closed.filter((e) => (e.dir ? e.mode !== 0o700 : e.mode !== 0o600)).map((e) => `${e.path} ${e.mode.toString(8)}`)).toEqual([]);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
  }, 120_000);
});
