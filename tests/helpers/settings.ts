import { describe, expect, it } from 'vitest';
import { createInProcessClient } from '../../src/client';
import type { Database } from '../../src/db/client';
import type { AppDeps } from '../../src/deps';
import { createTestMember, createTestOrganization, type TestOrganization } from '../factories/organization';
import type { TestApp } from './app';

/**
 * The test helpers of the set-up procedures (settings.*, organization.*, me.*): in-process callers
 * (through the same authentication, permission, transaction and If-Match steps as /trpc callers),
 * the refusal a call ends with, and the refusals every set-up family shares (unknown field and wrong
 * type 400, blank and over-long 422, another organization's record 404, a caller without the
 * permission 403, a stale If-Match 409 `revision_mismatch`, a missing one 428 `revision_required`).
 */

type Call = (input: unknown) => Promise<any>;
type Family = Record<'list' | 'create' | 'update' | 'deactivate', Call | undefined>;

/** A caller typed loosely, so that one table of entities can drive every settings.<entity> family. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type LooseCaller = any;

export interface Refused {
  appCode: string;
  status: number;
  fieldErrors?: { pointer: string; detail: string }[];
  detail?: string;
}

/** The refusal a call ended with (fails the test when it succeeded). */
export async function refusal(call: Promise<unknown>): Promise<Refused> {
  return call.then(
    (value) => {
      throw new Error(`expected a refusal, got ${JSON.stringify(value)}`);
    },
    (e) => e as Refused,
  );
}

/** Expects a refusal with this status and code, naming `pointer` among its field errors when given; answers it. */
export function expectRefused(e: Refused, status: number, code: string, pointer?: string): Refused {
  expect({ status: e.status, code: e.appCode }, `${e.detail ?? ''} ${JSON.stringify(e.fieldErrors ?? [])}`).toEqual({ status, code });
  if (pointer !== undefined) expect((e.fieldErrors ?? []).map((f) => f.pointer)).toContain(pointer);
  return e;
}

/** A loosely typed caller; `ifMatch` a number is sent as the quoted revision, a string as it stands (a malformed If-Match). */
export function callerFor(t: { deps: AppDeps }, token: string, ifMatch?: number | string): LooseCaller {
  return createInProcessClient(t.deps, { token, ifMatch: ifMatch === undefined ? undefined : typeof ifMatch === 'number' ? `"${ifMatch}"` : ifMatch });
}

/** A typed caller; `ifMatch` is the revision, sent quoted. */
export function clientOf(t: TestApp, token: string, ifMatch?: string | number) {
  return createInProcessClient(t.deps, { token, ...(ifMatch === undefined ? {} : { ifMatch: `"${ifMatch}"` }) });
}

/** `settings.orgUnits` → the procedures of that family on a caller. */
export function familyOf(t: TestApp, path: string, token: string, ifMatch?: string | number): Family {
  const node = path.split('.').reduce((o: any, k) => o[k], clientOf(t, token, ifMatch) as any);
  return { list: node.list, create: node.create, update: node.update, deactivate: node.deactivate };
}

export interface FamilySpec {
  /** Procedure path without the verb: `settings.orgUnits`, `me.payoutChannels`. */
  path: string;
  /** A valid create input for the organization (creating what it refers to first). */
  validCreate(db: Database, org: TestOrganization): Promise<Record<string, unknown>>;
  /** A text field of create (and update, when it has one) with its limit. */
  text?: { key: string; max: number };
  /** A field of create given a value of the wrong JSON type. */
  wrongType: { key: string; value: unknown };
  /** A valid change for update, when the family has one. */
  validUpdate?: Record<string, unknown>;
  /** The role of a member of the same organization who lacks the family's write permission. */
  deniedRole?: 'viewer' | 'employee' | 'clerk';
}

function withField(input: Record<string, unknown>, key: string, value: unknown) {
  return { ...input, [key]: value };
}

