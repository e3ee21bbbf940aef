import { Redis } from 'ioredis';
import {
  RateLimiterDrizzle,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
  type RateLimiterStoreAbstract,
} from 'rate-limiter-flexible';
import type { Config } from '../../config';
import type { SQL } from 'drizzle-orm';
import { preparedSql, queryRows, sql, type Database } from '../../db/client';
import { rateLimitCounters } from '../../db/schema';
import { AppError } from '../../lib/errors';

/**
 * The ON CONFLICT clause of one hit on a fixed-window counter (rate-limiter-flexible's
 * RateLimiterDrizzle upsert): a window over at `at` starts again at 1 until `expire`.
 */
function counterUpsert(at: unknown, expire: unknown) {
  return sql`
      on conflict (key) do update set
        points = case when rate_limit_counters.expire <= ${at}::timestamptz then 1 else rate_limit_counters.points + 1 end,
        expire = case when rate_limit_counters.expire <= ${at}::timestamptz then ${expire}::timestamptz else rate_limit_counters.expire end
      returning points, expire`;
}

/** Points of each counter and the whole seconds until its window ends (ceiling; null without a window). */
type CheckedRow = {
  ap: number | null; asec: number | null; go: boolean;
  kp: number | null; ksec: number | null; op: number | null; osec: number | null;
};

/** Whole seconds from the request's instant to `expire` (rounded up, as stateOf counts them): numbers, not instants, to the caller. */
const secondsLeft = (expire: SQL) => sql`ceil(extract(epoch from ${expire} - ${sql.placeholder('at')}::timestamptz))::int`;

/**
 * The frame both checked statements share: the address's failed authentications (a), the
 * organization's auth epoch (e), whether to go on (g: under the address's limit, epoch unchanged,
 * and `goAlso`), the credential's counter (k) and the organization's (o); `before` adds CTEs g reads,
 * `after` the credential's own bookkeeping.
 */
function checkedStatement(parts: { before: SQL; goAlso: SQL; after: SQL }) {
  const p = (name: string) => sql.placeholder(name);
  const upsert = counterUpsert(p('at'), p('expire'));
  return sql`with a as (
        select points, expire from rate_limit_counters
        where key = ${p('addressKey')} and (expire > ${p('at')}::timestamptz or expire is null)),
      e as (select coalesce((select epoch from auth_epochs where organization_id = ${p('organizationId')}::uuid), 0) as epoch),
      ${parts.before}
      g as (select coalesce((select points from a), 0) < ${p('authFailures')} and (select epoch from e) = ${p('epoch')}${parts.goAlso} as go),
      k as (
        insert into rate_limit_counters (key, points, expire)
        select ${p('keyKey')}, 1, ${p('expire')}::timestamptz where (select go from g)
        ${upsert}),
      o as (
        insert into rate_limit_counters (key, points, expire)
        select ${p('orgKey')}, 1, ${p('expire')}::timestamptz where (select points from k) <= ${p('perKey')}
        ${upsert}),
      ${parts.after}
      select (select points from a) as ap, (select ${secondsLeft(sql`expire`)} from a) as asec, (select go from g) as go,
             k.points as kp, ${secondsLeft(sql`k.expire`)} as ksec, o.points as op, ${secondsLeft(sql`o.expire`)} as osec
      from (select 1) as one left join k on true left join o on true`;
}

/** hitKeyChecked's one statement (see there), its text built once: the key's last use recorded at most once a minute. */
const hitKeyCheckedStatement = preparedSql<CheckedRow>(() => {
  const p = (name: string) => sql.placeholder(name);
  return checkedStatement({
    before: sql``,
    goAlso: sql``,
    after: sql`t as (
        update api_keys set last_used_at = ${p('at')}::timestamptz
        where organization_id = ${p('organizationId')}::uuid and id = ${p('apiKeyId')}::uuid and (select go from g)
          and (last_used_at is null or last_used_at <= ${p('at')}::timestamptz - interval '1 minute')
        returning 1)`,
  });
});

