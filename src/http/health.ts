import type { FastifyInstance } from 'fastify';
import { queryRows, sql } from '../db/client';
import type { AppDeps } from '../deps';

/**
 * /healthz (the process answers) and /readyz (it can take traffic: the database answers and it is
 * not draining). After SIGTERM main.ts calls `app.startDraining()`: /readyz answers 503 from then
 * on, so a load balancer stops sending new requests while the ones in flight finish.
 */

declare module 'fastify' {
  interface FastifyInstance {
    /** Marks the process as shutting down: /readyz answers 503 `draining` from now on. */
    startDraining(): void;
  }
}

export function registerHealthRoutes(app: FastifyInstance, deps: AppDeps): void {
  let draining = false;
  app.decorate('startDraining', () => {
    draining = true;
  });
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_req, reply) => {
    if (draining) return reply.code(503).header('connection', 'close').send({ status: 'draining', database: deps.dbKind });
    try {
      await queryRows(deps.db, sql`select 1 as ok`);
      return { status: 'ready', database: deps.dbKind };
    } catch {
      return reply.code(503).send({ status: 'unavailable', database: deps.dbKind });
    }
  });
}
