import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { appRouter } from '../../src/routers/app';
import { answerFor, installOutputAnswers, outputModeFromEnv, projectionOf } from '../../src/routers/output-answer';
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
    const { uuid } = await import('../../src/routers/schemas');
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