/**
 * hitChecked's statement for a session whose principal the process has cached: as hitKeyChecked's,
 * but the session must still be unrevoked and unexpired (a logout raises no epoch), the member's
 * counter is counted instead of a key's, and the session's expiry slides (at most once a minute,
 * never past its maximum lifetime) instead of a key's last use being recorded.
 */
const hitSessionCheckedStatement = preparedSql<CheckedRow>(() => {
  const p = (name: string) => sql.placeholder(name);
  return checkedStatement({
    before: sql`s as (
        select created_at, idle_seconds, expires_at from sessions
        where organization_id = ${p('organizationId')}::uuid and id = ${p('sessionId')}::uuid
          and revoked_at is null and expires_at > ${p('at')}::timestamptz),`,
    goAlso: sql` and exists (select 1 from s)`,
    after: sql`n as (
        select least(${p('at')}::timestamptz + make_interval(secs => idle_seconds),
                     created_at + greatest(interval '30 days', make_interval(secs => idle_seconds))) as next, expires_at
        from s),
      t as (
        update sessions set expires_at = (select next from n)
        where organization_id = ${p('organizationId')}::uuid and id = ${p('sessionId')}::uuid and (select go from g)
          and (select next - expires_at from n) > interval '1 minute'
        returning 1)`,
  });
});

/** Where one limit stands after a request was counted against it. */
export interface LimitState {
  /**
   * Which limit: `key` (an API key's), `member` (a person's sessions'), `organization`, `address`, or
   * a member's costly actions: `pdf_renders`, `uploads`.
   */
  name: 'key' | 'member' | 'organization' | 'address' | MemberAction | 'password_resets';
  limit: number;
  remaining: number;
  /** Whole seconds until the window resets (at least 1 while a window is open). */
  resetSeconds: number;
  allowed: boolean;
}

type Limiter = RateLimiterAbstract | RateLimiterStoreAbstract;

/** Costly actions limited per member (whatever credential they use), per minute. */
export type MemberAction = 'pdf_renders' | 'uploads';

/** Where the counters are kept. */
export type RateLimitStore =
  | { kind: 'memory' }
  | { kind: 'postgres'; db: Database }
  /** `prefix` starts every key (`<prefix>:key:<id>`, ...); the client is quit by close() when `owned`. */
  | { kind: 'redis'; client: Redis; prefix: string; owned?: boolean };

/**
 * hitKey on Redis in one round trip: rate-limiter-flexible's RateLimiterRedis script (SET 0 EX NX,
 * INCRBY, PTTL, EXPIRE when no TTL) on the key's counter, then on the organization's only when the
 * key's still allows the request. Same keys, same fixed windows as RateLimiterRedis, so its `get` and
 * `consume` read and count the same counters. KEYS: the key's, the organization's counter; ARGV: the
 * window in seconds, the per-key limit. Answers {key points, key pttl[, org points, org pttl]}.
 */
const HIT_KEY_LUA = `
local function hit(counter, seconds)
  redis.call('set', counter, 0, 'EX', seconds, 'NX')
  local consumed = redis.call('incrby', counter, 1)
  local ttl = redis.call('pttl', counter)
  if ttl == -1 then
    redis.call('expire', counter, seconds)
    ttl = 1000 * seconds
  end
  return {consumed, ttl}
end
local key = hit(KEYS[1], ARGV[1])
if key[1] > tonumber(ARGV[2]) then return key end
local org = hit(KEYS[2], ARGV[1])
return {key[1], key[2], org[1], org[2]}
`;

/**
 * Gives back one reserved unit of an address's failed-authentication counter, only while the window
 * it was reserved in is still the one there: its time to live within half a second of the one the
 * reservation expects (a window opened since lives at least a whole second longer) and above nothing.
 * KEYS: the counter; ARGV: the expected milliseconds to live. Answers 1 when given back, else 0.
 */
