import fc from 'fast-check';
import { z } from 'zod';
import type { AnyRouter } from '@trpc/server';
import { HOSTILE_CONTENT_TYPES, HOSTILE_RAW_BODIES, HOSTILE_RAW_QUERIES, HOSTILE_STRINGS } from './hostile';
import { acceptedArb, kindOf, mutate, mutationChoiceArb, schemaArb, type Pools, type SchemaContext, unstorable } from './arbitraries';
import { SAMPLE_PDF, SAMPLE_PNG } from '../helpers/multipart';

/**
 * Every operation the fuzz suite drives: each `/v1` operation of the OpenAPI document and each tRPC
 * procedure of the router, with an arbitrary of requests to it (well-formed ones from the schemas,
 * mutated ones, and hostile raw bodies, content types and query strings).
 */

export type Auth = 'key' | 'session' | 'none' | 'bad';

export interface FuzzRequest {
  op: string;
  surface: 'v1' | 'trpc';
  write: boolean;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  /** What was done to a well-formed request ('' when nothing). */
  mutation: string;
  /** Why the server must refuse this request, whatever else it holds. */
  mustRefuse?: string;
  /** Set when the content type is JSON in other words (case, UTF-8 charset): never 415. */
  sameAsJson?: string;
  auth: Auth;
  /** Which credential of the pool; the owner's is the most likely. */
  who: number;
  /** The record a revision guards (If-Match), when the write targets one. */
  target?: string;
  ifMatch: 'known' | 'missing' | 'stale' | 'junk';
  idempotency: 'fresh' | 'missing' | 'junk';
}

export interface Operation {
  name: string;
  surface: 'v1' | 'trpc';
  write: boolean;
  /** The kind of record its answers name (an answer's top-level `id`). */
  kind: string;
  arb: fc.Arbitrary<FuzzRequest>;
}

const authArb = fc.oneof({ weight: 30, arbitrary: fc.constant<Auth>('key') }, { weight: 10, arbitrary: fc.constant<Auth>('session') }, { weight: 1, arbitrary: fc.constantFrom<Auth>('none', 'bad') });
const trpcAuthArb = fc.oneof({ weight: 30, arbitrary: fc.constant<Auth>('session') }, { weight: 10, arbitrary: fc.constant<Auth>('key') }, { weight: 1, arbitrary: fc.constantFrom<Auth>('none', 'bad') });
const ifMatchArb = fc.oneof({ weight: 20, arbitrary: fc.constant('known' as const) }, { weight: 1, arbitrary: fc.constantFrom('missing' as const, 'stale' as const, 'junk' as const) });
const idemArb = fc.oneof({ weight: 20, arbitrary: fc.constant('fresh' as const) }, { weight: 1, arbitrary: fc.constantFrom('missing' as const, 'junk' as const) });
const common = fc.record({ auth: authArb, who: fc.nat(), ifMatch: ifMatchArb, idempotency: idemArb });
const trpcCommon = fc.record({ auth: trpcAuthArb, who: fc.nat(), ifMatch: ifMatchArb, idempotency: idemArb });

type Variant = 'valid' | 'mutated' | 'accepted-mutated' | 'raw' | 'content-type' | 'query';
const variantArb = (hasBody: boolean) =>
  fc.oneof(
    { weight: 5, arbitrary: fc.constant<Variant>('valid') },
    { weight: 4, arbitrary: fc.constant<Variant>('mutated') },
    { weight: hasBody ? 6 : 0, arbitrary: fc.constant<Variant>('accepted-mutated') },
    { weight: hasBody ? 2 : 1, arbitrary: fc.constant<Variant>('raw') },
    { weight: hasBody ? 1 : 0, arbitrary: fc.constant<Variant>('content-type') },
    { weight: 2, arbitrary: fc.constant<Variant>('query') },
  );

/** encodeURIComponent, except that a lone surrogate goes out as the bytes of its code unit (WTF-8), as a client that does not check would send it. */
export function encode(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const cu = s.charCodeAt(i);
    if (cu >= 0xd800 && cu <= 0xdbff && i + 1 < s.length && s.charCodeAt(i + 1) >= 0xdc00 && s.charCodeAt(i + 1) <= 0xdfff) {
      out += encodeURIComponent(s.slice(i, i + 2));
      i++;
    } else if (cu >= 0xd800 && cu <= 0xdfff) {
      out += [0xe0 | (cu >> 12), 0x80 | ((cu >> 6) & 0x3f), 0x80 | (cu & 0x3f)].map((b) => '%' + b.toString(16).toUpperCase()).join('');
    } else out += encodeURIComponent(s[i]!);
  }
  return out;
}

