/**
 * How much work opening an encrypted PEM private key asks for, read before anything decrypts it.
 * An encrypted PKCS#8 key (`ENCRYPTED PRIVATE KEY`) names its own key derivation and its cost
 * (PBKDF2 iterations, scrypt N, r, p), so whoever writes the key chooses how long OpenSSL works on
 * it: 100,000,000 PBKDF2 iterations hold a thread for about a minute. `keyEncryptionProblem` reads
 * the AlgorithmIdentifier of every such block (a small DER reader; node:crypto has none) and says
 * why a key asks for too much. It never decrypts and never throws.
 *
 * Bounds: PBKDF2 at most 2,000,000 iterations: OpenSSL's default is 2,048, PKCS#12 tools use 10,000
 * to 600,000, OWASP's highest advice (PBKDF2-HMAC-SHA1) is 1,300,000; 2,000,000 costs about half a
 * second of one core. scrypt at most N·r·p = 2^20 (eight times OpenSSL's default 16384·8·1) and
 * 128·N·r bytes at most 32 MiB (OpenSSL's own memory cap). The legacy PKCS#5 v1.5 and PKCS#12 PBE
 * schemes take the PBKDF2 bound on their iteration count. Any other scheme is refused. Legacy PEM
 * encryption (`Proc-Type: 4,ENCRYPTED`) derives its key with one MD5 round: nothing to bound.
 */

export const MAX_PBKDF2_ITERATIONS = 2_000_000;
export const MAX_SCRYPT_WORK = 1 << 20;
const MAX_SCRYPT_MEMORY = 32 * 1024 * 1024;

const REEXPORT = 're-export it with `openssl pkcs8 -topk8 -v2 aes-256-cbc -iter 100000`';

const PBES2 = '1.2.840.113549.1.5.13';
const PBKDF2 = '1.2.840.113549.1.5.12';
const SCRYPT = '1.3.6.1.4.1.11591.4.11';
/** PKCS#5 v1.5 (PBES1) and PKCS#12 PBE schemes: parameters `{ salt, iterations }`. */
const LEGACY_PBE = new Set(['1', '3', '4', '6', '10', '11'].map((n) => `1.2.840.113549.1.5.${n}`).concat(['1', '2', '3', '4', '5', '6'].map((n) => `1.2.840.113549.1.12.1.${n}`)));

interface Node {
  tag: number;
  /** The content bytes. */
  body: Buffer;
}

/** One DER element at `offset` (definite lengths only, as DER has them), or undefined if malformed. */
function readElement(der: Buffer, offset: number): { node: Node; next: number } | undefined {
  if (offset + 2 > der.length) return undefined;
  const tag = der[offset]!;
  let length = der[offset + 1]!;
  let start = offset + 2;
  if (length & 0x80) {
    const bytes = length & 0x7f;
    if (bytes === 0 || bytes > 4 || start + bytes > der.length) return undefined;
    length = 0;
    for (let i = 0; i < bytes; i++) length = length * 256 + der[start + i]!;
    start += bytes;
  }
  if (start + length > der.length) return undefined;
  return { node: { tag, body: der.subarray(start, start + length) }, next: start + length };
}

/** The elements of a constructed node's content, or undefined if malformed. */
function children(node: Node | undefined): Node[] | undefined {
  if (!node || (node.tag & 0x20) === 0) return undefined;
  const out: Node[] = [];
  for (let offset = 0; offset < node.body.length; ) {
    const element = readElement(node.body, offset);
    if (!element) return undefined;
    out.push(element.node);
    offset = element.next;
  }
  return out;
}

function oid(node: Node | undefined): string | undefined {
  if (!node || node.tag !== 0x06 || !node.body.length) return undefined;
  const arcs: bigint[] = [];
  let value = 0n;
  for (const byte of node.body) {
    value = (value << 7n) | BigInt(byte & 0x7f);
    if (!(byte & 0x80)) {
      arcs.push(value);
      value = 0n;
    }
  }
  const first = arcs.shift();
  if (first === undefined) return undefined;
  const head = first < 40n ? [0n, first] : first < 80n ? [1n, first - 40n] : [2n, first - 80n];
  return [...head, ...arcs].join('.');
}

