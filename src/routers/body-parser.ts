/**
 * Checks on a request's bytes before anything parses, hashes or authenticates it, for every surface
 * (/v1, /trpc, the upload): media types compared case-insensitively and a JSON body only in UTF-8
 * (415 otherwise), a JSON body that is valid UTF-8 and nested at most MAX_NESTING deep, percent-encoded
 * query strings that decode to UTF-8, and on /v1 no query parameter the operation does not document.
 * The values themselves are checked once more in the procedure pipeline (trpc.ts, inputGuard).
 */
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isUtf8 } from 'node:buffer';
import { Readable } from 'node:stream';
import { AppError } from '../lib/errors';
import { jsonNestingExceeds, MAX_NESTING, textFault } from '../lib/input-text';
import { problemFromError } from '../lib/problem';
import { pathPattern } from './http-edges';

/**
 * A refusal answered before any route runs: under /v1 (and outside /trpc) it is thrown for the
 * scope's error handler to render as a problem; under /trpc it is answered in tRPC's error shape,
 * the problem in `error.data.problem`, as a procedure's refusal would be.
 */
async function refuse(req: FastifyRequest, reply: FastifyReply, error: AppError): Promise<FastifyReply> {
  if (!req.url.startsWith('/trpc')) throw Object.assign(error, { statusCode: error.status });
  const problem = { ...problemFromError(error), instance: req.url.split('?')[0]!, request_id: String(req.id) };
  return reply
    .code(error.status)
    .header('content-type', 'application/json')
    .send({
      error: {
        message: problem.detail ?? problem.title,
        code: TRPC_ERROR_CODES_BY_KEY[error.code],
        data: { code: error.code, httpStatus: error.status, path: req.url.split('?')[0]!.replace(/^\/trpc\//, ''), problem },
      },
    });
}

/** The media type in lower case with its parameters, as compared: `APPLICATION/JSON` is application/json. */
function parseContentType(header: string): { type: string; charset: string | undefined; normalized: string } {
  const [type = '', ...params] = header.split(';');
  const lowered = type.trim().toLowerCase();
  let charset: string | undefined;
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq < 0) continue;
    if (param.slice(0, eq).trim().toLowerCase() === 'charset') charset = param.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1').toLowerCase();
  }
  return { type: lowered, charset, normalized: [lowered, ...params].join(';') };
}