/** Registers the shared refusal tests of one family. */
export function describeSharedRefusals(t: TestApp, spec: FamilySpec) {
  const deniedRole = spec.deniedRole ?? 'viewer';

  async function world() {
    const org = await createTestOrganization(t.db);
    const other = await createTestOrganization(t.db);
    const denied = await createTestMember(t.db, org.id, { role: deniedRole });
    const noKeyPermissions = await createTestMember(t.db, org.id, { role: 'owner', keyPermissions: [] });
    const input = await spec.validCreate(t.db, org);
    const created = await familyOf(t, spec.path, org.owner.session).create!(input);
    return { org, other, denied, noKeyPermissions, input, created };
  }

  describe(`${spec.path}: the refusals every set-up procedure shares`, () => {
    it('create: unknown field and wrong type 400; blank and over-long 422; missing permission 403', async () => {
      const { org, denied, input } = await world();
      const create = familyOf(t, spec.path, org.owner.session).create!;
      expectRefused(await refusal(create(withField(input, 'colour', 'red'))), 400, 'invalid_request', '/colour');
      expectRefused(await refusal(create(withField(input, spec.wrongType.key, spec.wrongType.value))), 400, 'invalid_request', `/${spec.wrongType.key}`);
      if (spec.text) {
        const p = `/${spec.text.key}`;
        expectRefused(await refusal(create(withField(input, spec.text.key, ''))), 422, 'validation', p);
        expectRefused(await refusal(create(withField(input, spec.text.key, '   '))), 422, 'validation', p);
        expectRefused(await refusal(create(withField(input, spec.text.key, 'x'.repeat(spec.text.max + 1)))), 422, 'validation', p);
        // The limit itself is accepted.
        const atLimit = await spec.validCreate(t.db, org);
        await create(withField(atLimit, spec.text.key, 'x'.repeat(spec.text.max)));
      }
      expectRefused(await refusal(familyOf(t, spec.path, denied.session).create!(input)), 403, 'forbidden');
    });

    it('list: unknown field and wrong type 400; blank and over-long cursor and out-of-range limit 422; missing permission 403', async () => {
      const { org, noKeyPermissions } = await world();
      const list = familyOf(t, spec.path, org.owner.session).list!;
      expectRefused(await refusal(list({ colour: 'red' })), 400, 'invalid_request', '/colour');
      expectRefused(await refusal(list({ limit: '10' })), 400, 'invalid_request', '/limit');
      expectRefused(await refusal(list({ include_inactive: 'true' })), 400, 'invalid_request', '/include_inactive');
      expectRefused(await refusal(list({ cursor: '' })), 422, 'validation', '/cursor');
      expectRefused(await refusal(list({ cursor: 'x'.repeat(1001) })), 422, 'validation', '/cursor');
      expectRefused(await refusal(list({ limit: 101 })), 422, 'validation', '/limit');
      expectRefused(await refusal(list({ cursor: 'not.a-cursor' })), 400, 'invalid_request');
      expectRefused(await refusal(familyOf(t, spec.path, noKeyPermissions.apiKey).list!({})), 403, 'forbidden');
    });

    if (spec.validUpdate) {
      it('update: 400 shapes, 422 blank and over-long, 404 another organization, 403, 409 stale and 428 missing If-Match', async () => {
        const { org, other, denied, created } = await world();
        const update = familyOf(t, spec.path, org.owner.session, created.revision).update!;
        const base = { id: created.id, ...spec.validUpdate };
        expectRefused(await refusal(update({ ...base, colour: 'red' })), 400, 'invalid_request', '/colour');
        expectRefused(await refusal(update({ ...base, id: 'not-a-uuid' })), 400, 'invalid_request', '/id');
        if (spec.text) {
          const p = `/${spec.text.key}`;
          expectRefused(await refusal(update({ ...base, [spec.text.key]: '' })), 422, 'validation', p);
          expectRefused(await refusal(update({ ...base, [spec.text.key]: ' \t ' })), 422, 'validation', p);
          expectRefused(await refusal(update({ ...base, [spec.text.key]: 'y'.repeat(spec.text.max + 1) })), 422, 'validation', p);
        }
        expectRefused(await refusal(familyOf(t, spec.path, other.owner.session, created.revision).update!(base)), 404, 'not_found');
        expectRefused(await refusal(update({ ...base, id: crypto.randomUUID() })), 404, 'not_found');
        expectRefused(await refusal(familyOf(t, spec.path, denied.session, created.revision).update!(base)), 403, 'forbidden');
        expectRefused(await refusal(familyOf(t, spec.path, org.owner.session, created.revision + 1).update!(base)), 409, 'revision_mismatch', '/headers/if-match');
        expectRefused(await refusal(familyOf(t, spec.path, org.owner.session).update!(base)), 428, 'revision_required', '/headers/if-match');
        // Nothing above changed the record: the right revision still applies, once.
        const changed = await update(base);
        expect(changed.revision).toBe(created.revision + 1);
        expectRefused(await refusal(update(base)), 409, 'revision_mismatch');
      });
    }

    it('deactivate: 400 shapes, 404 another organization, 403, 409 stale and 428 missing If-Match', async () => {
      const { org, other, denied, created } = await world();
      const deactivate = familyOf(t, spec.path, org.owner.session, created.revision).deactivate!;
      expectRefused(await refusal(deactivate({ id: created.id, colour: 'red' })), 400, 'invalid_request', '/colour');
      expectRefused(await refusal(deactivate({ id: 42 })), 400, 'invalid_request', '/id');
      expectRefused(await refusal(familyOf(t, spec.path, other.owner.session, created.revision).deactivate!({ id: created.id })), 404, 'not_found');
      expectRefused(await refusal(familyOf(t, spec.path, denied.session, created.revision).deactivate!({ id: created.id })), 403, 'forbidden');
      expectRefused(await refusal(familyOf(t, spec.path, org.owner.session, created.revision + 1).deactivate!({ id: created.id })), 409, 'revision_mismatch');
      expectRefused(await refusal(familyOf(t, spec.path, org.owner.session).deactivate!({ id: created.id })), 428, 'revision_required');
      const done = await deactivate({ id: created.id });
      expect(done.revision).toBe(created.revision + 1);
      // Deactivating twice is a conflict with the record's state, not a silent success.
      expectRefused(await refusal(familyOf(t, spec.path, org.owner.session, done.revision).deactivate!({ id: created.id })), 409, 'conflict');
    });
  });
}

/** Reads every page of a list with `limit`, answering the pages' items in order. */
export async function readAllPages(list: Call, input: Record<string, unknown>, limit: number): Promise<{ pages: number; items: { id: string }[] }> {
  const items: { id: string }[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await list({ ...input, limit, ...(cursor ? { cursor } : {}) });
    expect(page.items.length).toBeLessThanOrEqual(limit);
    items.push(...page.items);
    cursor = page.next_cursor ?? undefined;
    pages++;
  } while (cursor && pages < 100);
  return { pages, items };
}

/** The settings history of one record, oldest first, as organization.settingsHistory.list answers it. */
export async function historyOf(t: TestApp, token: string, entity: string, recordId: string) {
  const page = await clientOf(t, token).organization.settingsHistory.list({ entity, record_id: recordId, limit: 100 });
  return [...page.items].reverse();
}