const RELEASE_AUTH_ATTEMPT_LUA = `
local ttl = redis.call('pttl', KEYS[1])
if ttl <= 0 or math.abs(ttl - tonumber(ARGV[1])) >= 500 then return 0 end
local points = tonumber(redis.call('get', KEYS[1]))
if not points or points <= 0 then return 0 end
redis.call('decr', KEYS[1])
return 1
`;

type RedisWithHitKey = Redis & {
  financeHitKey(keyCounter: string, orgCounter: string, seconds: string, perKey: string): Promise<number[]>;
  financeReleaseAuthAttempt(counter: string, expectedTtlMs: string): Promise<number>;
};

/**
 * One unit of an address's failed-authentication budget, held while a credential is checked
 * (reserve, authenticate, then release or keep): concurrent attempts from one address can never
 * check more credentials than the limit allows.
 */
export interface AuthAttempt {
  /** Where the address stands with this attempt counted; not allowed: refuse (429) without checking the credential. */
  state: LimitState;
  /** Gives the unit back (the credential was good, or its check failed for another reason); kept, it counts as a failure. */
  release(): Promise<void>;
}

export interface RateLimitSettings {
  perKey: number;
  /** Requests of one member's sessions per window (a person's own limit, as perKey is a key's). */
  perMember?: number;
  perOrganization: number;
  windowSeconds: number;
  authFailures: number;
  authFailureWindowSeconds: number;
  /** Per member per minute; unlimited when not set. */
  pdfRendersPerMinute?: number;
  uploadsPerMinute?: number;
  /** Password reset requests per e-mail address and per source address, per window; unlimited when not set. */
  passwordResets?: { perAccount: number; perAddress: number; windowSeconds: number };
}

export function rateLimitSettings(config: Config): RateLimitSettings {
  return {
    perKey: config.RATE_LIMIT_PER_KEY,
    perMember: config.RATE_LIMIT_PER_MEMBER,
    perOrganization: config.RATE_LIMIT_PER_ORGANIZATION,
    windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
    authFailures: config.RATE_LIMIT_AUTH_FAILURES,
    authFailureWindowSeconds: config.RATE_LIMIT_AUTH_FAILURE_WINDOW_SECONDS,
    pdfRendersPerMinute: config.RATE_LIMIT_PDF_RENDERS_PER_MINUTE,
    uploadsPerMinute: config.RATE_LIMIT_UPLOADS_PER_MINUTE,
    passwordResets: {
      perAccount: config.PASSWORD_RESETS_PER_ACCOUNT,
      perAddress: config.PASSWORD_RESETS_PER_ADDRESS,
      windowSeconds: config.PASSWORD_RESET_WINDOW_SECONDS,
    },
  };
}

function state(name: LimitState['name'], limit: number, res: RateLimiterRes | null, allowed: boolean): LimitState {
  if (!res) return { name, limit, remaining: limit, resetSeconds: 0, allowed };
  return {
    name,
    limit,
    remaining: Math.max(0, limit - res.consumedPoints),
    resetSeconds: res.msBeforeNext > 0 ? Math.ceil(res.msBeforeNext / 1000) : 0,
    allowed,
  };
}

/** Counts one hit; a refusal of the limiter (over the limit) is an answer, a store failure is thrown. */
async function hit(limiter: Limiter, name: LimitState['name'], limit: number, key: string): Promise<LimitState> {
  try {
    return state(name, limit, await limiter.consume(key, 1), true);
  } catch (e) {
    if (e instanceof RateLimiterRes) return state(name, limit, e, false);
    throw e;
  }
}

/**
 * The three limits of docs/design.md §8, fixed windows counted by rate-limiter-flexible: in memory
 * on the embedded database (one process), in the `rate_limit_counters` table on PostgreSQL, so every
 * process sharing the database enforces one limit (each hit is one atomic INSERT ... ON CONFLICT), or
 * in Redis when REDIS_URL is set (RateLimiterRedis; each hit one atomic script), shared by every
 * process using that Redis.
 */
