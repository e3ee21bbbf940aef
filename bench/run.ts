/**
 * `npm run bench -- <name>` runs bench/<name>.ts (list, idempotency, ...) with the same environment.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const available = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && f !== 'run.ts' && !f.startsWith('seed-') && !f.startsWith('_') && !f.startsWith('floor-'))
  .map((f) => f.replace(/\.ts$/, ''));
const [name, ...rest] = process.argv.slice(2);
if (!name || !existsSync(`${dir}${name}.ts`) || !available.includes(name)) {
  process.stderr.write(`usage: npm run bench -- <${available.join('|')}>\n`);
  process.exit(2);
}
const result = spawnSync(process.execPath, ['--import', 'tsx', `${dir}${name}.ts`, ...rest], { stdio: 'inherit' });
process.exit(result.status ?? 1);
