import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, loadConfig } from '../../src/config';

/**
 * What an operator reads before running the service tells the truth: `.env.example` lists every
 * variable with its default, `engines` and `.nvmrc` name the Node versions the installed packages
 * accept and the one CI runs, and the image and compose file are the ones the README describes.
 */

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string }; scripts: Record<string, string> };

/** Installed packages whose own `engines.node` the project's range does not entirely satisfy. */
function packagesAskingMore(range: string): string[] {
  const out = new Set<string>();
  const visit = (dir: string) => {
    for (const name of existsSync(dir) ? readdirSync(dir) : []) {
      if (name.startsWith('.')) continue;
      const path = join(dir, name);
      if (name.startsWith('@')) {
        visit(path);
        continue;
      }
      const file = join(path, 'package.json');
      if (!existsSync(file)) continue;
      const own = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; engines?: { node?: string } };
      const wanted = own.engines?.node;
      if (wanted && semver.validRange(wanted) && !semver.subset(range, wanted)) out.add(`${own.name} ${wanted}`);
      visit(join(path, 'node_modules'));
    }
  };
  visit('node_modules');
  return [...out].sort();
}

describe('what an operator reads', () => {
  it('.env.example lists every configuration variable with its default', () => {
    const example = readFileSync('.env.example', 'utf8');
    const defaults = loadConfig({} as NodeJS.ProcessEnv) as Record<string, unknown>;
    for (const name of CONFIG_VARIABLES) {
      const line = new RegExp(`^(# )?${name}=(.*)$`, 'm').exec(example);
      expect(line, `${name} missing from .env.example`).not.toBeNull();
      if (defaults[name] !== undefined) expect(`${name}=${line![2]}`).toBe(`${name}=${String(defaults[name])}`);
      else expect(line![1], `${name} has no default: its line is commented out`).toBe('# ');
    }
  });

  it('engines and .nvmrc: the Node that runs here and the one CI pins are accepted; packages asking for more are the known ones', () => {
    const range = pkg.engines.node;
    expect(semver.satisfies(process.version, range), `Node ${process.version} vs engines ${range}`).toBe(true);
    const pinned = readFileSync('.nvmrc', 'utf8').trim();
    expect(semver.satisfies(semver.coerce(pinned)!, range)).toBe(true);
    // The pinned line is a maintained LTS (Node 20 reached its end of life on 2026-04-30); the
    // service still runs on 20.19+, which engines accepts and the build targets.
    expect(semver.coerce(pinned)!.major).toBeGreaterThanOrEqual(24);
    expect(semver.coerce(pinned)!.major % 2).toBe(0);
    expect(pkg.scripts.build).toMatch(/--target=node20\b/);
    // These declare Node >= 22 yet run on 20.19+: the docs page's Scalar packages, fastify.inject's
    // cookie parser and @fastify/static's content-disposition (the whole suite passes on Node 20;
    // README, "Node versions"). A new one fails here.
    const known = new Set(['cookie >=22', 'content-disposition >=22']);
    const others = packagesAskingMore(range).filter((p) => !/^@scalar\/[\w-]+ >=22$/.test(p) && !known.has(p));
    expect(others).toEqual([]);
  });

  it('the Dockerfile is multi-stage, runs the compiled JavaScript as a non-root user; compose starts it with PostgreSQL and Redis', () => {
    const dockerfile = readFileSync('Dockerfile', 'utf8');
    expect(dockerfile.match(/^FROM /gm)?.length).toBeGreaterThanOrEqual(2);
    expect(dockerfile).toMatch(/^RUN npm run build$/m);
    expect(dockerfile).toMatch(/^USER node$/m);
    const cmd = /^CMD (.*)$/m.exec(dockerfile)?.[1] ?? '';
    expect(cmd).toContain('dist/main.js');
    expect(cmd).not.toContain('tsx');
    expect(pkg.scripts.build).toContain('esbuild');
    expect(pkg.scripts['start:dist']).toContain('dist/main.js');

    const compose = parse(readFileSync('compose.yaml', 'utf8')) as { services: Record<string, { image?: string; build?: unknown; environment?: Record<string, string> }> };
    expect(compose.services.postgres?.image).toMatch(/^postgres:/);
    expect(compose.services.redis?.image).toMatch(/^redis:/);
    const api = compose.services.api!;
    expect(api.build).toBe('.');
    expect(api.environment?.DATABASE_URL).toMatch(/@postgres:5432\//);
    expect(api.environment?.REDIS_URL).toBe('redis://redis:6379');
  });

  it('the image: the pinned LTS Node, production dependencies only, no install scripts; compose: no default secrets, /metrics behind a token', () => {
    const dockerfile = readFileSync('Dockerfile', 'utf8');
    const image = /^ARG NODE_IMAGE=node:(\d+)[.-]/m.exec(dockerfile)?.[1];
    expect(Number(image)).toBe(semver.coerce(readFileSync('.nvmrc', 'utf8'))!.major);
    const installs = dockerfile.match(/^RUN npm (ci|install)\b.*$/gm) ?? [];
    expect(installs.length).toBeGreaterThanOrEqual(2);
    for (const line of installs) expect(line).toContain('--ignore-scripts');
    // The runtime's node_modules come from the stage that installed without dev dependencies.
    const deps = /^FROM \S+ AS (\w+)\n(?:(?!^FROM ).*\n)*?RUN npm ci [^\n]*--omit=dev/m.exec(dockerfile)?.[1];
    expect(deps).toBeDefined();
    expect(dockerfile).toMatch(new RegExp(`^COPY --from=${deps} /app/node_modules ./node_modules$`, 'm'));
    // npm installs drizzle-orm's optional peer PGlite even with --omit=dev: the image removes it.
    expect(dockerfile).toMatch(/^RUN npm ci --omit=dev .*&& rm -rf node_modules\/@electric-sql\/pglite\b/m);

    const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    for (const devOnly of ['tsx', 'typescript', 'esbuild', '@electric-sql/pglite', 'vitest']) {
      expect(Object.keys(manifest.dependencies), devOnly).not.toContain(devOnly);
      expect(Object.keys(manifest.devDependencies), devOnly).toContain(devOnly);
    }
    // PGlite and tsx are never imported statically by the service (PGlite is loaded only without DATABASE_URL).
    const sources = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
    const staticImports = sources('src').filter((f) => /^import (?!type\b)[^;]*from '(tsx|@electric-sql\/pglite)[/']/m.test(readFileSync(f, 'utf8')));
    expect(staticImports).toEqual([]);

    const text = readFileSync('compose.yaml', 'utf8');
    const compose = parse(text) as { services: Record<string, { environment?: Record<string, string> }> };
    expect(compose.services.postgres?.environment?.POSTGRES_PASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD:\?.+\}$/);
    expect(compose.services.api?.environment?.DATABASE_URL).toContain('${POSTGRES_PASSWORD:?');
    expect(compose.services.api?.environment?.METRICS_TOKEN).toMatch(/^\$\{METRICS_TOKEN:\?.+\}$/);
    // No secret falls back to a default: every PASSWORD, SECRET, KEY or TOKEN is required.
    expect(text.match(/\$\{\w*(PASSWORD|SECRET|KEY|TOKEN)\w*:-[^}]*\}/g) ?? []).toEqual([]);
  });
});
