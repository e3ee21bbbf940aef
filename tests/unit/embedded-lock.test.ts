import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireEmbeddedLock } from '../../src/db/embedded-lock';

describe('the embedded database serves one process', () => {
  it('a second process is refused while the first lives, with a message naming it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lock-'));
    // Another live process (the test runner's parent) holds the folder.
    writeFileSync(join(dir, 'server.lock'), String(process.ppid));
    expect(() => acquireEmbeddedLock(dir)).toThrow(new RegExp(`in use by process ${process.ppid}.*stop that process first`));
  });

  it("a dead holder's lock is taken over, and released on close", () => {
    const dir = mkdtempSync(join(tmpdir(), 'lock-'));
    writeFileSync(join(dir, 'server.lock'), '2147483646');
    const release = acquireEmbeddedLock(dir);
    expect(readFileSync(join(dir, 'server.lock'), 'utf8')).toBe(String(process.pid));
    release();
    expect(existsSync(join(dir, 'server.lock'))).toBe(false);
  });
});