export class RateLimits {
  private readonly perKey: Limiter;
  private readonly perMember: Limiter;
  private readonly perOrganization: Limiter;
  private readonly authFailures: Limiter;
  private readonly actions: Partial<Record<MemberAction, { limiter: Limiter; limit: number }>> = {};
  private readonly resets: { account: Limiter; address: Limiter } | undefined;
  private readonly db: Database | undefined;
  private readonly redis: { client: RedisWithHitKey; prefix: string; owned: boolean } | undefined;

  constructor(
    readonly settings: RateLimitSettings,
    store: RateLimitStore,
  ) {
    this.db = store.kind === 'postgres' ? store.db : undefined;
    if (store.kind === 'redis') {
      const client = store.client as RedisWithHitKey;
      if (typeof client.financeHitKey !== 'function') client.defineCommand('financeHitKey', { numberOfKeys: 2, lua: HIT_KEY_LUA });
      if (typeof client.financeReleaseAuthAttempt !== 'function') {
        client.defineCommand('financeReleaseAuthAttempt', { numberOfKeys: 1, lua: RELEASE_AUTH_ATTEMPT_LUA });
      }
      this.redis = { client, prefix: store.prefix, owned: store.owned ?? false };
    }
    const make = (name: string, points: number, duration: number): Limiter => {
      switch (store.kind) {
        case 'memory':
          return new RateLimiterMemory({ keyPrefix: name, points, duration });
        case 'postgres':
          return new RateLimiterDrizzle({ keyPrefix: name, points, duration, storeClient: store.db, schema: rateLimitCounters });
        case 'redis':
          return new RateLimiterRedis({ keyPrefix: `${store.prefix}:${name}`, points, duration, storeClient: store.client });
      }
    };
    this.perKey = make('key', settings.perKey, settings.windowSeconds);
    this.perMember = make('member', this.memberLimit, settings.windowSeconds);
    this.perOrganization = make('org', settings.perOrganization, settings.windowSeconds);
    this.authFailures = make('authfail', settings.authFailures, settings.authFailureWindowSeconds);
    const actionLimits: [MemberAction, number | undefined][] = [
      ['pdf_renders', settings.pdfRendersPerMinute],
      ['uploads', settings.uploadsPerMinute],
    ];
    for (const [action, limit] of actionLimits) {
      if (limit !== undefined) this.actions[action] = { limiter: make(action, limit, 60), limit };
    }
    const r = settings.passwordResets;
    if (r) this.resets = { account: make('reset-account', r.perAccount, r.windowSeconds), address: make('reset-address', r.perAddress, r.windowSeconds) };
  }

  /**
   * Counts one costly action of a member (a PDF rendered, a file uploaded) against its per-minute
   * limit, in the same store as the request limits (one atomic hit); 429 `rate_limited` with
   * Retry-After when the limit is reached. A limit not configured counts nothing.
   */
  async countMemberAction(action: MemberAction, memberId: string): Promise<void> {
    const a = this.actions[action];
    if (!a) return;
    const s = await hit(a.limiter, action, a.limit, memberId);
    if (!s.allowed) throw rateLimitedError(s);
  }

  /**
   * Counts one password reset request against the source address's limit and the e-mail address's
   * (the account's), in the same store as the request limits. Answers both states; the caller refuses
   * (429) past either. The account's counter is kept per e-mail address whether or not anybody has
   * it, so a refusal tells nothing about who has an account.
   */
  async countPasswordReset(address: string, account: string): Promise<{ address: LimitState; account: LimitState }> {
    const r = this.settings.passwordResets;
    const open = (limit: number): LimitState => ({ name: 'password_resets', limit, remaining: limit, resetSeconds: 0, allowed: true });
    if (!r || !this.resets) return { address: open(Number.MAX_SAFE_INTEGER), account: open(Number.MAX_SAFE_INTEGER) };
    const byAddress = await hit(this.resets.address, 'password_resets', r.perAddress, address);
    // A refused address counts nothing more: the account's budget is not spent by requests refused anyway.
    if (!byAddress.allowed) return { address: byAddress, account: open(r.perAccount) };
    return { address: byAddress, account: await hit(this.resets.account, 'password_resets', r.perAccount, account) };
  }

