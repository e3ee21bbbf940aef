import { beforeAll, describe, expect, it } from 'vitest';
import { createTestCustomer } from '../factories/customer';
import { createTestMember, createTestOrganization, type TestMember, type TestOrganization } from '../factories/organization';
import { useTestApp } from '../helpers/app';
import { callerFor, expectRefused, type LooseCaller, refusal } from '../helpers/settings';

/**
 * settings.<entity>.list|create|update|deactivate for the receivables side of reference data, driven
 * from one table: every procedure's refusals (unknown field and wrong type 400, blank and over-long
 * 422, another organization's record 404, a member without organization.settings.manage 403, stale
 * If-Match 409, missing If-Match 428), the answers' revisions, paging without duplicates, include_inactive,
 * and the settings history. Each entity's own rules are in settings-receivables-rules.test.ts.
 */

const t = useTestApp();

interface World {
  org: TestOrganization;
  clerk: TestMember;
  employee: TestMember;
  /** Prerequisites the entity's inputs name (a customer, an axis, another organization of the group...). */
  env: Record<string, string>;
}

interface EntitySpec {
  name: string;
  setup?(org: TestOrganization): Promise<Record<string, string>>;
  /** A valid create input; `n` makes it distinct from every other. */
  create(env: Record<string, string>, n: number): Record<string, unknown>;
  /** A valid change of the record. */
  update(env: Record<string, string>, record: Record<string, unknown>): Record<string, unknown>;
  /** Fields merged into a create input that are of the wrong JSON type, and the pointer named. */
  wrongType: [Record<string, unknown>, string];
  /** Blank and over-long text (none for the counterparty map, which has no text). */
  blank?: [Record<string, unknown>, string];
  tooLong?: [Record<string, unknown>, string];
  /** Whether `list` takes include_inactive (every entity here can be deactivated). */
}

let n = 0;
const next = () => ++n;
/** The families whose list is also a /v1 operation. */
const REST_LISTS = ['accounts', 'taxCodes'];

