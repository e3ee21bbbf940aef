/**
 * Running one module's function off the request path: in one long-lived worker thread per module, a
 * call at a time, each with a time bound and (optionally) a memory bound (the worker's resource
 * limits). A call that runs out of either ends the worker (the next call starts a fresh one) and
 * answers `{ ok: false }`, so slow or hostile input never holds the event loop every request shares.
 *
 * The worker module calls `serveInWorker(fn)`. Run from the bundle (npm run build), the worker is the
 * compiled `dist/<entry>.js` (its own entry point in the `build` script, named like the source file);
 * run from the sources (tsx, vitest), the TypeScript module beside the caller, loaded through tsx.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parentPort, Worker, type ResourceLimits } from 'node:worker_threads';

export interface BoundedWorkerOptions {
  /** The worker module's file name without extension (`xml-check-worker`); also its bundle entry name. */
  entry: string;
  /** `import.meta.url` of the caller: its folder holds `<entry>.ts` when run from the sources. */
  from: string;
  timeoutMs: number;
  resourceLimits?: ResourceLimits;
}

/** Why a call gave no answer: out of time, or the worker failed (an exception, out of memory). */
export type WorkerOutcome<Out> = { ok: true; value: Out } | { ok: false; reason: 'timeout' | 'failed' };

type Reply<Out> = { ok: true; value: Out } | { ok: false };

function bundledEntry(entry: string): URL {
  // The bundle's entry points sit at dist/ (main.js) and below it (cli/admin.js); the workers at dist/.
  for (const prefix of ['./', '../']) {
    const url = new URL(`${prefix}${entry}.js`, import.meta.url);
    if (existsSync(url)) return url;
  }
  return new URL(`./${entry}.js`, import.meta.url);
}

function startWorker(o: BoundedWorkerOptions): Worker {
  const resourceLimits = o.resourceLimits ?? {};
  if (!import.meta.url.endsWith('.ts')) return new Worker(bundledEntry(o.entry), { resourceLimits });
  const require = createRequire(import.meta.url);
  const tsxPackage = require.resolve('tsx/package.json');
  const exported = (require(tsxPackage) as { exports: Record<string, { import: { default: string } }> }).exports['./esm/api']!.import.default;
  const tsxApi = pathToFileURL(join(dirname(tsxPackage), exported)).href;
  const source = pathToFileURL(join(dirname(fileURLToPath(o.from)), `${o.entry}.ts`)).href;
  const code = `import(${JSON.stringify(tsxApi)}).then((m) => m.tsImport(${JSON.stringify(source)}, ${JSON.stringify(o.from)}))`;
  return new Worker(code, { eval: true, resourceLimits });
}

/** `run(input)`: the worker module's function applied to `input` in its thread, within the bounds. */
export function boundedWorker<In, Out>(o: BoundedWorkerOptions): (input: In, transfer?: ArrayBuffer[]) => Promise<WorkerOutcome<Out>> {
  let current: Promise<Worker> | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  const worker = (): Promise<Worker> => {
    if (current) return current;
    const started: Promise<Worker> = new Promise<Worker>((resolve, reject) => {
      const w = startWorker(o);
      w.unref();
      w.once('exit', () => {
        if (current === started) current = undefined;
      });
      const onError = (e: unknown) => {
        if (current === started) current = undefined;
        reject(e instanceof Error ? e : new Error(String(e)));
      };
      w.once('error', onError);
      w.once('message', (m) => {
        w.off('error', onError);
        if (m === 'ready') resolve(w);
        else onError(new Error(`the ${o.entry} worker did not start`));
      });
    });
    current = started;
    return started;
  };

  const runOnce = async (input: In, transfer: ArrayBuffer[]): Promise<WorkerOutcome<Out>> => {
    const w = await worker();
    return new Promise<WorkerOutcome<Out>>((resolve) => {
      const finish = (answer: WorkerOutcome<Out>, end: boolean) => {
        clearTimeout(timer);
        w.off('message', onMessage);
        w.off('error', onError);
        if (end) {
          current = undefined;
          void w.terminate();
        }
        resolve(answer);
      };
      const onMessage = (reply: Reply<Out>) => finish(reply.ok ? reply : { ok: false, reason: 'failed' }, false);
      const onError = () => finish({ ok: false, reason: 'failed' }, true);
      const timer = setTimeout(() => finish({ ok: false, reason: 'timeout' }, true), o.timeoutMs);
      w.on('message', onMessage);
      w.once('error', onError);
      w.postMessage(input, transfer);
    });
  };

  return (input, transfer = []) => {
    const run = queue.then(() => runOnce(input, transfer));
    queue = run.catch(() => undefined);
    return run;
  };
}

/**
 * In the worker module: answers each message with `fn` of it. It says `ready` once loaded, so the
 * time bound of a call never counts the worker's own start-up.
 */
export function serveInWorker<In, Out>(fn: (input: In) => Out | Promise<Out>): void {
  const port = parentPort!;
  port.on('message', (input: In) => {
    Promise.resolve()
      .then(() => fn(input))
      .then(
        (value) => port.postMessage({ ok: true, value } satisfies Reply<Out>),
        () => port.postMessage({ ok: false } satisfies Reply<Out>),
      );
  });
  port.postMessage('ready');
}
