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

/** An answer's JSON text: what `JSON.stringify` answers for its projection (undefined where that is undefined). */
export type Serialize = (value: unknown) => string | undefined;

const serializers = new WeakMap<object, Serialize>();

/**
 * A string as JSON writes it. A short string with nothing to escape (ids, amounts, dates, codes: most
 * of an answer) is quoted as it is; anything else (a quote, a backslash, a control character, half of a
 * surrogate pair) and every long string go through `JSON.stringify`, so the text is always its own.
 */
function quoted(s: string): string {
  if (s.length > 64) return JSON.stringify(s);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 32 || c === 34 || c === 92 || (c >= 0xd800 && c <= 0xdfff)) return JSON.stringify(s);
  }
  return `"${s}"`;
}

/** A value the projection copies as it is, written as `JSON.stringify` writes it (a Date through its toJSON, an object whole). */
function leafText(v: unknown): string | undefined {
  switch (typeof v) {
    case 'string':
      return quoted(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'number':
      return Number.isFinite(v) ? `${v}` : 'null';
    default:
      return v === null ? 'null' : JSON.stringify(v);
  }
}

/** A key JSON.stringify writes before the others (an array index), in ascending order. */
const isIndexKey = (key: string) => /^(0|[1-9]\d*)$/.test(key) && Number(key) < 2 ** 32 - 1;

/**
 * The serializer of `schema`: the projection and `JSON.stringify` in one walk, without building the
 * projected copy. `serializerOf(schema)(v)` is `JSON.stringify(projectionOf(schema)(v))` for every
 * value, and throws where the projection throws: tests/unit/output-answer.test.ts holds the two
 * together, and under the tests (strict mode) every REST answer is also compared with the parse's JSON.
 */
export function serializerOf(schema: z.ZodType): Serialize {
  const known = serializers.get(schema);
  if (known) return known;
  // Set before compiling the children, so that a lazy schema that names itself resolves to this one.
  let inner: Serialize = () => undefined;
  serializers.set(schema, (value) => inner(value));
  inner = compileSerializer(schema);
  serializers.set(schema, inner);
  return inner;
}

function compileSerializer(schema: z.ZodType): Serialize {
  const project = projectionOf(schema);
  if (project === asIs) return leafText;
  // What the projection parses (a transform, a default, a union, a rewriting check) or builds in its
  // own way (a record): written from the projection's own result.
  const viaProjection: Serialize = (value) => JSON.stringify(project(value));
  const def = defOf(schema);
  // A single value the projection rewrites (an id lowercased): leafText writes any value as JSON.stringify does.
  if (AS_IS.has(def.type)) return (value) => leafText(project(value));
  if (parses.has(project)) return viaProjection;
  switch (def.type) {
    case 'object': {
      const entries = Object.entries(def.shape!);
      // In the order JSON.stringify writes the projection's keys: array indexes first, then as declared.
      const ordered = [...entries.filter(([k]) => isIndexKey(k)).sort(([a], [b]) => Number(a) - Number(b)), ...entries.filter(([k]) => !isIndexKey(k))];
      const fields = ordered.map(([key, child]) => ({
        key,
        prefix: `${JSON.stringify(key)}:`,
        text: serializerOf(child),
        always: parses.has(projectionOf(child)),
      }));
      return (value) => {
        if (value === null || typeof value !== 'object' || Array.isArray(value)) return viaProjection(value);
        const source = value as Record<string, unknown>;
        let out = '';
        for (let i = 0; i < fields.length; i++) {
          const f = fields[i]!;
          const v = source[f.key];
          let text: string | undefined;
          if (v !== undefined) text = f.text(v);
          else if (f.always || f.key in source) text = f.text(undefined);
          if (text !== undefined) out += (out === '' ? '{' : ',') + f.prefix + text;
        }
        return out === '' ? '{}' : `${out}}`;
      };
    }
    case 'array': {
      const element = serializerOf(def.element!);
      return (value) => {
        if (!Array.isArray(value)) return viaProjection(value);
        let out = '[';
        for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + (element(value[i]) ?? 'null');
        return `${out}]`;
      };
    }
    case 'nullable': {
      const innerText = serializerOf(def.innerType!);
      return (value) => (value === null ? 'null' : innerText(value));
    }
    case 'optional': {
      const innerText = serializerOf(def.innerType!);
      return (value) => (value === undefined ? undefined : innerText(value));
    }
    case 'readonly':
      return serializerOf(def.innerType!);
    case 'lazy':
      return (value) => serializerOf(def.getter!())(value);
    default:
      return viaProjection;
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

/** The failure tRPC's output validator throws, with the same message and code. */
const outputFailure = (cause: unknown) => new TRPCError({ message: 'Output validation failed', code: 'INTERNAL_SERVER_ERROR', cause });

/**
 * The JSON text of a procedure's answer in `mode`, for a caller that writes the answer itself (the
 * REST adapter): in `fields`, serializerOf (the projection and its JSON in one walk); in `full`, the
 * parse's JSON; in `strict`, the serializer's text, after checking it is the parse's byte for byte. A
 * failure is tRPC's output validator's ("Output validation failed", a 500).
 */
export function answerTextFor(schema: z.ZodType, mode: OutputMode): (value: unknown) => string | undefined {
  const serialize = serializerOf(schema);
  const text =
    mode === 'fields'
      ? serialize
      : mode === 'full'
        ? (value: unknown) => JSON.stringify(schema.parse(value))
        : (value: unknown) => {
            const parsed = JSON.stringify(schema.parse(value));
            const written = serialize(value);
            if (parsed !== written) throw new Error(`the answer's serialization differs from its parse:\nparse:      ${parsed}\nserializer: ${written}`);
            return written;
          };
  return (value) => {
    try {
      return text(value);
    } catch (cause) {
      throw outputFailure(cause);
    }
  };
}

/** The output middleware installOutputAnswers puts in place: what it answers on tRPC's path, and the text a REST answer is written as. */
export interface OutputMiddleware {
  (opts: { next: () => Promise<Result> }): Promise<Result>;
  _type: 'output';
  /** The answer's JSON text for a caller that skips this middleware and writes the answer itself. */
  answerText: (value: unknown) => string | undefined;
}

/**
 * Puts answerFor in place of tRPC's output validator in every procedure of `router` that has an
 * output schema (the validator parses with zod; this middleware answers as the mode says, and fails
 * as tRPC's does: a 500 "Output validation failed" with the cause). Once per router, at start. The
 * middleware also carries the answer's text (answerTextFor), which the REST adapter writes instead
 * of running it.
 */
export function installOutputAnswers(router: { _def: { procedures: Record<string, unknown> } }, mode: OutputMode = outputModeFromEnv()): number {
  let installed = 0;
  for (const procedure of Object.values(router._def.procedures)) {
    const def = (procedure as { _def: ProcedureDef })._def;
    if (!def.output) continue;
    const at = def.middlewares.findIndex((m) => m._type === 'output');
    if (at < 0) continue;
    const answer = answerFor(def.output, mode);
    const middleware = (async ({ next }: { next: () => Promise<Result> }) => {
      const result = await next();
      if (!result.ok) return result;
      try {
        return { ...result, data: answer(result.data) };
      } catch (cause) {
        throw outputFailure(cause);
      }
    }) as OutputMiddleware;
    middleware._type = 'output';
    middleware.answerText = answerTextFor(def.output, mode);
    def.middlewares[at] = middleware as never;
    installed += 1;
  }
  return installed;
}
