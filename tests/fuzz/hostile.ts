/**
 * The corpus of hostile values the fuzz suite mixes into otherwise well-formed requests: text a database
 * cannot store or that is not what was sent, edge numbers and dates, keys that reach object prototypes,
 * and raw bodies no JSON parser should hand on whole.
 */

const deep = (n: number, open: string, close: string, inner = '0') => open.repeat(n) + inner + close.repeat(n);

/** Strings that go where a string is expected. */
export const HOSTILE_STRINGS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'nul\u0000inside',
  '\ud800',
  'lone\udfffsurrogate',
  '\u202eRTL override',
  '\u200b\u200c\u200d\u2060\ufeff',
  '\u00a0\u3000',
  'e\u0301', // NFD
  '\u00e9', // NFC
  'x'.repeat(10_000),
  '💸'.repeat(2_000),
  '__proto__',
  'constructor',
  '0000-01-01',
  '9999-12-31',
  '-0001-01-01',
  '+275760-09-13',
  '2024-02-30',
  '2024-01-01T00:00:00Z',
  '-0',
  '0',
  '1e309',
  '-1e309',
  'NaN',
  'Infinity',
  '-Infinity',
  '0x10',
  '1_000',
  '9'.repeat(400),
  '0.' + '0'.repeat(300) + '1',
  '12345678901234567890.123456789',
  'A1B2C3D4-E5F6-4A7B-8C9D-0E1F2A3B4C5D',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  "' OR 1=1 --",
  "'; DROP TABLE customers; --",
  '"); select pg_sleep(0); --',
  '$$ $1 $tag$',
  '%s%n%x%%',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',
  ']]><![CDATA[',
  '{{7*7}} ${7*7}',
  '../../../../etc/passwd',
  '\\\\server\\share',
  'C:\\Windows\\',
  'line1\r\nline2',
  '\t\v\f\b',
  '\u001b[31m',
  '\u0085\u2028\u2029',
  'true',
  'null',
  '[]',
  '{}',
];

/** Whole JSON values that go where anything is expected. */
export const HOSTILE_VALUES: readonly unknown[] = [
  null,
  true,
  false,
  0,
  -0,
  -1,
  1.5,
  Number.MAX_SAFE_INTEGER + 2,
  -Number.MAX_SAFE_INTEGER - 2,
  1e308,
  -1e308,
  5e-324,
  2 ** 31,
  2 ** 63,
  [],
  [null],
  {},
  JSON.parse('{"__proto__":{"polluted":true}}'),
  JSON.parse('{"constructor":{"prototype":{"polluted":true}}}'),
  nest(60),
  Array.from({ length: 600 }, (_, i) => i),
  Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`k${i}`, i])),
];

/** Values nested `depth` levels (arrays and objects alternating). */
export function nest(depth: number): unknown {
  let v: unknown = 'bottom';
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
}

/** Raw request bodies, sent as they are with a JSON content type. */
export const HOSTILE_RAW_BODIES: readonly (string | Buffer)[] = [
  '',
  ' ',
  'null',
  '[]',
  '"text"',
  '{',
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  '{"a":1}{"b":2}',
  '{"amount":1e309}',
  '{"amount":-1e309}',
  '{"a":NaN}',
  '{"a":"\\u0000"}',
  '{"a":"\\ud800"}',
  '{"a":"\\udc00\\ud800"}',
  '{"__proto__":{"x":1}}',
  '{"constructor":{"prototype":{"x":1}}}',
  '{"a":1,"a":2}',
  deep(5000, '[', ']'),
  deep(5000, '{"a":', '}'),
  deep(200, '[', ']'),
  '[' + '1,'.repeat(100_000) + '1]',
  '\ufeff{}',
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc0, 0x80, 0x22, 0x7d]), // {"a":"<invalid UTF-8>"}
  Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]),
  Buffer.from([0x00, 0x01, 0x02, 0x03]),
  '<?xml version="1.0"?><a/>',
  '--boundary\r\n',
];

/** Content types sent instead of application/json. */
export const HOSTILE_CONTENT_TYPES: readonly string[] = [
  'APPLICATION/JSON',
  'Application/Json; charset=UTF-8',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'application/json;;;',
  '',
];

/** Query-string values, before percent-encoding (and some raw, already encoded, that may be invalid). */
export const HOSTILE_RAW_QUERIES: readonly string[] = ['%', '%zz', '%00', '%ed%a0%80', '%c0%af', 'a=%ff', '__proto__=1', 'constructor[prototype]=1', 'a[]=1&a[]=2', 'limit=1&limit=2'];