/** 'application/json' in other case, or with charset UTF-8 (RFC 9110: case-insensitive type and charset). */
function jsonInOtherWords(contentType: string): string | undefined {
  const m = /^\s*application\/json\s*(?:;\s*charset\s*=\s*"?utf-8"?\s*)?$/i.exec(contentType);
  return m && contentType !== 'application/json' ? `JSON as ${JSON.stringify(contentType)}` : undefined;
}

const q = (params: Record<string, unknown>) =>
  Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${encode(k)}=${encode(typeof v === 'string' ? v : JSON.stringify(v))}`)
    .join('&');

/** The `/v1` operations of the OpenAPI document. */
export function v1Operations(doc: any, pools: Pools): Operation[] {
  const ctx: SchemaContext = { pools, resolve: (ref) => doc.components?.schemas?.[ref.replace('#/components/schemas/', '')] };
  const ops: Operation[] = [];
  for (const [template, item] of Object.entries<any>(doc.paths ?? {})) {
    for (const [method, op] of Object.entries<any>(item)) {
      if (!op || typeof op !== 'object' || !op.responses) continue;
      const M = method.toUpperCase() as FuzzRequest['method'];
      const name = `${M} /v1${template}`;
      const params: any[] = [...(item.parameters ?? []), ...(op.parameters ?? [])];
      const segment = /\/([a-z_-]+)\/\{id\}/.exec(template)?.[1];
      const opCtx: SchemaContext = { ...ctx, idKind: segment ? kindOf(segment) : undefined };
      const pathParams = params.filter((p) => p.in === 'path');
      const queryParams = params.filter((p) => p.in === 'query');
      const content = op.requestBody?.content ?? {};
      const jsonSchema = content['application/json']?.schema;
      const multipart = 'multipart/form-data' in content;
      const write = M !== 'GET';
      const pathArb = fc.record(Object.fromEntries(pathParams.map((p) => [p.name, schemaArb(p.schema, opCtx, p.name)])) as Record<string, fc.Arbitrary<unknown>>);
      const queryArb = fc.record(Object.fromEntries(queryParams.map((p) => [p.name, schemaArb(p.schema, opCtx, p.name)])) as Record<string, fc.Arbitrary<unknown>>, { requiredKeys: queryParams.filter((p) => p.required).map((p) => p.name) });
      const generatedBody = jsonSchema ? schemaArb(jsonSchema, opCtx) : fc.constant(undefined);
      const bodyArb = jsonSchema ? fc.oneof({ weight: 3, arbitrary: generatedBody }, { weight: 2, arbitrary: acceptedArb(pools, name, generatedBody) }) : generatedBody;
      const arb = fc
        .record({
          c: common,
          variant: variantArb(Boolean(jsonSchema) || multipart),
          path: pathArb,
          query: queryArb,
          body: bodyArb,
          m: mutationChoiceArb,
          part: multipartArb,
          accepted: acceptedArb(pools, name, generatedBody),
        })
        .map(({ c, variant, path, query, body, m, part, accepted }): FuzzRequest => {
          let mutation = '';
          let mustRefuse: string | undefined;
          let sameAsJson: string | undefined;
          let pathValues = path as Record<string, unknown>;
          let queryValues = query as Record<string, unknown>;
          let extraQuery = '';
          let payload: string | Buffer | undefined = body === undefined ? undefined : JSON.stringify(body);
          let contentType = jsonSchema ? 'application/json' : undefined;
          if (variant === 'accepted-mutated' && jsonSchema) {
            const r = mutate(accepted, m);
            ({ mutation, mustRefuse } = r);
            mutation = `accepted body, ${mutation}`;
            payload = JSON.stringify(r.value);
          } else if (variant === 'mutated') {
            if (jsonSchema) {
              const r = mutate(body, m);
              ({ mutation, mustRefuse } = r);
              payload = JSON.stringify(r.value);
            } else if (pathParams.length) {
              const r = mutate(path, m);
              mutation = `path: ${r.mutation}`;
              pathValues = r.value && typeof r.value === 'object' ? (r.value as Record<string, unknown>) : {};
            } else {
              const r = mutate(query, m);
              mutation = `query: ${r.mutation}`;
              queryValues = r.value && typeof r.value === 'object' && !Array.isArray(r.value) ? (r.value as Record<string, unknown>) : {};
            }
          } else if (variant === 'raw' && jsonSchema) {
            payload = HOSTILE_RAW_BODIES[m.with % HOSTILE_RAW_BODIES.length]!;
            mutation = `raw body #${m.with % HOSTILE_RAW_BODIES.length}`;
          } else if (variant === 'content-type' && jsonSchema) {
            contentType = HOSTILE_CONTENT_TYPES[m.with % HOSTILE_CONTENT_TYPES.length]!;
            mutation = `content type ${JSON.stringify(contentType)}`;
            sameAsJson = jsonInOtherWords(contentType);
          } else if (variant === 'query') {
            const k = m.kind % 3;
            if (k === 0) {
              extraQuery = 'fuzz_unknown_param=1';
              mutation = 'unknown query parameter';
              mustRefuse = 'an unknown query parameter';
            } else if (k === 1) {
              extraQuery = HOSTILE_RAW_QUERIES[m.with % HOSTILE_RAW_QUERIES.length]!;
              mutation = `raw query ${extraQuery}`;
            } else if (queryParams.length) {
              const p = queryParams[m.at % queryParams.length]!;
              const h = HOSTILE_STRINGS[m.with % HOSTILE_STRINGS.length]!;
              queryValues = { ...queryValues, [p.name]: h };
              mutation = `query ${p.name} hostile string ${JSON.stringify(h.slice(0, 24))}`;
              if (unstorable(h)) mustRefuse = 'NUL or a lone surrogate';
            }
          }
          if (multipart) {
            payload = part.payload;
            contentType = part.contentType;
            mutation = part.mutation;
          }
          const url =
            '/v1' +
            template.replace(/\{(\w+)\}/g, (_, k: string) => {
              const v = pathValues[k];
              return encode(v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v));
            });
          const qs = [q(queryValues), extraQuery].filter(Boolean).join('&');
          const headers: Record<string, string> = {};
          if (payload !== undefined && contentType !== undefined && contentType !== '') headers['content-type'] = contentType;
          const id = typeof pathValues.id === 'string' ? pathValues.id : undefined;
          return { op: name, surface: 'v1', write, method: M, url: qs ? `${url}?${qs}` : url, headers, payload, mutation, mustRefuse, sameAsJson, target: id, ...c };
        });
      const collections = template.split('/').filter((x) => x && !x.startsWith('{') && !['withdraw', 'attachments', 'einvoice', 'pdf', 'content'].includes(x));
      ops.push({ name, surface: 'v1', write, kind: opCtx.idKind ?? kindOf(collections[collections.length - 1] ?? ''), arb });
    }
  }
  return ops;
}

