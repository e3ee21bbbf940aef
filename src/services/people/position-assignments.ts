import { lockSetupScope } from '../../db/queries/keyset';
import * as people from '../../db/queries/people';
import { addDays } from '../../lib/dates';
import { datedPeriod, Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { refreshOpenSignoffs } from '../workflow/approvals/claim-step';
import { openPage } from '../settings/page';
import { changeRecord, conflict, createdRecord, deactivateRecord, isoOrNull, leavesUnchanged, writeChange, type RecordChange, type SetupFamily } from '../settings/setup';

/**
 * settings.positionAssignments: a member holding a position for a dated period (valid_to inclusive,
 * open when null). A member has at most one primary position on any day: a new primary assignment
 * ends the member's open primary one the day before it starts; any other overlap of primary periods,
 * or of two secondary periods on the same position, is 409 `conflict`. The member must be an active member and
 * the position one of this organization that is not retired (422).
 */

const ENTITY = 'positionAssignments';

export function positionAssignmentView(row: people.PositionAssignmentRow) {
  return {
    id: row.id,
    member_id: row.memberId,
    position_id: row.positionId,
    is_primary: row.isPrimary,
    valid_from: row.validFrom,
    valid_to: row.validTo,
    withdrawn_at: isoOrNull(row.withdrawnAt),
    revision: row.revision,
    created_at: row.createdAt.toISOString(),
  };
}
export type PositionAssignmentAnswer = ReturnType<typeof positionAssignmentView>;

const period = (a: { validFrom: string; validTo: string | null }) => `${a.validFrom} to ${a.validTo ?? 'open'}`;

/**
 * Overlaps that no automatic ending resolves: two primary periods (but those `endable` ones, which
 * the caller ends), or two secondary periods on the same position (a duplicate). Answers the
 * primary assignments to end.
 */
async function refuseOverlaps(
  ctx: ServiceContext,
  a: { memberId: string; positionId: string; isPrimary: boolean; from: string; to: string | null; exceptId?: string; endable?: (row: people.PositionAssignmentRow) => boolean },
): Promise<people.PositionAssignmentRow[]> {
  const q = { organizationId: ctx.org.id, memberId: a.memberId, from: a.from, to: a.to, exceptId: a.exceptId };
  if (!a.isPrimary) {
    const [duplicate] = (await people.findOverlappingAssignments(ctx.db, { ...q, positionId: a.positionId })).filter((row) => !row.isPrimary);
    if (duplicate) {
      throw conflict('/valid_from', 'overlaps another assignment of the member to this position', `The member holds this position ${period(duplicate)} already (assignment ${duplicate.id})`);
    }
    return [];
  }
  const primaries = await people.findOverlappingAssignments(ctx.db, { ...q, primary: true });
  const [blocking] = primaries.filter((row) => !a.endable?.(row));
  if (blocking) {
    throw conflict('/valid_from', 'overlaps another primary assignment of the member', `The member's primary assignment ${period(blocking)} (${blocking.id}) overlaps; change its dates first`);
  }
  return primaries;
}

export interface ListPositionAssignmentsInput {
  member_id?: string;
  position_id?: string;
  include_inactive?: boolean;
  limit?: number;
  cursor?: string;
}

/** Assignments by start day; ended and withdrawn ones with `include_inactive`. */
export async function listPositionAssignments(ctx: ServiceContext, input: ListPositionAssignmentsInput) {
  const filters = { include_inactive: input.include_inactive ?? false, member_id: input.member_id, position_id: input.position_id };
  const page = await openPage(ctx, ENTITY, input, filters);
  const rows = await people.listPositionAssignments(ctx.db, {
    organizationId: ctx.org.id,
    today: ctx.today,
    includeEnded: filters.include_inactive,
    memberId: input.member_id,
    positionId: input.position_id,
    after: page.after,
    limit: page.take,
  });
  return page.answer(rows, (a) => ({ value: a.validFrom, id: a.id }), positionAssignmentView);
}

const assignments: SetupFamily<people.PositionAssignmentRow, PositionAssignmentAnswer> = {
  entity: ENTITY,
  what: 'position assignment',
  // One member's periods are checked and changed one request at a time: the member's scope, then the row.
  lock: async (ctx, id) => {
    const q = { organizationId: ctx.org.id, id };
    const found = await people.findPositionAssignment(ctx.db, q);
    if (!found) return undefined;
    await lockSetupScope(ctx.db, ctx.org.id, `assignments:${found.memberId}`);
    return people.lockPositionAssignment(ctx.db, q);
  },
  write: (ctx, current, set) => people.updatePositionAssignmentRow(ctx.db, { organizationId: ctx.org.id, id: current.id, set }),
  view: (_ctx, row) => positionAssignmentView(row),
  // Nothing left to end: withdrawn, or ending today or earlier.
  inactive: (ctx, row) => {
    if (row.withdrawnAt) return 'is already withdrawn';
    return row.validTo !== null && row.validTo <= ctx.today ? `already ends on ${row.validTo}` : undefined;
  },
};

export interface CreatePositionAssignmentInput {
  member_id: string;
  position_id: string;
  valid_from: string;
  valid_to?: string | null;
  is_primary?: boolean;
}

export async function createPositionAssignment(ctx: ServiceContext, input: CreatePositionAssignmentInput): Promise<PositionAssignmentAnswer> {
  const org = ctx.org.id;
  const isPrimary = input.is_primary ?? true;
  const validTo = input.valid_to ?? null;
  const r = new Refusals();
  datedPeriod(r, input.valid_from, validTo);
  const member = await people.findMemberRef(ctx.db, { organizationId: org, id: input.member_id });
  if (r.check(Boolean(member), '/member_id', 'is not a member of this organization')) r.check(member!.active, '/member_id', 'is not an active member');
  const position = await people.findPosition(ctx.db, { organizationId: org, id: input.position_id });
  if (r.check(Boolean(position), '/position_id', 'is not a position of this organization')) {
    r.check(!position!.retiredAt, '/position_id', 'names a retired position, which takes no new assignment');
  }
  r.throwIfAny();

  // One member's periods are checked and changed one request at a time.
  await lockSetupScope(ctx.db, org, `assignments:${input.member_id}`);
  // The member's open primary assignment that began before this one ends the day before it.
  const endable = (row: people.PositionAssignmentRow) => row.isPrimary && row.validTo === null && row.validFrom < input.valid_from;
  const toEnd = await refuseOverlaps(ctx, { memberId: input.member_id, positionId: input.position_id, isPrimary, from: input.valid_from, to: validTo, endable });
  for (const open of toEnd) await writeChange(ctx, assignments, open, { validTo: addDays(input.valid_from, -1) }, 'end');
  const after = await createdRecord(
    ctx,
    assignments,
    await people.insertPositionAssignment(ctx.db, { organizationId: org, memberId: input.member_id, positionId: input.position_id, isPrimary, validFrom: input.valid_from, validTo }),
  );
  // Who holds a position decides who signs as a superior: open sign-offs left with nobody fall back.
  await refreshOpenSignoffs(ctx);
  return after;
}

export interface UpdatePositionAssignmentInput extends RecordChange {
  valid_from?: string;
  valid_to?: string | null;
}

/** Changes the period; overlaps are refused (nothing is ended automatically by an update). */
export async function updatePositionAssignment(ctx: ServiceContext, input: UpdatePositionAssignmentInput): Promise<PositionAssignmentAnswer> {
  const answer = await changeRecord(ctx, assignments, input, async (current) => {
    if (current.withdrawnAt) throw conflict('/id', 'is withdrawn', 'A withdrawn assignment counts for no day and is kept as it was');
    const from = input.valid_from ?? current.validFrom;
    const to = input.valid_to === undefined ? current.validTo : input.valid_to;
    const r = new Refusals();
    datedPeriod(r, from, to);
    r.throwIfAny();
    const set = { validFrom: from, validTo: to };
    if (leavesUnchanged(current, set)) return undefined;
    await refuseOverlaps(ctx, { memberId: current.memberId, positionId: current.positionId, isPrimary: current.isPrimary, from, to, exceptId: current.id });
    return set;
  });
  // Who holds a position decides who signs as a superior: open sign-offs left with nobody fall back.
  await refreshOpenSignoffs(ctx);
  return answer;
}

/**
 * Ends the assignment on the organization's today (the member holds the position through today). One
 * that has not begun yet is withdrawn instead: it then counts for no day. One that ends today or
 * earlier, or is withdrawn, is 409 `conflict` (nothing left to end).
 */
export async function deactivatePositionAssignment(ctx: ServiceContext, input: RecordChange): Promise<PositionAssignmentAnswer> {
  const answer = await deactivateRecord(ctx, assignments, input, (current) => (current.validFrom > ctx.today ? { withdrawnAt: ctx.now } : { validTo: ctx.today }));
  // Who holds a position decides who signs as a superior: open sign-offs left with nobody fall back.
  await refreshOpenSignoffs(ctx);
  return answer;
}