  /** Releases the store's connection when this owns one (the Redis client made from REDIS_URL). */
  async close(): Promise<void> {
    if (!this.redis?.owned) return;
    const { client } = this.redis;
    if (client.status === 'end') return;
    // Never connected (lazy): nothing to say goodbye to.
    if (client.status === 'wait') return void client.disconnect();
    try {
      await client.quit();
    } catch {
      client.disconnect();
    }
  }

  /**
   * Counts one request of an API key against its own limit and, when that one still allows it,
   * against its organization's (a key already over its limit does not eat its siblings' budget).
   * Answers the states of the limits counted, tightest first.
   */
  async hitKey(apiKeyId: string, organizationId: string): Promise<LimitState[]> {
    return this.hitCredential({ name: 'key', id: apiKeyId, limit: this.settings.perKey, limiter: this.perKey }, organizationId);
  }

  /** hitKey for a person's session: the member's limit (over all their sessions) and their organization's. */
  async hitMember(memberId: string, organizationId: string): Promise<LimitState[]> {
    return this.hitCredential({ name: 'member', id: memberId, limit: this.memberLimit, limiter: this.perMember }, organizationId);
  }

  /** The per-member limit (RATE_LIMIT_PER_MEMBER; the per-key one when not set). */
  get memberLimit(): number {
    return this.settings.perMember ?? this.settings.perKey;
  }

  private async hitCredential(
    own: { name: 'key' | 'member'; id: string; limit: number; limiter: Limiter },
    organizationId: string,
  ): Promise<LimitState[]> {
    if (this.redis) return this.hitKeyInOneScript(this.redis.client, this.redis.prefix, own, organizationId);
    if (this.db) return this.hitKeyInOneStatement(this.db, own, organizationId);
    const first = await hit(own.limiter, own.name, own.limit, own.id);
    if (!first.allowed) return [first];
    const org = await hit(this.perOrganization, 'organization', this.settings.perOrganization, organizationId);
    return tightestFirst([first, org]);
  }

  /**
   * hitKey on PostgreSQL in one round trip: both counters of rate-limiter-flexible's table (same
   * keys, same fixed windows, same upsert as its RateLimiterDrizzle) in one statement, the
   * organization's counted only when the key's still allows the request.
   */
  private async hitKeyInOneStatement(db: Database, own: { name: 'key' | 'member'; id: string; limit: number }, organizationId: string): Promise<LimitState[]> {
    const now = new Date();
    const expire = new Date(now.getTime() + this.settings.windowSeconds * 1000).toISOString();
    const at = now.toISOString();
    const upsert = counterUpsert(at, expire);
    const [row] = await queryRows<{ kp: number; ke: Date | string; op: number | null; oe: Date | string | null }>(
      db,
      sql`with k as (
            insert into rate_limit_counters (key, points, expire) values (${`${own.name}:${own.id}`}, 1, ${expire}::timestamptz)
            ${upsert}),
          o as (
            insert into rate_limit_counters (key, points, expire)
            select ${`org:${organizationId}`}, 1, ${expire}::timestamptz where (select points from k) <= ${own.limit}
            ${upsert})
          select k.points as kp, k.expire as ke, o.points as op, o.expire as oe from k left join o on true`,
    );
    const stateOf = (name: LimitState['name'], limit: number, points: number, until: Date | string | null) => this.stateOf(name, limit, points, until, now);
    const key = stateOf(own.name, own.limit, Number(row!.kp), row!.ke);
    if (!key.allowed || row!.op === null) return [key];
    return tightestFirst([key, stateOf('organization', this.settings.perOrganization, Number(row!.op), row!.oe)]);
  }

  /**
   * True when this store can check an API key's request in one statement with its organization's
   * auth epoch (hitKeyChecked): then a process may cache principals (PostgreSQL only).
   */
  get checksPrincipals(): boolean {
    return this.db !== undefined;
  }