const SPECS: EntitySpec[] = [
  {
    name: 'accounts',
    create: (_env, i) => ({ code: `T${i}`, name: `Account ${i}`, type: 'revenue' }),
    update: () => ({ name: 'Renamed account', type: 'expense' }),
    wrongType: [{ code: 4000 }, '/code'],
    blank: [{ code: '   ' }, '/code'],
    tooLong: [{ code: 'C'.repeat(51) }, '/code'],
  },
  {
    name: 'taxCodes',
    create: (_env, i) => ({ code: `TX-${i}`, name: `Tax ${i}`, rate: '8', tax_type: '02' }),
    update: () => ({ name: 'Renamed tax', rate: '6' }),
    wrongType: [{ rate: 8 }, '/rate'],
    blank: [{ name: '' }, '/name'],
    tooLong: [{ name: 'n'.repeat(201) }, '/name'],
  },
  {
    name: 'analyticAxes',
    create: (_env, i) => ({ code: `AX-${i}`, name: `Axis ${i}` }),
    update: () => ({ name: 'Renamed axis', code: `AX-R-${next()}` }),
    wrongType: [{ is_project_axis: 'true' }, '/is_project_axis'],
    blank: [{ name: ' \t ' }, '/name'],
    tooLong: [{ code: 'x'.repeat(51) }, '/code'],
  },
  {
    name: 'analyticAccounts',
    async setup(org) {
      const axis = await callerFor(t, org.owner.session).settings.analyticAxes.create({ code: `DEPT-${next()}`, name: 'Departments' });
      return { axisId: axis.id };
    },
    create: (env, i) => ({ axis_id: env.axisId, code: `D-${i}`, name: `Department ${i}` }),
    update: () => ({ name: 'Renamed department' }),
    wrongType: [{ axis_id: 'dept-1' }, '/axis_id'],
    blank: [{ code: ' ' }, '/code'],
    tooLong: [{ name: 'd'.repeat(201) }, '/name'],
  },
  {
    name: 'customFields',
    create: (_env, i) => ({ record_type: 'customer', key: `field_${i}`, label: `Field ${i}`, type: 'select', options: ['A', 'B'] }),
    update: () => ({ label: 'Renamed field', options: ['A', 'B', 'C'], required: true }),
    wrongType: [{ options: 'A,B' }, '/options'],
    blank: [{ label: '  ' }, '/label'],
    tooLong: [{ label: 'l'.repeat(201) }, '/label'],
  },
  {
    name: 'tradeLines',
    async setup(org) {
      const customer = await createTestCustomer(t.db, org.id);
      return { customerId: customer.id };
    },
    create: (env, i) => ({ customer_id: env.customerId, kind: 'delivery', reference: `DO-${i}`, description: 'Steel brackets', quantity: '10', unit_code: 'C62' }),
    update: () => ({ quantity: '12.5', description: 'Steel brackets (amended)' }),
    wrongType: [{ quantity: 10 }, '/quantity'],
    blank: [{ reference: '  ' }, '/reference'],
    tooLong: [{ description: 'd'.repeat(501) }, '/description'],
  },
  {
    name: 'companyGroups',
    async setup() {
      const sibling = await createTestOrganization(t.db);
      return { siblingId: sibling.id };
    },
    create: (env, i) => ({ name: `Group ${i}`, member_organization_ids: [env.siblingId] }),
    update: () => ({ name: 'Renamed group' }),
    wrongType: [{ member_organization_ids: 'all' }, '/member_organization_ids'],
    blank: [{ name: '' }, '/name'],
    tooLong: [{ name: 'g'.repeat(201) }, '/name'],
  },
  {
    name: 'counterpartyMappings',
    async setup(org) {
      const sibling = await createTestOrganization(t.db);
      const group = await callerFor(t, org.owner.session).settings.companyGroups.create({ name: `Group ${next()}`, member_organization_ids: [sibling.id] });
      await callerFor(t, sibling.owner.session, group.revision).settings.companyGroups.accept({ id: group.id });
      const customer = await createTestCustomer(t.db, org.id);
      return { siblingId: sibling.id, customerId: customer.id };
    },
    // One customer, one year per mapping: periods never overlap.
    create: (env, i) => ({ customer_id: env.customerId, company_organization_id: env.siblingId, valid_from: `${2000 + i}-01-01`, valid_to: `${2000 + i}-12-31` }),
    update: (_env, record) => ({ valid_to: `${String(record.valid_from).slice(0, 4)}-06-30` }),
    wrongType: [{ valid_from: '2024-13-01' }, '/valid_from'],
  },
];

