/**
 * What becomes of a procedure's answer on its way out (STYLE: every procedure has `.output()`, so
 * nothing internal leaks). Three modes:
 *
 * - `fields` (the default): the answer is projected onto its output schema: exactly the fields the
 *   schema declares, in the schema's order, at every depth. Nothing the schema does not name can
 *   leave, as with a parse, at a fraction of its cost: the parse re-checks every value's type and
 *   format (a uuid, a decimal, a timestamp: a regular expression each), which for a 5-line invoice
 *   or a page of 25 documents cost a fifth of the request (issue 13).
 * - `full`: zod parses the answer, as tRPC's output validator does (OUTPUT_VALIDATION=full).
 * - `strict` (under the tests): both, and the request fails with a 500 unless the projection
 *   answers exactly what the parse answers (same JSON, byte for byte). Every answer a test reads
 *   is therefore checked twice: its values against the schema, and the projection against the parse.
 *
 * A string check that rewrites the value (an id lowercased) is applied as the parse applies it.
 * Where the schema otherwise transforms a value (a transform, a pipe, a default, a union whose branch
 * decides what is kept), that part of the answer is parsed in every mode.
 */
import { TRPCError } from '@trpc/server';
import type { z } from 'zod';

export type OutputMode = 'fields' | 'full' | 'strict';

type Project = (value: unknown) => unknown;

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  element?: z.ZodType;
  innerType?: z.ZodType;
  valueType?: z.ZodType;
  getter?: () => z.ZodType;
  checks?: { _zod: { def: { check: string; tx?: (value: unknown) => unknown } } }[];
}

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Types whose value the parse answers as it is (when no check rewrites it). */
const AS_IS = new Set(['string', 'number', 'int', 'boolean', 'bigint', 'date', 'enum', 'literal', 'null', 'undefined', 'unknown', 'any', 'nan', 'template_literal', 'symbol']);

const compiled = new WeakMap<object, Project>();
/** The projection of a value the parse answers as it is: an object's field of this kind is copied without a call. */
const asIs: Project = (value) => value;
/** Projections that are the schema's own parse: they run for a missing field too (a default fills it). */
const parses = new WeakSet<Project>();

/** The projection of `schema`: a function from an answer to the answer its parse would give when the answer is valid. */
export function projectionOf(schema: z.ZodType): Project {
  const known = compiled.get(schema);
  if (known) return known;
  // Set before compiling the children, so that a lazy schema that names itself resolves to this one.
  let inner: Project = () => undefined;
  const project: Project = (value) => inner(value);
  compiled.set(schema, project);
  inner = compile(schema);
  compiled.set(schema, inner);
  return inner;
}

function compile(schema: z.ZodType): Project {
  const def = defOf(schema);
  const parse: Project = (value) => schema.parse(value);
  parses.add(parse);
  const rewrites = (def.checks ?? []).filter((c) => c._zod.def.check === 'overwrite').map((c) => c._zod.def.tx);
  if (AS_IS.has(def.type)) {
    if (rewrites.length === 0) return asIs;
    // A value the parse rewrites (an id lowercased): the same rewrites in the same order (the
    // other checks only refuse).
    if (rewrites.every((tx) => typeof tx === 'function')) return (value) => rewrites.reduce((v, tx) => tx!(v), value);
    return parse;
  }
  if (rewrites.length) return parse;
  switch (def.type) {
    case 'object': {
      if (def.catchall && defOf(def.catchall).type !== 'never') return parse;
      const fields = Object.entries(def.shape!).map(([key, child]) => {
        const project = projectionOf(child);
        return { key, project, plain: project === asIs, always: parses.has(project) };
      });
      return (value) => {
        if (value === null || typeof value !== 'object' || Array.isArray(value)) return parse(value);
        const source = value as Record<string, unknown>;
        const out: Record<string, unknown> = {};
        for (let i = 0; i < fields.length; i++) {
          const { key, project, plain, always } = fields[i]!;
          const v = source[key];
          if (v !== undefined) out[key] = plain ? v : project(v);
          else if (always || key in source) out[key] = project(undefined);
        }
        return out;
      };
    }
    case 'array': {
      const element = projectionOf(def.element!);
      return (value) => (Array.isArray(value) ? value.map((v) => element(v)) : parse(value));
    }
    case 'nullable': {
      const innerProject = projectionOf(def.innerType!);
      return (value) => (value === null ? null : innerProject(value));
    }
    case 'optional': {
      const innerProject = projectionOf(def.innerType!);
      return (value) => (value === undefined ? undefined : innerProject(value));
    }
    case 'readonly':
      return projectionOf(def.innerType!);
    case 'record': {
      const valueProject = projectionOf(def.valueType!);
      return (value) => {
        if (value === null || typeof value !== 'object' || Array.isArray(value)) return parse(value);
        const out: Record<string, unknown> = {};
        for (const [key, v] of Object.entries(value)) out[key] = valueProject(v);
        return out;
      };
    }
    case 'lazy':
      return (value) => projectionOf(def.getter!())(value);
    default:
      // transform, pipe, default, catch, union, intersection, tuple, ...: the parse decides.
      return parse;
  }
}

/** The mode of this process: `strict` under the tests, else OUTPUT_VALIDATION (`fields` unless `full`). */
export function outputModeFromEnv(env: NodeJS.ProcessEnv = process.env): OutputMode {
  if (env.OUTPUT_VALIDATION === 'full' || env.OUTPUT_VALIDATION === 'strict' || env.OUTPUT_VALIDATION === 'fields') return env.OUTPUT_VALIDATION;
  return env.VITEST ? 'strict' : 'fields';
}

/** The answer of a procedure whose output schema is `schema`, in `mode`. */
export function answerFor(schema: z.ZodType, mode: OutputMode): (value: unknown) => unknown {
  const project = projectionOf(schema);
  if (mode === 'fields') return project;
  if (mode === 'full') return (value) => schema.parse(value);
  return (value) => {
    const parsed = schema.parse(value);
    const projected = project(value);
    const a = JSON.stringify(parsed);
    const b = JSON.stringify(projected);
    if (a !== b) throw new Error(`the answer's projection differs from its parse:\nparse:      ${a}\nprojection: ${b}`);
    return parsed;
  };
}

interface ProcedureDef {
  output?: z.ZodType;
  middlewares: ({ _type?: string } & ((opts: never) => Promise<unknown>))[];
}

type Result = { ok: true; data: unknown } | { ok: false };

/**
 * Puts answerFor in place of tRPC's output validator in every procedure of `router` that has an
 * output schema (the validator parses with zod; this middleware answers as the mode says, and fails
 * as tRPC's does: a 500 "Output validation failed" with the cause). Once per router, at start.
 */
export function installOutputAnswers(router: { _def: { procedures: Record<string, unknown> } }, mode: OutputMode = outputModeFromEnv()): number {
  let installed = 0;
  for (const procedure of Object.values(router._def.procedures)) {
    const def = (procedure as { _def: ProcedureDef })._def;
    if (!def.output) continue;
    const at = def.middlewares.findIndex((m) => m._type === 'output');
    if (at < 0) continue;
    const answer = answerFor(def.output, mode);
    const middleware = async ({ next }: { next: () => Promise<Result> }) => {
      const result = await next();
      if (!result.ok) return result;
      try {
        return { ...result, data: answer(result.data) };
      } catch (cause) {
        throw new TRPCError({ message: 'Output validation failed', code: 'INTERNAL_SERVER_ERROR', cause });
      }
    };
    middleware._type = 'output';
    def.middlewares[at] = middleware as never;
    installed += 1;
  }
  return installed;
}