/** The bytes a percent-encoded query component stands for (`+` is a space). */
function percentDecodedBytes(component: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < component.length; i++) {
    const c = component[i]!;
    if (c === '%' && /^[0-9A-Fa-f]{2}$/.test(component.slice(i + 1, i + 3))) {
      bytes.push(parseInt(component.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(c === '+' ? ' ' : c, 'utf8'));
  }
  return Buffer.from(bytes);
}

/** The first query parameter whose name or value is not UTF-8 text the database can store. */
function queryTextFault(rawUrl: string): { name: string; detail: string } | undefined {
  const q = rawUrl.indexOf('?');
  if (q < 0) return undefined;
  for (const pair of rawUrl.slice(q + 1).split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const [rawName, rawValue] = eq < 0 ? [pair, ''] : [pair.slice(0, eq), pair.slice(eq + 1)];
    const nameBytes = percentDecodedBytes(rawName);
    const name = isUtf8(nameBytes) ? nameBytes.toString('utf8') : rawName;
    for (const bytes of [nameBytes, percentDecodedBytes(rawValue)]) {
      if (!isUtf8(bytes)) return { name, detail: 'must be percent-encoded UTF-8 text' };
      const fault = textFault(bytes.toString('utf8'));
      if (fault) return { name, detail: fault };
    }
  }
  return undefined;
}

const queryRefusal = (name: string, detail: string) => {
  const pointer = `/query/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
  return new AppError('invalid_request', { detail: `query parameter ${name} ${detail}`, errors: [{ pointer, detail }] });
};

/** What the request line and headers are refused for, before anything is read: a JSON body in another charset, a query that is not text. */
function requestRefusal(req: FastifyRequest): AppError | undefined {
  const header = req.headers['content-type'];
  if (typeof header === 'string' && header) {
    const { type, charset, normalized } = parseContentType(header);
    // fastify and both adapters compare the media type as written; RFC 9110 says it is case-insensitive.
    req.headers['content-type'] = normalized;
    if (type === 'application/json' && charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      return new AppError('unsupported_media_type', { detail: `Send the body as application/json in UTF-8 (charset=${charset} is not accepted)` });
    }
  }
  const fault = queryTextFault(req.raw.url ?? '');
  return fault ? queryRefusal(fault.name, fault.detail) : undefined;
}

/** Registers the checks on the root instance, so /v1, /trpc and every route inherit them. */
export function registerBodyChecks(app: FastifyInstance, opts: { bodyLimit: number }) {
  // Written with `done`: a request with nothing to refuse (every GET) goes on without a promise; a
  // refusal is settled as fastify settles an async hook's.
  app.addHook('onRequest', (req, reply, done) => {
    const refusal = requestRefusal(req);
    if (!refusal) return done();
    refuse(req, reply, refusal).then(
      () => done(),
      (err: Error) => done(err),
    );
  });

  app.addHook('preParsing', (req, reply, payload, done) => {
    if (String(req.headers['content-type'] ?? '').split(';')[0] !== 'application/json') return done(null, payload);
    checkedJsonBody(req, reply, payload).then(
      (checked) => done(null, checked as typeof payload),
      (err: Error) => done(err),
    );
  });

  /** A JSON body read whole and checked (size, UTF-8, nesting), then given back to fastify as a stream; or the refusal. */
  async function checkedJsonBody(req: FastifyRequest, reply: FastifyReply, payload: AsyncIterable<unknown>) {
    // A declared length over the limit is left to fastify's own refusal (413) without reading it.
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > opts.bodyLimit) return payload;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of payload) {
      const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
      size += buf.length;
      if (size > opts.bodyLimit) {
        return refuse(req, reply, new AppError('payload_too_large', { detail: `The request body is larger than ${opts.bodyLimit} bytes` }));
      }
      chunks.push(buf);
    }
    const body = Buffer.concat(chunks);
    if (!isUtf8(body)) {
      return refuse(req, reply, new AppError('invalid_request', { detail: 'The request body is not valid UTF-8 text' }));
    }
    if (jsonNestingExceeds(body.toString('utf8'))) {
      return refuse(req, reply, new AppError('invalid_request', { detail: `The request body nests arrays and objects more than ${MAX_NESTING} deep` }));
    }
    const replay = Readable.from([body]) as Readable & { receivedEncodedLength?: number };
    replay.receivedEncodedLength = body.length;
    return replay;
  }
}

/**
 * On /v1, a query parameter the operation does not document is refused (400 naming `/query/<name>`),
 * on every method: the adapter would otherwise drop it silently on POST, on operations without
 * input and on the plain fastify routes. The operations and their parameters come from the
 * published OpenAPI document, so the check and the documentation cannot differ.
 */
export function registerQueryCheck(app: FastifyInstance, document: { paths?: Record<string, Record<string, unknown>> }) {
  const operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) => {
    const pattern = pathPattern(path);
    return Object.entries(item)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, op]) => {
        const params = [...((op as { parameters?: { in: string; name: string }[] }).parameters ?? []), ...((item as { parameters?: { in: string; name: string }[] }).parameters ?? [])];
        return { method: method.toUpperCase(), pattern, query: new Set(params.filter((p) => p.in === 'query').map((p) => p.name)) };
      });
  });
  app.addHook('onRequest', (req, _reply, done) => {
    const [path = '', search] = req.url.split('?');
    if (!search) return done();
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const local = path.replace(/^\/v1/, '');
    const operation = operations.find((o) => o.method === method && o.pattern.test(local));
    if (!operation) return done();
    for (const name of new URLSearchParams(search).keys()) {
      if (!operation.query.has(name)) {
        return done(Object.assign(queryRefusal(name, 'is not a field this operation accepts'), { statusCode: 400 }));
      }
    }
    done();
  });
}
