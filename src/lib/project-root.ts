import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder holding package.json, `data/` and `drizzle/`, found from this module upwards: the same
 * folder whether the code runs from `src/` (tsx, vitest) or bundled into `dist/` (npm run build),
 * where a path relative to each module's own depth would point elsewhere. Data files and
 * migrations are located through it, never through `import.meta.url` of the file that reads them.
 */
function findProjectRoot(): string {
  const start = dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'data'))) return dir;
    if (dirname(dir) === dir) throw new Error(`No project folder (package.json beside data/) above ${start}`);
  }
}

export const PROJECT_ROOT = findProjectRoot();

/** A path under the project folder, e.g. `projectPath('data', 'currencies.json')`. */
export const projectPath = (...parts: string[]): string => join(PROJECT_ROOT, ...parts);
