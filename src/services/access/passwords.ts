import { hash, verify, type Algorithm, type Options } from '@node-rs/argon2';
import { isBlank } from '../../lib/input-text';
import { randomToken } from '../../lib/crypto';
import type { Refusals } from '../../lib/refusals';

/**
 * People's passwords: argon2id (PHC string) at OWASP's parameters (19 MiB, 2 passes, 1 lane).
 * Nothing here ever logs or returns a password; only the hash is stored.
 */

// argon2id; the package's Algorithm is an ambient const enum, which isolated modules cannot read.
const ARGON2ID = 2 as Algorithm;
const OPTIONS: Options = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

/** The rules a new password must meet (422 at the pointer): 12 to 256 characters, not blank. */
export function checkPassword(r: Refusals, password: string, pointer = '/password'): boolean {
  const length = [...password].length;
  if (!r.check(!isBlank(password), pointer, 'must not be blank')) return false;
  if (!r.check(length >= PASSWORD_MIN_LENGTH, pointer, `must be at least ${PASSWORD_MIN_LENGTH} characters`)) return false;
  return r.check(length <= PASSWORD_MAX_LENGTH, pointer, `must be at most ${PASSWORD_MAX_LENGTH} characters`);
}

/**
 * Passwords are hashed and verified in Unicode NFC (as every input reaches the API, trpc.ts), so a
 * password set through the CLI and typed at the API is one password whatever its composition.
 */
export function hashPassword(password: string): Promise<string> {
  return hash(password.normalize('NFC'), OPTIONS);
}

let dummy: Promise<string> | undefined;

/**
 * A hash of a random password, computed once per process with the same parameters: verified when
 * the e-mail is unknown, so a wrong e-mail takes as long as a wrong password.
 */
function dummyHash(): Promise<string> {
  dummy ??= hashPassword(randomToken(24));
  return dummy;
}

/**
 * Whether the password matches the stored hash. Without a stored hash (unknown e-mail, no password
 * set) a dummy hash is verified all the same and the answer is false.
 */
export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  const target = stored ?? (await dummyHash());
  let ok = false;
  try {
    ok = await verify(target, password.normalize('NFC'));
  } catch {
    ok = false;
  }
  return Boolean(stored) && ok;
}
