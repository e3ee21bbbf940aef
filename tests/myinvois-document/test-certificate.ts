/**
 * Test-only X.509 certificates, made at test time and never written to disk: an RSA key pair from
 * node:crypto and a certificate DER-encoded here (a few ASN.1 helpers), signed SHA256withRSA by a test
 * CA. The organisation certificate carries what LHDN requires: C=MY, O, CN, organizationIdentifier
 * (2.5.4.97) = TIN, serialNumber (2.5.4.5) = BRN, key usage with non-repudiation and the Document
 * Signing extended key usage (1.3.6.1.4.1.311.10.3.12).
 */
import { X509Certificate, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let x = n; x > 0; x >>= 8) bytes.unshift(x & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}
const tlv = (tag: number, content: Buffer) => Buffer.concat([Buffer.from([tag]), length(content.length), content]);
const seq = (...parts: Buffer[]) => tlv(0x30, Buffer.concat(parts));
const set = (...parts: Buffer[]) => tlv(0x31, Buffer.concat(parts));
const NULL = Buffer.from([0x05, 0x00]);

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number) as [number, number, ...number[]];
  const out = [40 * a + b];
  for (const n of rest) {
    const chunk: number[] = [n & 0x7f];
    for (let x = n >> 7; x > 0; x >>= 7) chunk.unshift((x & 0x7f) | 0x80);
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

function integer(bytes: Buffer): Buffer {
  return tlv(0x02, bytes[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
}

const utf8 = (s: string) => tlv(0x0c, Buffer.from(s, 'utf8'));
const printable = (s: string) => tlv(0x13, Buffer.from(s, 'ascii'));
const ia5 = (s: string) => tlv(0x16, Buffer.from(s, 'ascii'));

function utcTime(d: Date): Buffer {
  const s = d.toISOString().replace(/[-:T]/g, '').slice(2, 14);
  return tlv(0x17, Buffer.from(`${s}Z`, 'ascii'));
}

const NAME_OIDS: Record<string, [string, (s: string) => Buffer]> = {
  C: ['2.5.4.6', printable],
  O: ['2.5.4.10', utf8],
  OU: ['2.5.4.11', utf8],
  CN: ['2.5.4.3', utf8],
  organizationIdentifier: ['2.5.4.97', utf8],
  serialNumber: ['2.5.4.5', printable],
  emailAddress: ['1.2.840.113549.1.9.1', ia5],
};

/** A Name from RDNs in certificate (DER) order, e.g. [['C','MY'],['O','Org'],['CN','Org']]. */
function name(rdns: Array<[string, string]>): Buffer {
  return seq(
    ...rdns.map(([key, value]) => {
      const [id, enc] = NAME_OIDS[key]!;
      return set(seq(oid(id), enc(value)));
    }),
  );
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return seq(oid(id), ...(critical ? [Buffer.from([0x01, 0x01, 0xff])] : []), tlv(0x04, value));
}

const SHA256_WITH_RSA = seq(oid('1.2.840.113549.1.1.11'), NULL);

function issue(opts: {
  subject: Array<[string, string]>;
  subjectKey: KeyObject;
  issuer: Array<[string, string]>;
  issuerKey: KeyObject;
  serial: Buffer;
  ca: boolean;
}): X509Certificate {
  const now = Date.now();
  const extensions = opts.ca
    ? [extension('2.5.29.19', true, seq(Buffer.from([0x01, 0x01, 0xff]))), extension('2.5.29.15', true, tlv(0x03, Buffer.from([0x01, 0x06])))]
    : [
        // digitalSignature + nonRepudiation
        extension('2.5.29.15', true, tlv(0x03, Buffer.from([0x06, 0xc0]))),
        extension('2.5.29.37', false, seq(oid('1.3.6.1.4.1.311.10.3.12'))),
      ];
  const tbs = seq(
    tlv(0xa0, integer(Buffer.from([0x02]))),
    integer(opts.serial),
    SHA256_WITH_RSA,
    name(opts.issuer),
    seq(utcTime(new Date(now - 86_400_000)), utcTime(new Date(now + 365 * 86_400_000))),
    name(opts.subject),
    opts.subjectKey.export({ type: 'spki', format: 'der' }),
    tlv(0xa3, seq(...extensions)),
  );
  const signature = sign('sha256', tbs, opts.issuerKey);
  return new X509Certificate(seq(tbs, SHA256_WITH_RSA, tlv(0x03, Buffer.concat([Buffer.from([0]), signature]))));
}

export interface TestSigner {
  certificate: X509Certificate;
  privateKey: KeyObject;
  certificatePem: string;
  privateKeyPem: string;
}

/** An organisation certificate for `tin` / `brn`, issued by a throw-away test CA. */
export function makeTestSigner(opts: { tin: string; brn: string; name: string }): TestSigner {
  const ca = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const org = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const caName: Array<[string, string]> = [['C', 'MY'], ['O', 'Test Trust Services'], ['OU', 'Terms of use at http://example.test'], ['CN', 'Test e-Invoice Sub CA']];
  const certificate = issue({
    subject: [['C', 'MY'], ['O', opts.name], ['organizationIdentifier', opts.tin], ['CN', opts.name], ['serialNumber', opts.brn]],
    subjectKey: org.publicKey,
    issuer: caName,
    issuerKey: ca.privateKey,
    serial: Buffer.from('7a8999a2b3bed00c265b605175624cc5', 'hex'),
    ca: false,
  });
  return {
    certificate,
    privateKey: org.privateKey,
    certificatePem: certificate.toString(),
    privateKeyPem: org.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}
