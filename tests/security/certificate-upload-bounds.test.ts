import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { credentialsFromPem } from '../../src/integrations/myinvois/signature';
import { createTestOrganization, type TestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';
import { makeCertificate, SELLER_SUBJECT, setSeller } from '../helpers/einvoicing';
import { clientOf, expectRefused, refusal } from '../helpers/settings';

/**
 * A certificate upload must not freeze the process: an encrypted PKCS#8 key names its own key
 * derivation work (PBKDF2 iterations, scrypt N·r·p), so a key asking for too much is refused before
 * any decryption (422 at /certificate/private_key), and the decryption of an accepted key runs off
 * the event loop (a 20 ms timer keeps firing meanwhile).
 */

const t = useTestApp();
const settings = (org: TestOrganization, revision?: number) => clientOf(t, org.owner.session, revision).settings;

// A few DER pieces, enough to write the AlgorithmIdentifier of an encrypted key with any KDF parameters.
function tlv(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  const n = body.length;
  const length = n < 0x80 ? [n] : n < 0x100 ? [0x81, n] : [0x82, n >> 8, n & 0xff];
  return Buffer.concat([Buffer.from([tag, ...length]), body]);
}
const seq = (...content: Buffer[]) => tlv(0x30, ...content);
const octets = (bytes: Buffer) => tlv(0x04, bytes);
function int(value: number): Buffer {
  const hex = value.toString(16);
  const bytes = Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex');
  return tlv(0x02, bytes[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
}
const OID = {
  pbes2: Buffer.from('06092a864886f70d01050d', 'hex'), // 1.2.840.113549.1.5.13
  pbkdf2: Buffer.from('06092a864886f70d01050c', 'hex'), // 1.2.840.113549.1.5.12
  scrypt: Buffer.from('06092b06010401da47040b', 'hex'), // 1.3.6.1.4.1.11591.4.11
  hmacWithSha256: Buffer.from('06082a864886f70d0209', 'hex'), // 1.2.840.113549.2.9
  aes256Cbc: Buffer.from('060960864801650304012a', 'hex'), // 2.16.840.1.101.3.4.1.42
};

/** An `ENCRYPTED PRIVATE KEY` whose PBES2 parameters name `kdf`; its ciphertext is noise (never meant to open). */
function encryptedKeyPem(kdf: Buffer): string {
  const der = seq(seq(OID.pbes2, seq(kdf, seq(OID.aes256Cbc, octets(randomBytes(16))))), octets(randomBytes(1232)));
  return `-----BEGIN ENCRYPTED PRIVATE KEY-----\n${der.toString('base64').match(/.{1,64}/g)!.join('\n')}\n-----END ENCRYPTED PRIVATE KEY-----\n`;
}
const pbkdf2 = (iterations: number) => seq(OID.pbkdf2, seq(octets(randomBytes(8)), int(iterations), seq(OID.hmacWithSha256, tlv(0x05))));
const scrypt = (n: number, r: number, p: number) => seq(OID.scrypt, seq(octets(randomBytes(16)), int(n), int(r), int(p)));

/** The key of `cert` re-encrypted as PBES2 (PBKDF2, AES-256-CBC) with `iterations`, as openssl does it. */
function reencrypted(privateKey: string, passphrase: string, iterations: number): string {
  return execFileSync('openssl', ['pkcs8', '-topk8', '-v2', 'aes-256-cbc', '-iter', String(iterations), '-passout', `pass:${passphrase}`], { input: privateKey }).toString();
}

/** Runs `call` while a 20 ms timer measures the longest gap between its ticks (how long the event loop was held). */
async function watchingTheLoop<T>(call: () => Promise<T>): Promise<{ outcome: T; elapsed: number; maxGap: number }> {
  let last = performance.now();
  let maxGap = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    maxGap = Math.max(maxGap, now - last);
    last = now;
  }, 20);
  const started = performance.now();
  try {
    const outcome = await call();
    const elapsed = performance.now() - started;
    maxGap = Math.max(maxGap, performance.now() - last);
    return { outcome, elapsed, maxGap };
  } finally {
    clearInterval(timer);
  }
}

describe('certificate upload bounds (settings.einvoicing.update)', { timeout: 120_000 }, () => {
  it('refuses a key asking for 100,000,000 PBKDF2 iterations with 422 within a second, the event loop free meanwhile', async () => {
    const org = await createTestOrganization(t.db);
    await setSeller(t.db, org.id);
    const cert = makeCertificate(SELLER_SUBJECT);
    const { outcome, elapsed, maxGap } = await watchingTheLoop(() =>
      refusal(settings(org, 1).einvoicing.update({ certificate: { pem: cert.pem, private_key: encryptedKeyPem(pbkdf2(100_000_000)), passphrase: 'anything' } })),
    );
    expectRefused(outcome, 422, 'validation', '/certificate/private_key');
    const detail = outcome.fieldErrors!.find((f) => f.pointer === '/certificate/private_key')!.detail;
    expect(detail).toContain('100000000 PBKDF2 iterations');
    expect(detail).toContain('at most 2000000');
    expect(detail).toContain('openssl pkcs8 -topk8');
    expect(elapsed).toBeLessThan(1_000);
    expect(maxGap).toBeLessThan(500);
    expect((await settings(org).einvoicing.get()).certificate).toBeNull();
  });

  it('refuses a scrypt key beyond the N·r·p bound, at once', async () => {
    const org = await createTestOrganization(t.db);
    await setSeller(t.db, org.id);
    const cert = makeCertificate(SELLER_SUBJECT);
    const { outcome, elapsed } = await watchingTheLoop(() =>
      refusal(settings(org, 1).einvoicing.update({ certificate: { pem: cert.pem, private_key: encryptedKeyPem(scrypt(1 << 14, 8, 64)), passphrase: 'anything' } })),
    );
    expectRefused(outcome, 422, 'validation', '/certificate/private_key');
    expect(outcome.fieldErrors!.find((f) => f.pointer === '/certificate/private_key')!.detail).toContain('scrypt');
    expect(elapsed).toBeLessThan(1_000);
  });

  it('still uploads a key with 10,000 iterations and its passphrase; a wrong passphrase is still 422 at /certificate/private_key', async () => {
    const org = await createTestOrganization(t.db);
    await setSeller(t.db, org.id);
    const cert = makeCertificate(SELLER_SUBJECT);
    const key = reencrypted(cert.private_key, 'right phrase', 10_000);
    expect(key).toContain('-----BEGIN ENCRYPTED PRIVATE KEY-----');
    const wrong = await refusal(settings(org, 1).einvoicing.update({ certificate: { pem: cert.pem, private_key: key, passphrase: 'wrong phrase' } }));
    expectRefused(wrong, 422, 'validation', '/certificate/private_key');
    expect(wrong.fieldErrors!.find((f) => f.pointer === '/certificate/private_key')!.detail).toBe('is not a PEM private key this passphrase opens');
    const saved = await settings(org, 1).einvoicing.update({ certificate: { pem: cert.pem, private_key: key, passphrase: 'right phrase' }, version: '1.1' });
    expect(saved).toMatchObject({ version: '1.1', revision: 2 });
    expect(saved.certificate!.subject).toContain('organizationIdentifier=C1234567890');
  });

  it('opens a key at the bound (2,000,000 iterations) off the event loop: the timer keeps firing while it is decrypted', async () => {
    const org = await createTestOrganization(t.db);
    await setSeller(t.db, org.id);
    const cert = makeCertificate(SELLER_SUBJECT);
    const key = reencrypted(cert.private_key, 'slow phrase', 2_000_000);
    // Warm the path (worker start-up, module loading) with a quick refusal first.
    await refusal(settings(org, 1).einvoicing.update({ certificate: { pem: cert.pem, private_key: key, passphrase: 'not it' } }));
    const { outcome, maxGap } = await watchingTheLoop(() => settings(org, 1).einvoicing.update({ certificate: { pem: cert.pem, private_key: key, passphrase: 'slow phrase' } }));
    expect(outcome.revision).toBe(2);
    expect(maxGap).toBeLessThan(250);
  });

  it('never opens, at signing, a stored key past the bounds (one saved before uploads were bounded)', () => {
    const cert = makeCertificate(SELLER_SUBJECT);
    const started = performance.now();
    expect(() => credentialsFromPem(cert.pem, encryptedKeyPem(pbkdf2(100_000_000)), 'anything')).toThrow(/100000000 PBKDF2 iterations/);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