/** A non-negative INTEGER, or undefined. */
function integer(node: Node | undefined): bigint | undefined {
  if (!node || node.tag !== 0x02 || !node.body.length || node.body[0]! & 0x80) return undefined;
  return BigInt(`0x${node.body.toString('hex')}`);
}

/** The AlgorithmIdentifier of an EncryptedPrivateKeyInfo, or undefined when the DER is not one. */
function encryptionAlgorithm(der: Buffer): Node[] | undefined {
  const top = readElement(der, 0);
  const info = children(top?.node);
  if (!info || info.length !== 2 || info[1]!.tag !== 0x04) return undefined;
  const algorithm = children(info[0]);
  return algorithm && oid(algorithm[0]) ? algorithm : undefined;
}

function iterationProblem(iterations: bigint | undefined, scheme: string): string | undefined {
  if (iterations === undefined) return `its ${scheme} parameters cannot be read: ${REEXPORT}`;
  if (iterations > BigInt(MAX_PBKDF2_ITERATIONS)) {
    return `the key's encryption asks for ${iterations} ${scheme} iterations; at most ${MAX_PBKDF2_ITERATIONS} are accepted: ${REEXPORT}`;
  }
  return undefined;
}

function scryptProblem(params: Node[] | undefined): string | undefined {
  const [n, r, p] = [integer(params?.[1]), integer(params?.[2]), integer(params?.[3])];
  if (n === undefined || r === undefined || p === undefined) return `its scrypt parameters cannot be read: ${REEXPORT}`;
  if (n * r * p > BigInt(MAX_SCRYPT_WORK) || 128n * n * r > BigInt(MAX_SCRYPT_MEMORY)) {
    return `the key's encryption asks for scrypt with N=${n}, r=${r}, p=${p}; at most N·r·p = ${MAX_SCRYPT_WORK} and 128·N·r = ${MAX_SCRYPT_MEMORY} bytes are accepted: ${REEXPORT}`;
  }
  return undefined;
}

function algorithmProblem(algorithm: Node[]): string | undefined {
  const scheme = oid(algorithm[0])!;
  if (LEGACY_PBE.has(scheme)) return iterationProblem(integer(children(algorithm[1])?.[1]), 'PBE');
  if (scheme !== PBES2) return `the key is encrypted with a scheme this service does not accept (${scheme}): ${REEXPORT}`;
  const kdf = children(children(algorithm[1])?.[0]);
  const kdfScheme = oid(kdf?.[0]);
  if (kdfScheme === PBKDF2) return iterationProblem(integer(children(kdf?.[1])?.[1]), 'PBKDF2');
  if (kdfScheme === SCRYPT) return scryptProblem(children(kdf?.[1]));
  return `the key's encryption uses a key derivation this service does not accept (${kdfScheme ?? 'unreadable'}): ${REEXPORT}`;
}

/**
 * Why opening this PEM key would ask for too much work, or undefined. Every PEM block is read
 * (OpenSSL skips blocks it does not want and opens a later one), whatever its label.
 */
export function keyEncryptionProblem(pem: string): string | undefined {
  const blocks = pem.split('-----BEGIN ').slice(1);
  for (const block of blocks) {
    const labelEnd = block.indexOf('-----');
    if (labelEnd < 0) continue;
    const label = block.slice(0, labelEnd).trim();
    const bodyEnd = block.indexOf('-----END', labelEnd + 5);
    const body = block
      .slice(labelEnd + 5, bodyEnd < 0 ? undefined : bodyEnd)
      .split(/\r?\n/)
      .filter((line) => !line.includes(':'))
      .join('')
      .replace(/[^A-Za-z0-9+/=]/g, '');
    const algorithm = encryptionAlgorithm(Buffer.from(body, 'base64'));
    if (!algorithm) {
      if (label === 'ENCRYPTED PRIVATE KEY') return `its encryption parameters cannot be read: ${REEXPORT}`;
      continue;
    }
    const problem = algorithmProblem(algorithm);
    if (problem) return problem;
  }
  return undefined;
}