describe.each(SPECS)('settings.$name', (spec) => {
  const w = {} as World;
  const other = {} as World;
  const proc = (c: LooseCaller) => c.settings[spec.name];
  const owner = (ifMatch?: number | string) => proc(callerFor(t, w.org.owner.session, ifMatch));
  const create = async () => owner().create(spec.create(w.env, next()));

  beforeAll(async () => {
    for (const world of [w, other]) {
      world.org = await createTestOrganization(t.db);
      world.clerk = await createTestMember(t.db, world.org.id, { role: 'clerk' });
      world.employee = await createTestMember(t.db, world.org.id, { role: 'employee' });
      world.env = spec.setup ? await spec.setup(world.org) : {};
    }
  });

  describe('create', () => {
    it('answers the record at revision 1, active', async () => {
      const input = spec.create(w.env, next());
      const record = await owner().create(input);
      expect(record).toMatchObject({ id: expect.any(String), revision: 1, active: true });
      const { options: _o, member_organization_ids: _m, ...plain } = input as Record<string, unknown>;
      expect(record).toMatchObject(plain);
    });

    it('refuses an unknown field and a field of the wrong type (400 naming it)', async () => {
      expectRefused(await refusal(owner().create({ ...spec.create(w.env, next()), colour: 'red' })), 400, 'invalid_request', '/colour');
      const [wrong, pointer] = spec.wrongType;
      expectRefused(await refusal(owner().create({ ...spec.create(w.env, next()), ...wrong })), 400, 'invalid_request', pointer);
    });

    it.skipIf(!spec.blank)('refuses blank and over-long text (422 naming the field)', async () => {
      expectRefused(await refusal(owner().create({ ...spec.create(w.env, next()), ...spec.blank![0] })), 422, 'validation', spec.blank![1]);
      expectRefused(await refusal(owner().create({ ...spec.create(w.env, next()), ...spec.tooLong![0] })), 422, 'validation', spec.tooLong![1]);
    });

    it('needs organization.settings.manage: a clerk and an employee are refused 403', async () => {
      for (const member of [w.clerk, w.employee]) {
        expectRefused(await refusal(proc(callerFor(t, member.session)).create(spec.create(w.env, next()))), 403, 'forbidden');
      }
    });
  });

  describe('update', () => {
    it('changes the record with If-Match and answers the next revision', async () => {
      const record = await create();
      const change = spec.update(w.env, record);
      const updated = await owner(1).update({ id: record.id, ...change });
      expect(updated).toMatchObject({ ...change, id: record.id, revision: 2 });
    });

    it('refuses a stale If-Match (409 revision_mismatch) and a missing one (428 revision_required)', async () => {
      const record = await create();
      await owner(1).update({ id: record.id, ...spec.update(w.env, record) });
      expectRefused(await refusal(owner(1).update({ id: record.id, ...spec.update(w.env, record) })), 409, 'revision_mismatch', '/headers/if-match');
      expectRefused(await refusal(owner().update({ id: record.id, ...spec.update(w.env, record) })), 428, 'revision_required');
    });

    it("answers another organization's record as absent (404)", async () => {
      const record = await create();
      const foreign = proc(callerFor(t, other.org.owner.session, 1));
      expectRefused(await refusal(foreign.update({ id: record.id, ...spec.update(other.env, record) })), 404, 'not_found');
    });

    it('refuses an unknown field and a wrong type (400), blank and over-long text (422), and a member without the permission (403)', async () => {
      const record = await create();
      expectRefused(await refusal(owner(1).update({ id: record.id, colour: 'red' })), 400, 'invalid_request', '/colour');
      expectRefused(await refusal(owner(1).update({ colour: 'red' })), 400, 'invalid_request', '/id');
      expectRefused(await refusal(owner(1).update({ id: record.id, ...spec.wrongType[0] })), 400, 'invalid_request', spec.wrongType[1]);
      if (spec.blank) {
        expectRefused(await refusal(owner(1).update({ id: record.id, ...spec.blank[0] })), 422, 'validation', spec.blank[1]);
        expectRefused(await refusal(owner(1).update({ id: record.id, ...spec.tooLong![0] })), 422, 'validation', spec.tooLong![1]);
      }
      expectRefused(await refusal(proc(callerFor(t, w.clerk.session, 1)).update({ id: record.id, ...spec.update(w.env, record) })), 403, 'forbidden');
      // Nothing of the refused calls was written.
      const [found] = (await owner().list({ include_inactive: true, limit: 100 })).items.filter((r: { id: string }) => r.id === record.id);
      expect(found.revision).toBe(1);
    });
  });

  describe('deactivate', () => {
    it('deactivates with If-Match; lists leave it out unless include_inactive', async () => {
      const record = await create();
      const gone = await owner(1).deactivate({ id: record.id });
      expect(gone).toMatchObject({ id: record.id, active: false, revision: 2 });
      const ids = async (input: Record<string, unknown>) => {
        const all: string[] = [];
        let cursor: string | undefined;
        do {
          const page = await owner().list({ ...input, limit: 100, ...(cursor ? { cursor } : {}) });
          all.push(...page.items.map((r: { id: string }) => r.id));
          cursor = page.next_cursor ?? undefined;
        } while (cursor);
        return all;
      };
      expect(await ids({})).not.toContain(record.id);
      expect(await ids({ include_inactive: true })).toContain(record.id);
    });

    it('refuses a stale or missing If-Match, another organization (404), a clerk (403), an unknown field (400)', async () => {
      const record = await create();
      expectRefused(await refusal(owner(2).deactivate({ id: record.id })), 409, 'revision_mismatch');
      expectRefused(await refusal(owner().deactivate({ id: record.id })), 428, 'revision_required');
      expectRefused(await refusal(proc(callerFor(t, other.org.owner.session, 1)).deactivate({ id: record.id })), 404, 'not_found');
      expectRefused(await refusal(proc(callerFor(t, w.clerk.session, 1)).deactivate({ id: record.id })), 403, 'forbidden');
      expectRefused(await refusal(owner(1).deactivate({ id: record.id, reason: 'x' })), 400, 'invalid_request', '/reason');
      expectRefused(await refusal(owner(1).deactivate({ id: 'not-a-uuid' })), 400, 'invalid_request', '/id');
    });
  });

  it('keeps every change in the settings history (who, action, before and after)', async () => {
    const record = await create();
    const change = spec.update(w.env, record);
    await owner(1).update({ id: record.id, ...change });
    await owner(2).deactivate({ id: record.id });
    const history = await callerFor(t, w.clerk.session).organization.settingsHistory.list({ entity: spec.name, record_id: record.id });
    expect(history.items.map((h: { action: string }) => h.action)).toEqual(['deactivate', 'update', 'create']);
    const [deactivated, updated, created] = history.items;
    expect(created).toMatchObject({ before: null, after: { id: record.id, revision: 1 }, actor_member_id: w.org.owner.id, actor_via: 'session' });
    expect(updated).toMatchObject({ before: { revision: 1 }, after: { ...change, revision: 2 } });
    expect(deactivated).toMatchObject({ before: { active: true, revision: 2 }, after: { active: false, revision: 3 } });
  });

  describe('list', () => {
    it('pages without duplicates: the pages put together are the one long page', async () => {
      for (let i = 0; i < 5; i++) await create();
      const whole = await owner().list({ limit: 100 });
      expect(whole.next_cursor).toBeNull();
      expect(whole.items.length).toBeGreaterThanOrEqual(5);
      const paged: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await owner().list({ limit: 2, ...(cursor ? { cursor } : {}) });
        expect(page.items.length).toBeLessThanOrEqual(2);
        paged.push(...page.items.map((r: { id: string }) => r.id));
        cursor = page.next_cursor ?? undefined;
        pages++;
      } while (cursor && pages < 100);
      expect(new Set(paged).size).toBe(paged.length);
      expect(paged).toEqual(whole.items.map((r: { id: string }) => r.id));
    });

    it("shows only the caller's organization", async () => {
      const mine = await create();
      const theirs = await proc(callerFor(t, other.org.owner.session)).list({ include_inactive: true, limit: 100 });
      expect(theirs.items.map((r: { id: string }) => r.id)).not.toContain(mine.id);
    });

    it('needs organization.settings.read (a key without it: 403); every role may read; refuses unknown fields and foreign cursors', async () => {
      const keyOnly = await createTestMember(t.db, w.org.id, { role: 'clerk', keyPermissions: ['receivables.invoice.read'] });
      expectRefused(await refusal(proc(callerFor(t, keyOnly.apiKey)).list({})), 403, 'forbidden');
      expect((await proc(callerFor(t, w.employee.session)).list({})).items).toBeInstanceOf(Array);
      if (REST_LISTS.includes(spec.name)) {
        // Also a /v1 list (GET /v1/settings/...): its scalars are those of the other /v1 lists, which
        // take query text ("true", "25") and refuse a page size out of range as malformed (400), and
        // its input is the query, on tRPC too (pointers /query/<name>).
        expectRefused(await refusal(owner().list({ colour: 'red' })), 400, 'invalid_request', '/query/colour');
        expect((await owner().list({ include_inactive: 'false' })).items).toBeInstanceOf(Array);
        expectRefused(await refusal(owner().list({ include_inactive: 'no' })), 400, 'invalid_request', '/query/include_inactive');
        expectRefused(await refusal(owner().list({ limit: 0 })), 400, 'invalid_request', '/query/limit');
      } else {
        expectRefused(await refusal(owner().list({ colour: 'red' })), 400, 'invalid_request', '/colour');
        expectRefused(await refusal(owner().list({ include_inactive: 'false' })), 400, 'invalid_request', '/include_inactive');
        expectRefused(await refusal(owner().list({ limit: 0 })), 422, 'validation', '/limit');
      }
      for (let i = 0; i < 2; i++) await create();
      const first = await owner().list({ limit: 1 });
      expect(first.next_cursor).toEqual(expect.any(String));
      expectRefused(await refusal(owner().list({ limit: 1, include_inactive: true, cursor: first.next_cursor })), 422, 'validation', '/query/cursor');
      expectRefused(await refusal(callerFor(t, w.org.owner.session).organization.settingsHistory.list({ cursor: first.next_cursor })), 422, 'validation', '/query/cursor');
    });
  });
});
