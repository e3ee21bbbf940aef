import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { appRouter } from '../../src/routers/app';
import { answerFor, answerTextFor, installOutputAnswers, outputModeFromEnv, projectionOf, serializerOf } from '../../src/routers/output-answer';
import { createCallerFactory, publicProcedure, router } from '../../src/routers/trpc';

const line = z.object({ id: z.uuid(), amount: z.string(), note: z.string().nullable() });
const doc = z.object({
  id: z.uuid(),
  state: z.enum(['draft', 'issued']),
  lines: z.array(line),
  project: z.object({ code: z.string(), name: z.string() }).nullable(),
  original_total: z.string().optional(),
  custom_fields: z.record(z.string(), z.unknown()),
  count: z.int(),
});

const ID = '0b0c6f5e-3a1b-4c2d-9e8f-123456789abc';
const answer = {
  internal_flag: true,
  count: 3,
  custom_fields: { cost_centre: 'KL', nested: { kept: 1 } },
  project: { name: 'Alpha', code: 'A1', owner_member_id: ID },
  lines: [
    { amount: '10.00', id: ID, note: null, secret: 'x' },
    { id: ID, amount: '-0.50', note: 'n', tax_internal: 'y' },
  ],
  state: 'issued',
  id: ID,
};

describe('the answer projected onto its output schema', () => {
  it('keeps exactly the fields the schema declares, at every depth, in the schema order, as the parse does', () => {
    const projected = projectionOf(doc)(answer);
    expect(JSON.stringify(projected)).toBe(JSON.stringify(doc.parse(answer)));
    expect(JSON.stringify(projected)).toBe(
      JSON.stringify({
        id: ID,
        state: 'issued',
        lines: [
          { id: ID, amount: '10.00', note: null },
          { id: ID, amount: '-0.50', note: 'n' },
        ],
        project: { code: 'A1', name: 'Alpha' },
        custom_fields: { cost_centre: 'KL', nested: { kept: 1 } },
        count: 3,
      }),
    );
    expect(projectionOf(doc)({ ...answer, project: null, original_total: '5.00' })).toMatchObject({ project: null, original_total: '5.00' });
  });

  it('parses where the schema rewrites a value (a transform, a default, a union); applies a rewriting string check', async () => {
    const rewriting = z.object({
      upper: z.string().toUpperCase(),
      total: z.string().transform((v) => `${v}.00`),
      fallback: z.string().default('none'),
      either: z.union([z.object({ a: z.string() }), z.object({ b: z.string() })]),
    });
    const value = { upper: 'abc', total: '5', either: { b: 'x', extra: 1 }, hidden: 1 };
    expect(projectionOf(rewriting)(value)).toEqual({ upper: 'ABC', total: '5.00', fallback: 'none', either: { b: 'x' } });
    // The service's ids: lowercased by the schema, as the parse does.
    const { uuid } = await import('../../src/contract/fields');
    const withId = z.object({ id: uuid(), ids: z.array(uuid()) });
    const ids = { id: ID.toUpperCase(), ids: [ID.toUpperCase(), ID] };
    expect(projectionOf(withId)(ids)).toEqual({ id: ID, ids: [ID, ID] });
    expect(projectionOf(withId)(ids)).toEqual(withId.parse(ids));
  });

  it('in full and strict mode refuses an answer that does not match the schema; strict answers the parse', () => {
    const wrong = { ...answer, count: 'three' };
    expect(() => answerFor(doc, 'full')(wrong)).toThrow();
    expect(() => answerFor(doc, 'strict')(wrong)).toThrow();
    expect(answerFor(doc, 'strict')(answer)).toEqual(doc.parse(answer));
    // The projection alone leaves values' types to the tests (it only removes fields).
    expect(answerFor(doc, 'fields')(wrong)).toMatchObject({ count: 'three' });
  });

  it('is strict under the tests and follows OUTPUT_VALIDATION elsewhere (fields by default)', () => {
    expect(outputModeFromEnv({ VITEST: 'true' })).toBe('strict');
    expect(outputModeFromEnv({})).toBe('fields');
    expect(outputModeFromEnv({ OUTPUT_VALIDATION: 'full' })).toBe('full');
    expect(outputModeFromEnv({ OUTPUT_VALIDATION: 'nonsense' })).toBe('fields');
    expect(outputModeFromEnv({ VITEST: 'true', OUTPUT_VALIDATION: 'fields' })).toBe('fields');
  });
});

