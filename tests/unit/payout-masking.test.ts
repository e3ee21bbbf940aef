import { describe, expect, it } from 'vitest';
import { loadConfig, payoutEncryptionKey } from '../../src/config';
import { claimReference } from '../../src/services/expenses/file-claim';
import { maskFields, maskValue } from '../../src/services/expenses/payout-channels';
import { derivedDevelopmentKey, open, parseKey, seal } from '../../src/lib/secret-box';

describe('payout field masking', () => {
  it('keeps only the last four characters of an account, initials of a name, a bank name in clear', () => {
    expect(maskValue('5140 1234 5678', 'tail')).toBe('••••••••5678');
    expect(maskValue('123', 'tail')).toBe('••••');
    expect(maskValue('Nur Aisyah', 'initials')).toBe('N** A*****');
    expect(maskValue('Li', 'initials')).toBe('L*');
    expect(maskValue(' Maybank ', 'clear')).toBe('Maybank');
  });
  it('masks every field of a kind, with labels, and refuses missing or unknown fields', () => {
    const { masked, accountTail } = maskFields('duitnow', { proxy_type: 'Mobile number', proxy_id: '+60 12-345 6789' });
    expect(masked).toEqual([
      { key: 'proxy_type', label: { en: 'DuitNow ID type', ms: 'Jenis ID DuitNow', zh: 'DuitNow 账号类型' }, display: 'Mobile number' },
      { key: 'proxy_id', label: { en: 'DuitNow ID', ms: 'ID DuitNow', zh: 'DuitNow 账号' }, display: '••••••••6789' },
    ]);
    expect(accountTail).toBe('6789');
    expect(() => maskFields('duitnow', { proxy_type: 'Mobile number' })).toThrow(/proxy_id/);
    expect(() => maskFields('duitnow', { proxy_type: 'x', proxy_id: '123456', pin: '1' })).toThrow(/pin/);
    expect(() => maskFields('cheque', {})).toThrow(/unknown payout channel kind/);
  });
});

describe('AES-256-GCM sealing', () => {
  const key = derivedDevelopmentKey('test');
  it('round-trips, uses a fresh IV each time, and refuses another key, another organization or a tampered value', () => {
    const a = seal(key, '{"account_number":"1234"}', 'org-1');
    const b = seal(key, '{"account_number":"1234"}', 'org-1');
    expect(a).not.toBe(b);
    expect(a).not.toContain('1234');
    expect(open(key, a, 'org-1')).toBe('{"account_number":"1234"}');
    expect(() => open(derivedDevelopmentKey('other'), a, 'org-1')).toThrow();
    expect(() => open(key, a, 'org-2')).toThrow();
    const parts = a.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => open(key, parts.join('.'), 'org-1')).toThrow();
  });
  it('reads PAYOUT_ENCRYPTION_KEY as hex or base64 and refuses anything else at start-up', () => {
    const hex = 'ab'.repeat(32);
    expect(parseKey(hex)?.length).toBe(32);
    expect(parseKey(Buffer.alloc(32, 7).toString('base64'))?.equals(Buffer.alloc(32, 7))).toBe(true);
    expect(parseKey('short')).toBeUndefined();
    expect(payoutEncryptionKey(loadConfig({ PAYOUT_ENCRYPTION_KEY: hex } as NodeJS.ProcessEnv)).toString('hex')).toBe(hex);
    expect(() => loadConfig({ PAYOUT_ENCRYPTION_KEY: 'not a key' } as NodeJS.ProcessEnv)).toThrow(/PAYOUT_ENCRYPTION_KEY/);
    // Without it, a development key derived from the embedded database folder.
    expect(payoutEncryptionKey(loadConfig({ DATA_DIR: './a' } as NodeJS.ProcessEnv))).toEqual(derivedDevelopmentKey('./a'));
  });
  it('is required on PostgreSQL: DATABASE_URL without PAYOUT_ENCRYPTION_KEY stops start-up, never falls back to the derived key', () => {
    const url = 'postgres://app@db.example:5432/finance';
    expect(() => loadConfig({ DATABASE_URL: url } as NodeJS.ProcessEnv)).toThrow(
      /PAYOUT_ENCRYPTION_KEY: is required when DATABASE_URL is set/,
    );
    const hex = 'cd'.repeat(32);
    expect(payoutEncryptionKey(loadConfig({ DATABASE_URL: url, PAYOUT_ENCRYPTION_KEY: hex } as NodeJS.ProcessEnv)).toString('hex')).toBe(hex);
    // Even a configuration built by hand never gets the derived key on PostgreSQL.
    expect(() => payoutEncryptionKey({ DATABASE_URL: url, DATA_DIR: './.data', PAYOUT_ENCRYPTION_KEY: undefined })).toThrow(/PAYOUT_ENCRYPTION_KEY/);
  });
});

describe('claim references', () => {
  it('are EC-YYYY-NNNN, growing past 9999', () => {
    expect(claimReference(2026, 1)).toBe('EC-2026-0001');
    expect(claimReference(2026, 42)).toBe('EC-2026-0042');
    expect(claimReference(2026, 12345)).toBe('EC-2026-12345');
  });
});
