/**
 * A containment for postgres.js 3.4.9's write on a closed connection (porsager/postgres issues 1066,
 * 1154, 1208; no release fixes it). When a connection's backend dies while a transaction or a
 * reserved connection holds it, postgres.js itself sends the next statement of that transaction (its
 * own ROLLBACK, or the caller's next query) to the dead connection: the write is scheduled with
 * setImmediate and runs `socket.write` on a socket already set to null, a TypeError no caller can
 * catch, and the process ends. Worse, once the pool has reconnected that slot, the statement would run
 * on the new session, outside the transaction it belonged to.
 *
 * The pool reaches a connection only through `connection.execute(query)` and, for a closed one,
 * `connection.connect(query)`, properties it reads at each call, so the guard wraps them: a query of a transaction or reserved connection (its handler is not the
 * pool's own) that arrives after its connection closed is refused with CONNECTION_CLOSED, as
 * postgres.js refuses a query on a closed connection, and nothing is written. The pool's own queries
 * only ever go to open connections and pass through untouched.
 *
 * postgres.js keeps its connections private; each one is pushed onto the pool's internal queue while
 * `postgres()` builds the pool, synchronously, so they are collected by watching that push for the
 * duration of the call. A future postgres.js that builds its pool differently leaves the guard
 * without connections: `guardedConnections` says how many it holds (a test checks it is the pool size).
 */
import postgres from 'postgres';

interface RawQuery {
  handler: unknown;
  options?: { onexecute?: unknown };
  reject(err: unknown): void;
}

interface RawConnection {
  id: number;
  queue: unknown;
  execute(q: RawQuery): boolean;
  connect: (q?: RawQuery) => unknown;
  terminate: unknown;
}

function isConnection(x: unknown): x is RawConnection {
  const c = x as Partial<RawConnection> | null;
  return (
    typeof c === 'object' && c !== null && typeof c.id === 'number' && typeof c.execute === 'function' && typeof c.connect === 'function' && typeof c.terminate === 'function'
  );
}

/** The guard's own refusals (never taken for a connection failing: see `brokenAt` below). */
const refusals = new WeakSet<object>();

function connectionClosed(): Error {
  const error = Object.assign(new Error('write CONNECTION_CLOSED (the connection closed during its transaction)'), { code: 'CONNECTION_CLOSED', errno: 'CONNECTION_CLOSED' });
  refusals.add(error);
  return error;
}

const guarded = new WeakMap<object, number>();

/** The socket's own failures (the `error` event), after which postgres.js closes the connection only later. */
const SOCKET_FAILURES = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT']);

/** How long a connection whose socket failed is refused statements while its close has not come. */
const BROKEN_FOR_MS = 1000;

/** How many connections of a guarded pool the guard holds (the pool's size when it works). */
export function guardedConnections(client: object): number {
  return guarded.get(client) ?? 0;
}

/** `postgres(url, options)` with every connection of the pool guarded as described above. */
export function guardedPostgres(url: string, options: postgres.Options<Record<string, postgres.PostgresType>>): postgres.Sql {
  // A Set: postgres.js may push one connection more than once while it builds the pool (each is
  // guarded once).
  const connections = new Set<RawConnection>();
  /** How many times each connection has closed. */
  const closes = new Map<number, number>();
  const push = Array.prototype.push;
  let client: postgres.Sql;
  Array.prototype.push = function (this: unknown[], ...items: unknown[]) {
    for (const item of items) if (isConnection(item)) connections.add(item);
    return push.apply(this, items);
  };
  try {
    client = postgres(url, {
      ...options,
      onclose: (id: number) => {
        closes.set(id, (closes.get(id) ?? 0) + 1);
        options.onclose?.(id);
      },
    });
  } finally {
    Array.prototype.push = push;
  }
  // postgres.js builds its (idle, unused here) subscription pool first, then the pool's own
  // connections: only those, which share the last one's queue, are the pool's.
  const last = [...connections].at(-1);
  for (const c of connections) if (c.queue !== last?.queue) connections.delete(c);
  // A query object made and never run: its handler is the pool's own.
  const poolHandler = (client`select 1` as unknown as RawQuery).handler;
  const closedQueue = connections.values().next().value?.queue;
  /**
   * The close count at which a connection's socket failed, by connection id. A socket error
   * (ECONNRESET) fails the statement in flight at once, but postgres.js closes the connection only
   * on the socket's `close` event, later; a statement sent in between (the failed transaction's own
   * ROLLBACK, or the pool's next query) is queued on the dead socket, and the close (an error close)
   * fails nothing, so it stays queued into the reconnected session: it takes the next statement's
   * answer there, every later one is answered one off, and the last waits for ever. Until the count
   * moves, every statement sent to that connection is refused instead, as on a closed one; for a
   * second at most, since a connection that fails while it is still starting reconnects without
   * counting a close (its new session is sound).
   */
  const brokenAt = new Map<number, { closes: number; at: number }>();
  const watchFailure = (c: RawConnection, q: RawQuery) => {
    const reject = q.reject;
    q.reject = (err: unknown) => {
      if (!refusals.has(err as object) && SOCKET_FAILURES.has((err as { code?: unknown } | null)?.code as string)) brokenAt.set(c.id, { closes: closes.get(c.id) ?? 0, at: Date.now() });
      reject.call(q, err);
    };
  };
  const broken = (c: RawConnection, now: number): boolean => {
    const mark = brokenAt.get(c.id);
    if (!mark) return false;
    if (mark.closes === now && Date.now() - mark.at < BROKEN_FOR_MS) return true;
    brokenAt.delete(c.id);
    return false;
  };
  for (const c of connections) {
    const execute = c.execute;
    /** Per transaction or reserved connection (its handler): the connection's close count when it began. */
    const began = new WeakMap<object, number>();
    /** The close count when the pool last sent a transaction's `begin` on this connection. */
    let beginAt: number | undefined;
    // A transaction's `begin` that finds the connection closed goes to `connect(query)` instead, and
    // the connection runs it from inside postgres.js once connected, without passing `execute`: it is
    // noted here, or the transaction's next statement would be taken for one of a transaction begun
    // before the close, refused, its ROLLBACK as well, and the connection left reserved for good.
    const connect = c.connect;
    c.connect = (q?: RawQuery) => {
      if (q && q.handler === poolHandler && q.options?.onexecute) beginAt = closes.get(c.id) ?? 0;
      return connect(q);
    };
    c.execute = (q: RawQuery) => {
      const now = closes.get(c.id) ?? 0;
      if (broken(c, now)) {
        q.reject(connectionClosed());
        // The pool sends nothing more to it until it is ready again (or closes); a transaction's
        // statements go to their own connection whatever this answers.
        return q.handler !== poolHandler;
      }
      watchFailure(c, q);
      if (q.handler === poolHandler) {
        if (q.options?.onexecute) beginAt = now;
      } else if (typeof q.handler === 'function') {
        const at = began.get(q.handler) ?? (beginAt === undefined || beginAt === now ? undefined : -1);
        if (at === undefined && c.queue !== closedQueue) began.set(q.handler, now);
        else if (at === undefined || at !== now || c.queue === closedQueue) {
          q.reject(connectionClosed());
          return true;
        }
      }
      return execute(q);
    };
  }
  guarded.set(client, connections.size);
  return client;
}