describe('the answer written as JSON in one walk (serializerOf)', () => {
  /** The serializer's text is exactly JSON.stringify of the projection, for every value the cases give. */
  const same = (schema: z.ZodType, value: unknown) => expect(serializerOf(schema)(value)).toBe(JSON.stringify(projectionOf(schema)(value)));

  it('writes what JSON.stringify writes for the projection: fields kept, dropped, ordered, at every depth', () => {
    same(doc, answer);
    same(doc, { ...answer, project: null, original_total: '5.00' });
    same(doc, { ...answer, lines: [] });
    expect(serializerOf(doc)(answer)).toBe(JSON.stringify(doc.parse(answer)));
    expect(JSON.parse(serializerOf(doc)(answer)!)).not.toHaveProperty('internal_flag');
  });

  it('escapes as JSON does: quotes, backslashes, control characters, lone surrogates, long strings; keeps pairs and U+2028', () => {
    const s = z.object({ a: z.string(), b: z.array(z.string()) });
    for (const text of ['plain', 'say "hi"', 'C:\\dir', 'tab\there', 'nl\n', '\u0000\u001f', '\ud800 alone', 'pair \ud83d\ude00', 'sep \u2028', 'x'.repeat(65), `${'y'.repeat(70)}"`, '']) {
      same(s, { a: text, b: [text, text] });
    }
  });

  it('writes numbers, booleans, null, dates, objects and missing values as JSON.stringify does', () => {
    const s = z.object({
      n: z.number(),
      i: z.int().optional(),
      b: z.boolean(),
      u: z.unknown(),
      d: z.date(),
      nn: z.string().nullable(),
      o: z.string().optional(),
      list: z.array(z.unknown()),
      rec: z.record(z.string(), z.number()),
    });
    for (const n of [0, -0, 1.5, -2e-7, 1e21, Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_SAFE_INTEGER]) {
      same(s, { n, b: true, u: { deep: [1, 'x', null] }, d: new Date(0), nn: null, list: [undefined, () => 1, Symbol('s'), 3], rec: { b: 2, 10: 1, a: 3, 2: 4 } });
    }
    same(s, { n: 1, i: 2, b: false, u: undefined, d: new Date('2026-11-27T00:00:00Z'), nn: 'x', o: undefined, list: [], rec: {} });
    same(s, { n: 1, b: false, u: () => 1, d: null, nn: 'x', o: 'here', list: [new Date(5)], rec: {} });
    // A field present but undefined, and one missing: both left out.
    expect(serializerOf(s)({ n: 1, b: true, o: undefined, list: [], rec: {}, d: new Date(0), nn: null })).toBe(
      '{"n":1,"b":true,"d":"1970-01-01T00:00:00.000Z","nn":null,"list":[],"rec":{}}',
    );
  });

  it('orders an object schema whose keys are array indexes as JSON.stringify orders the projection', () => {
    const s = z.object({ b: z.string(), 10: z.string(), a: z.string(), 2: z.string() });
    same(s, { a: 'a', b: 'b', 2: 'two', 10: 'ten' });
    expect(serializerOf(s)({ a: 'a', b: 'b', 2: 'two', 10: 'ten' })).toBe('{"2":"two","10":"ten","b":"b","a":"a"}');
  });

  it('applies what the projection parses or rewrites: ids lowercased, transforms, defaults, unions; recursion', async () => {
    const { uuid } = await import('../../src/contract/fields');
    const rewriting = z.object({
      id: uuid(),
      ids: z.array(uuid()),
      upper: z.string().toUpperCase(),
      total: z.string().transform((v) => `${v}.00`),
      fallback: z.string().default('none'),
      either: z.union([z.object({ a: z.string() }), z.object({ b: z.string() })]),
    });
    const value = { id: ID.toUpperCase(), ids: [ID.toUpperCase()], upper: 'abc', total: '5', either: { b: 'x', extra: 1 }, hidden: 1 };
    same(rewriting, value);
    expect(JSON.parse(serializerOf(rewriting)(value)!)).toEqual({ id: ID, ids: [ID], upper: 'ABC', total: '5.00', fallback: 'none', either: { b: 'x' } });
    type Node = { name: string; children: Node[] };
    const node: z.ZodType<Node> = z.object({ name: z.string(), children: z.array(z.lazy(() => node)) });
    same(node, { name: 'root', extra: 1, children: [{ name: 'leaf', children: [], secret: 2 }] });
  });

  it('throws where the projection throws (a value that is no object where one is declared)', () => {
    expect(() => projectionOf(doc)({ ...answer, lines: 'none' })).toThrow();
    expect(() => serializerOf(doc)({ ...answer, lines: 'none' })).toThrow();
    expect(() => serializerOf(doc)(5)).toThrow();
  });

  it('answerTextFor: fields writes the serializer, full the parse, strict both and refuses a difference; failures are the output validator\'s', () => {
    expect(answerTextFor(doc, 'fields')(answer)).toBe(JSON.stringify(doc.parse(answer)));
    expect(answerTextFor(doc, 'full')(answer)).toBe(JSON.stringify(doc.parse(answer)));
    expect(answerTextFor(doc, 'strict')(answer)).toBe(JSON.stringify(doc.parse(answer)));
    const wrong = { ...answer, count: 'three' };
    expect(answerTextFor(doc, 'fields')(wrong)).toContain('"count":"three"');
    for (const mode of ['full', 'strict'] as const) {
      expect(() => answerTextFor(doc, mode)(wrong)).toThrow(expect.objectContaining({ code: 'INTERNAL_SERVER_ERROR', message: 'Output validation failed' }));
    }
  });
});

