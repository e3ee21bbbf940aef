import type { ConsoleProblem } from '../api/problem';

/**
 * A problem's field pointers as form field names: `/lines/0/amount` → `lines.0.amount` (the dotted
 * path react-hook-form registers). The REST location prefixes (`/query/`, `/path/`) are dropped: over
 * tRPC the input is one object. A pointer no field of the form shows (a header, an unknown path) is
 * left for the form-level message, so nothing the server said is lost.
 */
export interface PlacedErrors {
  fields: { name: string; message: string }[];
  /** What no field carries: the problem's detail, and the details of pointers with no field. */
  formMessages: string[];
}

export function fieldNameOf(pointer: string): string | undefined {
  if (!pointer.startsWith('/')) return undefined;
  const tokens = pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (tokens[0] === 'headers') return undefined;
  if (tokens[0] === 'query' || tokens[0] === 'path' || tokens[0] === 'body') tokens.shift();
  if (tokens.length === 0 || tokens.some((t) => t === '')) return undefined;
  return tokens.join('.');
}

/**
 * `hasField(name)` says whether the form shows that field (or an ancestor of it: a pointer into
 * `address/city` lands on `address.city`, or on `address` when only the group is a field).
 */
export function placeProblem(problem: ConsoleProblem, hasField: (name: string) => boolean): PlacedErrors {
  const fields: PlacedErrors['fields'] = [];
  const unplaced: string[] = [];
  for (const p of problem.pointers) {
    const name = fieldNameOf(p.pointer);
    const target = name && nearestField(name, hasField);
    if (target) {
      if (!fields.some((f) => f.name === target)) fields.push({ name: target, message: p.detail });
    } else unplaced.push(p.detail);
  }
  const formMessages = fields.length > 0 && unplaced.length === 0 ? [] : [problem.detail, ...unplaced.filter((d) => !problem.detail.includes(d))];
  return { fields, formMessages };
}

function nearestField(name: string, hasField: (name: string) => boolean): string | undefined {
  const parts = name.split('.');
  for (let n = parts.length; n > 0; n--) {
    const candidate = parts.slice(0, n).join('.');
    if (hasField(candidate)) return candidate;
  }
  return undefined;
}
