/**
 * The floor of bench/floor.ts: a bare fastify on postgres.js (prepared statements) serving the four
 * benchmarked routes by running the statements the service ran for the same request, as captured by
 * bench/floor.ts (FLOOR_PLAN, a JSON file: see bench/floor-plan.ts). No framework around it: no
 * tRPC, no validation, no logging; the bearer token is checked against the plan's and hashed, the
 * statements are sent one after the other (on one reserved connection when they hold a
 * transaction), and the rows read are serialised as the answer.
 *
 * Parameters the service derived per request are derived here too: the path id, the key's hash, the
 * Idempotency-Key, ids the database generated earlier in the same request (taken from the rows that
 * `returning` answered, in order), fresh ids otherwise, timestamps moved to now.
 *
 *   FLOOR_PLAN=/tmp/plan.json PORT=3001 node --import tsx bench/floor-server.ts
 */
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import postgres from 'postgres';
import { decode, type FloorPlan, type ParamRole, type RoutePlan } from './floor-plan';

const plan = JSON.parse(readFileSync(process.env.FLOOR_PLAN!, 'utf8')) as FloorPlan;
const sql = postgres(plan.databaseUrl, { max: Number(process.env.DATABASE_POOL_SIZE ?? 10), onnotice: () => {}, prepare: true });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UUID_G = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const ISO = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}(:?\d{2})?)?$/;
/** Statements whose rows are not part of the answer (authentication, limits, idempotency, locks). */
const PLUMBING = /rate_limit_counters|api_keys|idempotency_keys|pg_try_advisory|pg_advisory/i;

interface Compiled {
  text: string;
  params: (ParamRole & { decoded?: unknown })[];
  returning: boolean;
  answer: boolean;
}

interface Request {
  pathId?: string;
  tokenHash: string;
  idempotencyKey?: string;
  /** Captured id -> this request's id. */
  ids: Map<string, string>;
  /** Ids the database returned in this request, not yet matched with a captured id. */
  returned: string[];
  shiftMs: number;
  capturedIdempotencyKey?: string;
}

function compile(route: RoutePlan) {
  const statements: Compiled[] = route.statements.map((s) => ({
    text: s.text,
    params: s.params.map((p) => (p.kind === 'const' || p.kind === 'per_request' ? { ...p, decoded: decode(p.value) } : p)),
    returning: /\breturning\b/i.test(s.text),
    answer: !PLUMBING.test(s.text) && !/^\s*(begin|commit|rollback|savepoint|release)/i.test(s.text),
  }));
  const transactional = statements.some((s) => /^\s*begin\b/i.test(s.text));
  return { route, statements, transactional, capturedAt: Date.parse(route.capturedAt) };
}

function mapId(r: Request, old: string): string {
  let id = r.ids.get(old);
  if (!id) {
    id = r.returned.shift() ?? randomUUID();
    r.ids.set(old, id);
  }
  return id;
}

function perRequest(r: Request, value: unknown): unknown {
  if (value instanceof Date) return new Date(value.getTime() + r.shiftMs);
  if (typeof value === 'bigint') return BigInt.asIntN(64, BigInt(`0x${createHash('sha256').update(r.idempotencyKey ?? randomUUID()).digest('hex').slice(0, 16)}`));
  if (typeof value === 'number') return value;
  if (Array.isArray(value)) return value.map((v) => perRequest(r, v));
  if (typeof value === 'string') {
    if (UUID.test(value)) return mapId(r, value);
    if (ISO.test(value)) return new Date(Date.parse(value) + r.shiftMs).toISOString();
    if (/^-?\d{6,}$/.test(value)) {
      // A number derived from the request (an advisory lock's key): one of this request's own.
      return BigInt.asIntN(64, BigInt(`0x${createHash('sha256').update(r.idempotencyKey ?? randomUUID()).digest('hex').slice(0, 16)}`)).toString();
    }
    // A text carrying ids (a stored answer): the ids this request uses in their place.
    let out = value.replace(UUID_G, (id) => r.ids.get(id) ?? id);
    if (r.capturedIdempotencyKey && r.idempotencyKey) out = out.split(r.capturedIdempotencyKey).join(r.idempotencyKey);
    return out;
  }
  return value;
}

function resolve(r: Request, p: Compiled['params'][number]): unknown {
  switch (p.kind) {
    case 'const':
      return p.decoded;
    case 'path_id':
      return r.pathId;
    case 'token_hash':
      return r.tokenHash;
    case 'idempotency_key':
      return r.idempotencyKey;
    case 'per_request':
      return perRequest(r, p.decoded);
  }
}

