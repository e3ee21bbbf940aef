import type { z } from 'zod';
import { deactivateInput, pageOutput } from '../../contract/fields';
import type { ServiceContext } from '../../services/context';
import { svc, type ResponseOut } from '../context';
import { expectedRevision, setEtag } from '../http';
import { settingsDecisionProcedure, settingsReadProcedure, settingsWriteProcedure } from '../procedures';
import { router } from '../trpc';

/**
 * The set-up procedures' toolkit (settings.*, organization.members, roles and profile,
 * me.payoutChannels): their one way of answering (their input pieces are src/contract/fields.ts).
 * Every family answers alike: create is 201 with the record's revision as ETag; a change or a
 * deactivation answers the record with its (new) revision as ETag.
 */

// Answers --------------------------------------------------------------------------------------

/** The revision an update or deactivation expects (If-Match: missing 428, malformed 400), passed to the service. */
export function withRevision<T extends object>(ctx: { ifMatch?: string }, input: T): T & { expected_revision: number } {
  return { ...input, expected_revision: expectedRevision(ctx) };
}

/** The answer of a create: 201 with the record's revision as ETag. */
export function created<T extends { revision: number }>(ctx: { out: ResponseOut }, record: T): T {
  ctx.out.status = 201;
  setEtag(ctx, record.revision);
  return record;
}

/** The answer of a read or a change: the record with its revision as ETag. */
export function answered<T extends { revision: number }>(ctx: { out: ResponseOut }, record: T): T {
  setEtag(ctx, record.revision);
  return record;
}

// The family builder ---------------------------------------------------------------------------

/** A set-up service: the service context and the input as the schema parsed it. */
type Run<In, Out> = (ctx: ServiceContext, input: In) => Promise<Out>;

/** The schemas of a set-up family of four procedures (src/contract/settings/*.ts). */
export interface SetupContract<R extends z.ZodType, L extends z.ZodType, C extends z.ZodType, U extends z.ZodType> {
  /** The record as answered (by create, update and deactivate; the list's items). */
  record: R;
  list: L;
  create: C;
  /** Carries the record id; the revision comes from If-Match. */
  update: U;
}

/** The services behind the four procedures; deactivate takes `{ id }` (deactivateInput) and the If-Match revision. */
export interface SetupServices<R extends z.ZodType, L extends z.ZodType, C extends z.ZodType, U extends z.ZodType> {
  list: Run<z.output<L>, { items: z.input<R>[]; next_cursor: string | null }>;
  create: Run<z.output<C>, z.input<R>>;
  update: Run<z.output<U> & { expected_revision: number }, z.input<R>>;
  deactivate: Run<z.output<typeof deactivateInput> & { expected_revision: number }, z.input<R>>;
}

/** A family whose list is also a /v1 operation: GET at `path` (under /v1), documented under `tag`. */
export interface RestList {
  path: `/${string}`;
  summary: string;
  /** What the list is for; the paging, order and permission sentences are added. */
  description: string;
  tag: string;
}

function restListMeta(rest: RestList) {
  return {
    openapi: {
      method: 'GET' as const,
      path: rest.path,
      summary: rest.summary,
      description:
        `${rest.description} By code, ascending; active records only unless include_inactive=true. ` +
        'Keyset pagination: pass next_cursor back as cursor, with the same include_inactive ' +
        '(a cursor sent with another is 422 validation at /query/cursor; one that does not decode or verify is 400). ' +
        'Permission: organization.settings.read.',
      tags: [rest.tag],
      protect: true,
    },
  };
}

/**
 * The four procedures of a set-up family, answering alike: list (organization.settings.read), and
 * create (201 with the revision as ETag), update and deactivate (If-Match; the record with its new
 * revision as ETag), organization.settings.manage. `writes: 'decision'` makes the writes a people's
 * decision (session only; an API key is 403 `person_required`), as changes to who may approve are.
 * With `rest`, the list is also GET /v1<path> (the writes stay tRPC only).
 */
export function setupRouter<R extends z.ZodType, L extends z.ZodType, C extends z.ZodType, U extends z.ZodType>(
  contract: SetupContract<R, L, C, U>,
  services: SetupServices<R, L, C, U>,
  writes: 'setting' | 'decision' = 'setting',
  /** The list is also a /v1 operation (its input's scalars then accept query text: contract/settings/query-list.ts). */
  rest?: RestList,
) {
  // Both builders carry what the answers use (the caller, If-Match, the response); the decision
  // builder adds its steps (and its `decision` mark) at run time.
  const write = writes === 'decision' ? (settingsDecisionProcedure as unknown as typeof settingsWriteProcedure) : settingsWriteProcedure;
  // The services' answers and inputs are typed against the schemas where the family is declared
  // (SetupServices); here the schemas are generic, which tRPC's conditional types cannot follow,
  // so values are handed across that boundary unchecked (`as never`, `as z.output<...>`).
  const revised = (record: z.input<R>) => record as z.input<R> & { revision: number };
  return router({
    list: (rest ? settingsReadProcedure.meta(restListMeta(rest)) : settingsReadProcedure)
      .input(contract.list)
      .output(pageOutput(contract.record))
      .query(async ({ ctx, input }) => (await services.list(svc(ctx), input as z.output<L>)) as never),
    create: write
      .input(contract.create)
      .output(contract.record)
      .mutation(async ({ ctx, input }) => created(ctx, revised(await services.create(svc(ctx), input as z.output<C>))) as never),
    update: write
      .input(contract.update)
      .output(contract.record)
      .mutation(async ({ ctx, input }) => answered(ctx, revised(await services.update(svc(ctx), withRevision(ctx, input as z.output<U> & object)))) as never),
    deactivate: write
      .input(deactivateInput)
      .output(contract.record)
      .mutation(async ({ ctx, input }) => answered(ctx, revised(await services.deactivate(svc(ctx), withRevision(ctx, input)))) as never),
  });
}
