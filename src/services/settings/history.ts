import { insertSettingsHistory, insertSettingsHistoryRows, listSettingsHistory } from '../../db/queries/settings-history';
import { SYSTEM_CREDENTIAL_ID, type ServiceContext } from '../context';
import { openPage, type PageInput } from './page';

/**
 * The append-only history of reference data and authority (docs/design.md §15). Every set-up service
 * records each change here in the same transaction as the change itself. What is recorded is the
 * record as the API answers it (snake_case), never a secret: keys naming hashes, ciphertexts or
 * passwords are dropped before writing.
 */

const SECRET_KEY = /(password|secret|hash|ciphertext|token)/i;

function scrub(value: Record<string, unknown> | null | undefined): Record<string, unknown> | null {
  if (!value) return null;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (SECRET_KEY.test(k)) continue;
    out[k] = v instanceof Date ? v.toISOString() : v;
  }
  return out;
}

export interface SettingsChange {
  /** The procedure family: accounts, taxCodes, members, roles, profile, payoutChannels, ... */
  entity: string;
  record_id: string;
  action: string;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

function historyRow(ctx: ServiceContext, change: SettingsChange) {
  return {
    organizationId: ctx.org.id,
    entity: change.entity,
    recordId: change.record_id,
    action: change.action,
    // The system acting on no member's behalf (defaults of a new organization) is recorded as nobody.
    actorMemberId: ctx.principal.memberId === SYSTEM_CREDENTIAL_ID ? null : ctx.principal.memberId,
    actorVia: ctx.principal.via,
    changedAt: ctx.now,
    before: scrub(change.before),
    after: scrub(change.after),
  };
}

export async function recordSettingsChange(ctx: ServiceContext, change: SettingsChange): Promise<void> {
  await insertSettingsHistory(ctx.db, historyRow(ctx, change));
}

/** Several changes made by one step (the defaults of a new organization), in one statement. */
export async function recordSettingsChanges(ctx: ServiceContext, changes: SettingsChange[]): Promise<void> {
  await insertSettingsHistoryRows(ctx.db, changes.map((c) => historyRow(ctx, c)));
}

export interface ListSettingsHistoryInput extends PageInput {
  entity?: string;
  record_id?: string;
}

export async function listSettingsHistoryPage(ctx: ServiceContext, input: ListSettingsHistoryInput) {
  const filters = { entity: input.entity, record_id: input.record_id };
  const page = await openPage(ctx, 'settings_history', input, filters);
  const rows = await listSettingsHistory(ctx.db, {
    organizationId: ctx.org.id,
    entity: input.entity,
    recordId: input.record_id,
    beforeSeq: page.after ? Number(page.after.value) : undefined,
    limit: page.take,
  });
  return page.answer(rows, (r) => ({ value: String(r.seq), id: r.id }), (r) => ({
    id: r.id,
    entity: r.entity,
    record_id: r.recordId,
    action: r.action,
    actor_member_id: r.actorMemberId,
    actor_via: r.actorVia,
    changed_at: r.changedAt.toISOString(),
    before: r.before,
    after: r.after,
  }));
}