  /**
   * One statement for an API-key request whose principal the process has cached (PostgreSQL store):
   * the address's failed-authentication counter is read (over its limit: nothing else happens and
   * the address's state answers), the organization's auth epoch is compared with the one the
   * principal was read under (changed: nothing is counted, `epochMatches` false, the caller
   * authenticates afresh), and only then the key's and organization's counters are counted and
   * `last_used_at` recorded when a minute has passed: the same effects, in the same order, as the
   * address check, authentication and hitKey made one after the other.
   */
  hitKeyChecked(q: { apiKeyId: string; organizationId: string; address: string; epoch: number; now: Date }): Promise<
    { addressRefused: LimitState } | { epochMatches: false } | { epochMatches: true; states: LimitState[] }
  > {
    return this.hitChecked({ kind: 'api_key', id: q.apiKeyId }, q);
  }

  /**
   * hitKeyChecked for a session whose principal the process has cached: the same one statement, which
   * also finds the session unrevoked and unexpired (else `epochMatches` false: authenticate afresh),
   * counts the member's limit instead of a key's and slides the session's expiry once a minute.
   */
  hitSessionChecked(q: { sessionId: string; memberId: string; organizationId: string; address: string; epoch: number; now: Date }): Promise<
    { addressRefused: LimitState } | { epochMatches: false } | { epochMatches: true; states: LimitState[] }
  > {
    return this.hitChecked({ kind: 'session', id: q.sessionId, memberId: q.memberId }, q);
  }

  private async hitChecked(
    credential: { kind: 'api_key'; id: string } | { kind: 'session'; id: string; memberId: string },
    q: { organizationId: string; address: string; epoch: number; now: Date },
  ): Promise<{ addressRefused: LimitState } | { epochMatches: false } | { epochMatches: true; states: LimitState[] }> {
    const db = this.db;
    if (!db) throw new Error('hitKeyChecked needs the PostgreSQL store');
    const { now } = q;
    const at = now.toISOString();
    const expire = new Date(now.getTime() + this.settings.windowSeconds * 1000).toISOString();
    const common = {
      addressKey: `authfail:${q.address}`,
      at,
      expire,
      organizationId: q.organizationId,
      authFailures: this.settings.authFailures,
      epoch: q.epoch,
      orgKey: `org:${q.organizationId}`,
    };
    const own = credential.kind === 'api_key' ? { name: 'key' as const, limit: this.settings.perKey } : { name: 'member' as const, limit: this.memberLimit };
    const [row] =
      credential.kind === 'api_key'
        ? await hitKeyCheckedStatement(db, { ...common, keyKey: `key:${credential.id}`, perKey: own.limit, apiKeyId: credential.id })
        : await hitSessionCheckedStatement(db, { ...common, keyKey: `member:${credential.memberId}`, perKey: own.limit, sessionId: credential.id });
    // The statement answers one row by construction; without one (an answer lost to a connection
    // failure) nothing is known to be counted, and the caller authenticates afresh.
    if (!row) return { epochMatches: false };
    const r = row;
    const addressPoints = Number(r.ap ?? 0);
    if (addressPoints >= this.settings.authFailures) {
      return { addressRefused: { ...this.stateIn('address', this.settings.authFailures, addressPoints, r.asec), allowed: false } };
    }
    if (!r.go || r.kp === null) return { epochMatches: false };
    const key = this.stateIn(own.name, own.limit, Number(r.kp), r.ksec);
    if (!key.allowed || r.op === null) return { epochMatches: true, states: [key] };
    return { epochMatches: true, states: tightestFirst([key, this.stateIn('organization', this.settings.perOrganization, Number(r.op), r.osec)]) };
  }

  private stateOf(name: LimitState['name'], limit: number, points: number, until: Date | string | null, now: Date): LimitState {
    return this.stateIn(name, limit, points, until ? Math.ceil((new Date(until).getTime() - now.getTime()) / 1000) : null);
  }

