import { lockSetupScope } from '../../db/queries/keyset';
import * as people from '../../db/queries/people';
import { addDays } from '../../lib/dates';
import { datedPeriod, Refusals } from '../../lib/refusals';
import type { ServiceContext } from '../context';
import { checkRevision } from '../revision';
import { recordSettingsChange } from '../settings/history';
import { refreshOpenSignoffs } from '../workflow/approvals/claim-step';
import { decodePage, pageOf } from '../settings/page';
import { conflict, isoOrNull, notFound, pageLimit, written } from '../settings/records';

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
  const after = await decodePage(ctx, ENTITY, input, filters);
  const limit = pageLimit(input);
  const rows = await people.listPositionAssignments(ctx.db, {
    organizationId: ctx.org.id,
    today: ctx.today,
    includeEnded: filters.include_inactive,
    memberId: input.member_id,
    positionId: input.position_id,
    after,
    limit: limit + 1,
  });
  return pageOf(ctx, ENTITY, filters, rows, limit, (a) => ({ value: a.validFrom, id: a.id }), positionAssignmentView);
}

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
  for (const open of toEnd) {
    const ended = written(await people.updatePositionAssignmentRow(ctx.db, { organizationId: org, id: open.id, set: { validTo: addDays(input.valid_from, -1) } }));
    await recordSettingsChange(ctx, { entity: ENTITY, record_id: open.id, action: 'end', before: positionAssignmentView(open), after: positionAssignmentView(ended) });
  }
  const row = written(
    await people.insertPositionAssignment(ctx.db, {
      organizationId: org,
      memberId: input.member_id,
      positionId: input.position_id,
      isPrimary,
      validFrom: input.valid_from,
      validTo,
    }),
  );
  const after = positionAssignmentView(row);
  await recordSettingsChange(ctx, { entity: ENTITY, record_id: row.id, action: 'create', after });
  // Who holds a position decides who signs as a superior: open sign-offs left with nobody fall back.
  await refreshOpenSignoffs(ctx);
  return after;
}

export interface UpdatePositionAssignmentInput {
  id: string;
  expected_revision: number;
  valid_from?: string;
  valid_to?: string | null;
}

/** Changes the period; overlaps are refused (nothing is ended automatically by an update). */
export async function updatePositionAssignment(ctx: ServiceContext, input: UpdatePositionAssignmentInput): Promise<PositionAssignmentAnswer> {
  const q = { organizationId: ctx.org.id, id: input.id };
  const found = await people.findPositionAssignment(ctx.db, q);
  if (!found) throw notFound('position assignment');
  await lockSetupScope(ctx.db, ctx.org.id, `assignments:${found.memberId}`);
  const current = written(await people.lockPositionAssignment(ctx.db, q));
  checkRevision(current.revision, input.expected_revision);
  if (current.withdrawnAt) throw conflict('/id', 'is withdrawn', 'A withdrawn assignment counts for no day and is kept as it was');
  const from = input.valid_from ?? current.validFrom;
  const to = input.valid_to === undefined ? current.validTo : input.valid_to;
  const r = new Refusals();
  datedPeriod(r, from, to);
  r.throwIfAny();
  await refuseOverlaps(ctx, { memberId: current.memberId, positionId: current.positionId, isPrimary: current.isPrimary, from, to, exceptId: current.id });
  const row = written(await people.updatePositionAssignmentRow(ctx.db, { ...q, set: { validFrom: from, validTo: to } }));
  const before = positionAssignmentView(current);
  const after = positionAssignmentView(row);
  await recordSettingsChange(ctx, { entity: ENTITY, record_id: row.id, action: 'update', before, after });
  // Who holds a position decides who signs as a superior: open sign-offs left with nobody fall back.
  await refreshOpenSignoffs(ctx);
  return after;
}

/**
 * Ends the assignment on the organization's today (the member holds the position through today). One
 * that has not begun yet is withdrawn instead: it then counts for no day. One that ends today or
 * earlier, or is withdrawn, is 409 `conflict` (nothing left to end).
 */
export async function deactivatePositionAssignment(ctx: ServiceContext, input: { id: string; expected_revision: number }): Promise<PositionAssignmentAnswer> {
  const q = { organizationId: ctx.org.id, id: input.id };
  const found = await people.findPositionAssignment(ctx.db, q);
  if (!found) throw notFound('position assignment');
  await lockSetupScope(ctx.db, ctx.org.id, `assignments:${found.memberId}`);
  const current = written(await people.lockPositionAssignment(ctx.db, q));
  checkRevision(current.revision, input.expected_revision);
  if (current.withdrawnAt) throw conflict('/id', 'is already withdrawn', 'The assignment is already withdrawn');
  if (current.validTo !== null && current.validTo <= ctx.today) {
    throw conflict('/id', `already ends on ${current.validTo}`, `The assignment already ends on ${current.validTo}, not after today`);
  }
  const set = current.validFrom > ctx.today ? { withdrawnAt: ctx.now } : { validTo: ctx.today };
  const row = written(await people.updatePositionAssignmentRow(ctx.db, { ...q, set }));
  const before = positionAssignmentView(current);
  const after = positionAssignmentView(row);
  await recordSettingsChange(ctx, { entity: ENTITY, record_id: row.id, action: 'deactivate', before, after });
  // Who holds a position decides who signs as a superior: open sign-offs left with nobody fall back.
  await refreshOpenSignoffs(ctx);
  return after;
}
