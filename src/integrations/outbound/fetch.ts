/**
 * HTTP to tenant-configured addresses: a fetch-shaped function on node:http/https whose connections
 * go through the guard (guard.ts: literal addresses checked before, names resolved and checked by the
 * socket's own lookup, so the checked address is the one connected to), which never follows a
 * redirect (a 3xx is answered as it is), and `readBounded`, which reads at most a given number of
 * bytes of an answer and stops reading beyond it (never buffering the whole body).
 */
import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { addressProblem, guardedLookup, isTrustedOrigin, OutboundRefused, type OutboundPolicy } from './guard';
import { parseAddress } from './networks';

/** What the callers need of fetch (global fetch fits it too: tests pass it as a seam). */
export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body: string | null; signal: AbortSignal; redirect?: 'manual' },
) => Promise<Response>;

/** The largest answer read by default: 512 KiB. */
export const DEFAULT_MAX_ANSWER_BYTES = 512 * 1024;

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

function agentsFor(policy: OutboundPolicy) {
  const options = (http: boolean) => ({ keepAlive: true, timeout: 60_000, lookup: guardedLookup(policy, { http }) }) as http.AgentOptions;
  return {
    guarded: { 'http:': new http.Agent(options(true)), 'https:': new https.Agent(options(false)) },
    // The service's own origins (in-process simulator): no guard, separate sockets.
    own: { 'http:': new http.Agent({ keepAlive: true, timeout: 60_000 }), 'https:': new https.Agent({ keepAlive: true, timeout: 60_000 }) },
  };
}

const fetchers = new WeakMap<OutboundPolicy, FetchLike>();

/** The guarded fetch of a policy (one per policy object, so its connections are pooled). */
export function outboundFetch(policy: OutboundPolicy): FetchLike {
  const known = fetchers.get(policy);
  if (known) return known;
  const agents = agentsFor(policy);
  const fetchFn: FetchLike = (input, init) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(input);
      if (url.protocol !== 'https:' && url.protocol !== 'http:') return reject(new OutboundRefused('must be an https URL'));
      const protocol = url.protocol;
      const own = isTrustedOrigin(url, policy);
      if (!own) {
        // A literal address never goes through lookup: check it here.
        const literal = parseAddress(url.hostname);
        const problem = literal && addressProblem(literal, policy, { http: protocol === 'http:' });
        if (problem) return reject(new OutboundRefused(problem));
      }
      const agent = own ? agents.own[protocol] : agents.guarded[protocol];
      const request = (protocol === 'https:' ? https : http).request(url, { method: init.method, headers: init.headers, agent, signal: init.signal });
      request.on('response', (res) => {
        const status = res.statusCode ?? 502;
        const headers = new Headers();
        for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
        if (NULL_BODY_STATUSES.has(status) || init.method === 'HEAD' || status < 200 || status > 599) {
          res.resume();
          return resolve(new Response(null, { status: status < 200 || status > 599 ? 502 : status, headers }));
        }
        resolve(new Response(Readable.toWeb(res) as unknown as ReadableStream<Uint8Array>, { status, headers }));
      });
      request.on('error', reject);
      request.end(init.body ?? undefined);
    });
  fetchers.set(policy, fetchFn);
  return fetchFn;
}

/** An answer longer than the reader's limit. */
export class AnswerTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`the answer is larger than ${Math.round(limit / 1024)} KiB`);
    this.name = 'AnswerTooLarge';
  }
}

/** The answer's body as text, reading at most `maxBytes`; beyond it the body is cancelled and AnswerTooLarge thrown. */
export async function readBounded(response: Response, maxBytes = DEFAULT_MAX_ANSWER_BYTES): Promise<string> {
  const body = response.body as NodeReadableStream<Uint8Array> | ReadableStream<Uint8Array> | null;
  if (!body) return '';
  const declared = Number(response.headers.get('content-length') ?? '');
  if (Number.isFinite(declared) && declared > maxBytes) {
    await body.cancel().catch(() => undefined);
    throw new AnswerTooLarge(maxBytes);
  }
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new AnswerTooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The first `maxBytes` of the answer's body as text (a log's excerpt): reads no further and cancels
 * the rest, however long the answer.
 */
export async function readExcerpt(response: Response, maxBytes: number): Promise<string> {
  const body = response.body as NodeReadableStream<Uint8Array> | ReadableStream<Uint8Array> | null;
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < maxBytes) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  if (size >= maxBytes) await reader.cancel().catch(() => undefined);
  const bytes = Buffer.concat(chunks).subarray(0, maxBytes);
  // A multi-byte character cut at the end is dropped, not shown as a replacement character.
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes).replace(/\uFFFD$/, '');
}