  /** stateOf with the seconds left in the window already counted (null: no window). */
  private stateIn(name: LimitState['name'], limit: number, points: number, secondsLeft: number | null): LimitState {
    return {
      name,
      limit,
      remaining: Math.max(0, limit - points),
      // Never more than the window: a counter opened by a request that started after this one (its
      // clock read later) ends at most a window from now.
      resetSeconds: secondsLeft === null ? 0 : Math.min(this.windowOf(name), Math.max(0, secondsLeft)),
      allowed: points <= limit,
    };
  }

  private windowOf(name: LimitState['name']): number {
    return name === 'address' ? this.settings.authFailureWindowSeconds : this.settings.windowSeconds;
  }

  /** hitKey on Redis in one round trip (HIT_KEY_LUA): the keys RateLimiterRedis uses for the same limits. */
  private async hitKeyInOneScript(
    client: RedisWithHitKey,
    prefix: string,
    own: { name: 'key' | 'member'; id: string; limit: number },
    organizationId: string,
  ): Promise<LimitState[]> {
    const { perOrganization, windowSeconds } = this.settings;
    const [kp, kt, op, ot] = await client.financeHitKey(`${prefix}:${own.name}:${own.id}`, `${prefix}:org:${organizationId}`, String(windowSeconds), String(own.limit));
    const stateOf = (name: LimitState['name'], limit: number, points: number, ttlMs: number): LimitState => ({
      name,
      limit,
      remaining: Math.max(0, limit - points),
      resetSeconds: ttlMs > 0 ? Math.ceil(ttlMs / 1000) : 0,
      allowed: points <= limit,
    });
    const key = stateOf(own.name, own.limit, Number(kp), Number(kt));
    if (!key.allowed || op === undefined) return [key];
    return tightestFirst([key, stateOf('organization', perOrganization, Number(op), Number(ot))]);
  }

  /** Where an address stands with failed authentications, without counting anything. */
  async addressState(address: string): Promise<LimitState> {
    const res = await this.authFailures.get(address);
    const limit = this.settings.authFailures;
    return state('address', limit, res, !res || res.consumedPoints < limit);
  }

  /**
   * Reserves one unit of the address's failed-authentication budget before a credential is checked,
   * in one atomic step of the store (the same fixed window and counter as addressState): the unit is
   * counted whether or not the budget allows it, and the attempt may go on only when the count is
   * within the limit. The caller keeps the unit when the credential fails (a failure, answered 401
   * with this state) and releases it otherwise, so a good credential costs the budget nothing. A
   * refused reservation (over the limit) gives its unit back at once: nothing was checked, so nothing
   * failed, and a burst refused while the budget is spent leaves the count where the failures put it.
   */
  async reserveAuthAttempt(address: string): Promise<AuthAttempt> {
    const limit = this.settings.authFailures;
    if (this.db) return this.reserveInTable(this.db, address);
    let res: RateLimiterRes;
    let allowed = true;
    try {
      res = await this.authFailures.consume(address, 1);
    } catch (e) {
      if (!(e instanceof RateLimiterRes)) throw e;
      res = e;
      allowed = false;
    }
    const s = state('address', limit, res, allowed);
    // The window this unit was counted in, by when it ends (a window opened later ends at least a second later).
    const endsAt = Date.now() + res.msBeforeNext;
    const redis = this.redis;
    let released = false;
    const attempt: AuthAttempt = {
      state: s,
      release: async () => {
        if (released) return;
        released = true;
        if (redis) {
          const ttl = endsAt - Date.now();
          if (ttl > 0) await redis.client.financeReleaseAuthAttempt(`${redis.prefix}:authfail:${address}`, String(ttl));
          return;
        }
        // In memory: read and given back in the same turn of the event loop as far as the store goes.
        const now = await this.authFailures.get(address);
        if (now && now.consumedPoints > 0 && now.msBeforeNext > 0 && Math.abs(Date.now() + now.msBeforeNext - endsAt) < 500) {
          await this.authFailures.reward(address, 1);
        }
      },
    };
    // Refused: nothing is checked, so nothing failed; the unit goes back at once.
    if (!allowed) await attempt.release();
    return attempt;
  }

