import { isBlank } from '../../lib/input-text';
/** Maximum title length, counted in Unicode code points (not UTF-16 units). */
export const CLAIM_TITLE_MAX_CODE_POINTS = 200;

/** How many distinct offending characters a refusal names at most. */
const MAX_LISTED = 10;

const LETTER = /^\p{L}$/u;
const MARK = /^\p{M}$/u;
/** Marks without a script of their own: they take the script of the letter they attach to. */
const SCRIPTLESS_MARK = /^[\p{Script=Inherited}\p{Script=Common}]$/u;

/** Scripts whose letters each record language allows. Unknown codes allow nothing extra. */
const SCRIPTS_BY_LANGUAGE: ReadonlyMap<string, readonly RegExp[]> = new Map([
  ['en', [/^\p{Script=Latin}$/u]],
  ['ms', [/^\p{Script=Latin}$/u]],
  ['zh', [/^\p{Script=Han}$/u]],
  ['ta', [/^\p{Script=Tamil}$/u]],
]);

export type ClaimTitleCheck = { ok: true; value: string } | { ok: false; reason: string };

/**
 * Checks a claim title against the organization's record languages.
 *
 * - Leading and trailing whitespace is trimmed, and the trimmed title is what is
 *   checked and returned as `value` (a finance user does not want stray spaces
 *   stored). Nothing else is changed (no Unicode normalization).
 * - Blank titles are refused: nothing left once invisible characters (White_Space,
 *   Default_Ignorable_Code_Point such as U+200B) are removed.
 * - At most 200 code points (after trimming).
 * - Every letter (\p{L}) must be in a script allowed by one of the record
 *   languages: en, ms -> Latin; zh -> Han. A combining mark (\p{M}) attached to a
 *   letter must be allowed too: a mark with its own script is checked like a
 *   letter; a script-less (Inherited/Common) mark follows its letter. Marks not
 *   attached to a letter (e.g. emoji variation selectors, keycaps) and all
 *   non-letters (digits, punctuation, symbols, spaces) are always allowed.
 */
export function checkClaimTitle(title: string, recordLanguages: string[]): ClaimTitleCheck {
  const value = title.trim();
  if (isBlank(value)) return { ok: false, reason: 'title must not be blank' };

  const codePoints = [...value];
  if (codePoints.length > CLAIM_TITLE_MAX_CODE_POINTS) {
    return {
      ok: false,
      reason: `title must be at most ${CLAIM_TITLE_MAX_CODE_POINTS} characters long (it has ${codePoints.length})`,
    };
  }

  const allowed = recordLanguages.flatMap((lang) => SCRIPTS_BY_LANGUAGE.get(lang.trim().toLowerCase()) ?? []);
  const isAllowed = (ch: string): boolean => allowed.some((script) => script.test(ch));

  const offending: string[] = [];
  const note = (shown: string): void => {
    if (!offending.includes(shown)) offending.push(shown);
  };

  // The nearest preceding code point that is not a mark (what a mark attaches to).
  let base: string | undefined;
  for (const ch of codePoints) {
    if (LETTER.test(ch)) {
      if (!isAllowed(ch)) note(ch);
      base = ch;
    } else if (MARK.test(ch)) {
      const attachedToLetter = base !== undefined && LETTER.test(base);
      // A script-less mark on a letter is as good as its letter (already checked).
      if (attachedToLetter && !SCRIPTLESS_MARK.test(ch) && !isAllowed(ch)) {
        note(`\u25CC${ch}`); // shown on a dotted circle, as combining marks conventionally are
      }
    } else {
      base = ch;
    }
  }

  if (offending.length > 0) {
    const languages = recordLanguages.length > 0 ? recordLanguages.join(', ') : 'none';
    const listed = offending.slice(0, MAX_LISTED).join('');
    const more = offending.length > MAX_LISTED ? ` and ${offending.length - MAX_LISTED} more` : '';
    return {
      ok: false,
      reason: `title contains letters outside the organization's record languages (${languages}): "${listed}"${more}`,
    };
  }

  return { ok: true, value };
}