/** Multipart bodies for the upload operation: well-formed files and broken envelopes. */
const multipartArb = fc
  .record({ kind: fc.nat({ max: 11 }), file: fc.constantFrom(SAMPLE_PDF, SAMPLE_PNG, Buffer.from('<?xml version="1.0"?><Invoice/>'), Buffer.from('<html><script>x</script></html>'), Buffer.alloc(0), Buffer.from([0, 1, 2, 255])), name: fc.constantFrom('a.pdf', 'b.png', 'c.xml', '', '\u0000.pdf', '../../etc/passwd', 'x'.repeat(1000), '\ud800.pdf'), type: fc.constantFrom('application/pdf', 'image/png', 'application/xml', 'text/html', 'APPLICATION/PDF', '') })
  .map(({ kind, file, name, type }) => {
    const b = 'fuzzBOUNDARY';
    const part = (field: string) => Buffer.concat([Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`), file, Buffer.from(`\r\n--${b}--\r\n`)]);
    const whole = part('file');
    switch (kind) {
      case 0:
        return { payload: whole, contentType: 'multipart/form-data', mutation: 'multipart without boundary' };
      case 1:
        return { payload: whole.subarray(0, Math.floor(whole.length / 2)), contentType: `multipart/form-data; boundary=${b}`, mutation: 'multipart truncated' };
      case 2:
        return { payload: Buffer.from('garbage garbage'), contentType: `multipart/form-data; boundary=${b}`, mutation: 'multipart garbage' };
      case 3:
        return { payload: part('other'), contentType: `multipart/form-data; boundary=${b}`, mutation: 'multipart other field' };
      case 4:
        return { payload: Buffer.concat([part('file'), part('file')]), contentType: `multipart/form-data; boundary=${b}`, mutation: 'multipart two files' };
      case 5:
        return { payload: whole, contentType: `MULTIPART/FORM-DATA; boundary=${b}`, mutation: 'multipart upper-case type' };
      case 6:
        return { payload: Buffer.from('{}'), contentType: 'application/json', mutation: 'upload as JSON' };
      case 7:
        return { payload: Buffer.alloc(0), contentType: `multipart/form-data; boundary=${b}`, mutation: 'multipart empty' };
      default:
        return { payload: whole, contentType: `multipart/form-data; boundary=${b}`, mutation: `multipart ${name.slice(0, 20)} ${type}` };
    }
  });

/** The tRPC procedures of the router, their inputs from `z.toJSONSchema` of each procedure's zod input. */
export function trpcOperations(router: AnyRouter, pools: Pools): Operation[] {
  const ops: Operation[] = [];
  for (const [name, proc] of Object.entries<any>((router as any)._def.procedures)) {
    const def = proc._def;
    const input = def.inputs?.[0];
    let schema: any = {};
    try {
      schema = input ? z.toJSONSchema(input, { io: 'input', unrepresentable: 'any' }) : {};
    } catch {
      schema = {};
    }
    const segments = name.split('.');
    const ctx: SchemaContext = { pools, idKind: kindOf(segments[segments.length - 2] ?? ''), resolve: (ref) => schema.$defs?.[ref.replace('#/$defs/', '')] ?? schema.definitions?.[ref.replace('#/definitions/', '')] };
    const write = def.type === 'mutation';
    const generated = schemaArb(schema, ctx);
    const arb = fc
      .record({ c: trpcCommon, variant: variantArb(true), input: fc.oneof({ weight: 3, arbitrary: generated }, { weight: 2, arbitrary: acceptedArb(pools, `trpc ${name}`, generated) }), accepted: acceptedArb(pools, `trpc ${name}`, generated), m: mutationChoiceArb })
      .map(({ c, variant, input, accepted, m }): FuzzRequest => {
        let mutation = '';
        let mustRefuse: string | undefined;
        let sameAsJson: string | undefined;
        let text: string | Buffer | undefined = JSON.stringify(input);
        const headers: Record<string, string> = {};
        if (variant === 'accepted-mutated') {
          const r = mutate(accepted, m);
          ({ mutation, mustRefuse } = r);
          mutation = `accepted input, ${mutation}`;
          text = JSON.stringify(r.value);
        } else if (variant === 'mutated' || variant === 'query') {
          const r = mutate(input, m);
          ({ mutation, mustRefuse } = r);
          text = JSON.stringify(r.value);
        } else if (variant === 'raw') {
          text = HOSTILE_RAW_BODIES[m.with % HOSTILE_RAW_BODIES.length]!;
          mutation = `raw input #${m.with % HOSTILE_RAW_BODIES.length}`;
        } else if (variant === 'content-type' && write) {
          headers['content-type'] = HOSTILE_CONTENT_TYPES[m.with % HOSTILE_CONTENT_TYPES.length]!;
          mutation = `content type ${JSON.stringify(headers['content-type'])}`;
          sameAsJson = jsonInOtherWords(headers['content-type']);
        }
        const target = input && typeof input === 'object' && typeof (input as any).id === 'string' ? (input as any).id : undefined;
        if (write) {
          headers['content-type'] ??= 'application/json';
          if (headers['content-type'] === '') delete headers['content-type'];
          return { op: `trpc ${name}`, surface: 'trpc', write, method: 'POST', url: `/trpc/${name}`, headers, payload: text, mutation, mustRefuse, sameAsJson, target, ...c };
        }
        const inputText = typeof text === 'string' ? text : text === undefined ? undefined : text.toString('latin1');
        return { op: `trpc ${name}`, surface: 'trpc', write, method: 'GET', url: inputText === undefined ? `/trpc/${name}` : `/trpc/${name}?input=${encode(inputText)}`, headers, mutation, mustRefuse, target, ...c };
      });
    ops.push({ name: `trpc ${name}`, surface: 'trpc', write, kind: ctx.idKind ?? '', arb });
  }
  return ops;
}