  /** reserveAuthAttempt on PostgreSQL: the counter's upsert, and its release only in the window it was counted in. */
  private async reserveInTable(db: Database, address: string): Promise<AuthAttempt> {
    const now = new Date();
    const at = now.toISOString();
    const key = `authfail:${address}`;
    const expire = new Date(now.getTime() + this.settings.authFailureWindowSeconds * 1000).toISOString();
    const [row] = await queryRows<{ points: number; expire: Date | string }>(
      db,
      sql`insert into rate_limit_counters (key, points, expire) values (${key}, 1, ${expire}::timestamptz)
          ${counterUpsert(at, expire)}`,
    );
    const s = this.stateOf('address', this.settings.authFailures, Number(row!.points), row!.expire, now);
    const window = new Date(row!.expire).toISOString();
    let released = false;
    const attempt: AuthAttempt = {
      state: s,
      release: async () => {
        if (released) return;
        released = true;
        await queryRows(
          db,
          sql`update rate_limit_counters set points = points - 1 where key = ${key} and expire = ${window}::timestamptz and points > 0`,
        );
      },
    };
    // Refused: nothing is checked, so nothing failed; the unit goes back at once.
    if (!s.allowed) await attempt.release();
    return attempt;
  }
}

/** Refused limits first, then the one with the fewest requests left, then the longest wait. */
export function tightestFirst(states: LimitState[]): LimitState[] {
  return [...states].sort(
    (a, b) => Number(a.allowed) - Number(b.allowed) || a.remaining - b.remaining || b.resetSeconds - a.resetSeconds,
  );
}

/** 429, with the limit's state and when to retry (never earlier than the reset); the edge writes the headers. */
export function rateLimitedError(s: LimitState): AppError {
  const retryAfterSeconds = Math.max(1, s.resetSeconds);
  const what =
    s.name === 'address'
      ? 'Too many failed authentications from this address'
      : s.name === 'organization'
        ? "The organization's request limit across its API keys and sessions is reached"
        : s.name === 'member'
          ? "This person's request limit across their sessions is reached"
          : s.name === 'pdf_renders'
            ? `This member's limit of ${s.limit} PDF renders a minute is reached`
            : s.name === 'uploads'
              ? `This member's limit of ${s.limit} uploads a minute is reached`
              : s.name === 'password_resets'
                ? 'Too many password reset requests from this address or for this e-mail address'
              : "This API key's request limit is reached";
  return new AppError('rate_limited', {
    detail: `${what}; retry after ${retryAfterSeconds} seconds`,
    rateLimit: s,
    retryAfterSeconds,
  });
}

/**
 * The limits of a process: shared through Redis when REDIS_URL is set (the client connects on first
 * use and is quit by close()), else through PostgreSQL when it runs on one, in memory otherwise.
 */
export function createRateLimits(
  config: Config,
  kind: 'pglite' | 'postgres',
  db: Database,
  log?: { warn(obj: object, msg: string): void },
): RateLimits {
  const settings = rateLimitSettings(config);
  if (config.REDIS_URL) {
    const client = new Redis(config.REDIS_URL, {
      lazyConnect: true,
      maxRetriesPerRequest: 3,
      // Named in CLIENT LIST after its keys.
      connectionName: `${config.RATE_LIMIT_REDIS_PREFIX}:rate-limits`,
    });
    // A lost connection fails the requests that need it (500) and is retried by ioredis; the event
    // needs a listener or ioredis reports it as unhandled.
    client.on('error', (err: Error) => log?.warn({ err }, 'rate limits: Redis connection error'));
    return new RateLimits(settings, { kind: 'redis', client, prefix: config.RATE_LIMIT_REDIS_PREFIX, owned: true });
  }
  return new RateLimits(settings, kind === 'postgres' ? { kind: 'postgres', db } : { kind: 'memory' });
}