type Runner = (text: string, params: unknown[]) => Promise<postgres.Row[] | { columns: string[]; rows: unknown[][] }>;

/**
 * The rows of a statement as postgres.js builds them (objects keyed by column name), except when a
 * column name repeats (the list page's sort value `created_at::text` beside `created_at`; the
 * document read's four unnamed `coalesce` JSON aggregates): objects would keep only the last of
 * them, so those statements' rows are answered as arrays of values with the column names once,
 * every value kept and nothing copied (what the floor reads, it answers).
 */
const repeatsNames = new Map<string, boolean>();

async function rowsOf(text: string, query: postgres.PendingQuery<postgres.Row[]>): Promise<postgres.Row[] | { columns: string[]; rows: unknown[][] }> {
  if (repeatsNames.get(text) === false) return query;
  const result = await query.values();
  const columns = (result.columns ?? []).map((c) => c.name);
  if (!repeatsNames.has(text)) repeatsNames.set(text, new Set(columns).size !== columns.length);
  if (repeatsNames.get(text) === false) {
    // Learnt on this first run: no name repeats; as objects, as every later run answers them.
    return (result as unknown as unknown[][]).map((values) => Object.fromEntries(columns.map((n, i) => [n, values[i]])));
  }
  return { columns, rows: [...(result as unknown as unknown[][])] };
}

async function runAll(c: ReturnType<typeof compile>, r: Request, run: Runner) {
  const answer: unknown[] = [];
  for (const s of c.statements) {
    const result = await run(s.text, s.params.map((p) => resolve(r, p)) as never[]);
    if (!Array.isArray(result)) {
      // Repeated column names: the values as read, with the names once.
      if (s.answer && result.rows.length) answer.push(result);
      continue;
    }
    const rows = result;
    if (s.returning) {
      // The ids the database generated: a returned row's own `id` (its other columns repeat ids the
      // request sent, which are not new).
      for (const row of rows) if (typeof row.id === 'string' && UUID.test(row.id)) r.returned.push(row.id);
    }
    if (s.answer && rows.length) answer.push(rows.length === 1 ? rows[0] : [...rows]);
  }
  return answer;
}

function problem(reply: FastifyReply, status: number, code: string) {
  return reply.code(status).type('application/problem+json').send({ type: `/problems/${code}`, title: code, status, code });
}

const app = Fastify({ logger: false });
app.get('/readyz', async () => ({ ok: true }));

for (const route of Object.values(plan.routes)) {
  const c = compile(route);
  app.route({
    method: route.method,
    url: route.route,
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
      const header = req.headers.authorization;
      const token = header?.startsWith('Bearer ') ? header.slice(7) : undefined;
      if (!token || token !== plan.apiKey) return problem(reply, 401, 'unauthenticated');
      const idempotencyKey = req.headers['idempotency-key'];
      if (route.method === 'POST' && typeof idempotencyKey !== 'string') return problem(reply, 422, 'idempotency_key_required');
      const r: Request = {
        pathId: (req.params as { id?: string }).id,
        tokenHash: createHash('sha256').update(token).digest('hex'),
        idempotencyKey: typeof idempotencyKey === 'string' ? idempotencyKey : undefined,
        capturedIdempotencyKey: route.capturedIdempotencyKey,
        ids: new Map(),
        returned: [],
        shiftMs: Date.now() - c.capturedAt,
      };
      let answer: unknown[];
      if (c.transactional) {
        const conn = await sql.reserve();
        try {
          answer = await runAll(c, r, (text, params) => rowsOf(text, conn.unsafe(text, params as never[], { prepare: true })));
        } catch (e) {
          await conn.unsafe('rollback').catch(() => {});
          throw e;
        } finally {
          conn.release();
        }
      } else {
        answer = await runAll(c, r, (text, params) => rowsOf(text, sql.unsafe(text, params as never[], { prepare: true })));
      }
      if (route.route.includes(':id') && answer.length === 0) return problem(reply, 404, 'not_found');
      return reply.code(route.status).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify({ results: answer }));
    },
  });
}

app.setErrorHandler((err, _req, reply) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  return problem(reply, 500, 'internal');
});

const shutdown = async () => {
  await app.close();
  await sql.end({ timeout: 5 });
  process.exit(0);
};
process.once('SIGTERM', () => void shutdown());
process.once('SIGINT', () => void shutdown());

await app.listen({ port: Number(process.env.PORT ?? 3001), host: process.env.HOST ?? '127.0.0.1' });