describe('installOutputAnswers', () => {
  it("replaces tRPC's output validator in every procedure with an output schema", () => {
    const procedures = Object.values((appRouter as unknown as { _def: { procedures: Record<string, { _def: { output?: unknown; middlewares: { _type?: string; name: string }[] } }> } })._def.procedures);
    const withOutput = procedures.filter((p) => p._def.output);
    expect(withOutput.length).toBeGreaterThan(100);
    for (const p of withOutput) {
      const outputs = p._def.middlewares.filter((m) => m._type === 'output');
      expect(outputs).toHaveLength(1);
      expect(outputs[0]!.name).toBe('middleware');
    }
  });

  for (const mode of ['fields', 'full', 'strict'] as const) {
    it(`an internal field never leaves a procedure (${mode}); a wrong type is a 500 unless only fields are kept`, async () => {
      const r = router({
        leak: publicProcedure.output(z.object({ a: z.string() })).query(() => ({ a: 'x', secret: 'y' }) as { a: string }),
        wrong: publicProcedure.output(z.object({ a: z.string() })).query(() => ({ a: 5 }) as unknown as { a: string }),
      });
      expect(installOutputAnswers(r as never, mode)).toBe(2);
      const caller = createCallerFactory(r)({ log: { error() {} }, requestId: 'r' } as never);
      expect(await caller.leak()).toEqual({ a: 'x' });
      if (mode === 'fields') expect(await caller.wrong()).toEqual({ a: 5 });
      else await expect(caller.wrong()).rejects.toMatchObject({ code: 'INTERNAL_SERVER_ERROR' });
    });
  }
});
