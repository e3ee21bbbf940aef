/**
 * checkXml off the request path: in one long-lived worker thread, a document at a time, each with
 * a time bound (XML_CHECK_TIMEOUT_MS) and a memory bound (the worker's resource limits). A check that
 * runs out of either ends the worker (the next check starts a fresh one) and refuses the document,
 * so a large or hostile XML upload never holds the event loop that serves every other request.
 *
 * The worker is the compiled `dist/xml-check-worker.js` beside the bundle (npm run build), or, run
 * from the sources (tsx, vitest), the TypeScript module loaded through tsx.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { checkXml, XML_MAX_BYTES, type XmlCheck } from './xml-check';

export const XML_CHECK_TIMEOUT_MS = 5_000;
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 };

function startWorker(): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./xml-check-worker.js', import.meta.url), { resourceLimits: RESOURCE_LIMITS });
  const require = createRequire(import.meta.url);
  const tsxPackage = require.resolve('tsx/package.json');
  const exported = (require(tsxPackage) as { exports: Record<string, { import: { default: string } }> }).exports['./esm/api']!.import.default;
  const tsxApi = pathToFileURL(join(dirname(tsxPackage), exported)).href;
  const entry = pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), 'xml-check-worker.ts')).href;
  const code = `import(${JSON.stringify(tsxApi)}).then((m) => m.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(import.meta.url)}))`;
  return new Worker(code, { eval: true, resourceLimits: RESOURCE_LIMITS });
}

let current: Promise<Worker> | undefined;
let queue: Promise<unknown> = Promise.resolve();

function worker(): Promise<Worker> {
  if (current) return current;
  const started: Promise<Worker> = new Promise<Worker>((resolve, reject) => {
    const w = startWorker();
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
      else onError(new Error('the XML check worker did not start'));
    });
  });
  current = started;
  return started;
}

function stop(w: Worker) {
  current = undefined;
  void w.terminate();
}

async function runOnce(content: Buffer): Promise<XmlCheck> {
  const w = await worker();
  return new Promise<XmlCheck>((resolve) => {
    const finish = (answer: XmlCheck, end: boolean) => {
      clearTimeout(timer);
      w.off('message', onMessage);
      w.off('error', onError);
      if (end) stop(w);
      resolve(answer);
    };
    const onMessage = (answer: XmlCheck) => finish(answer, false);
    const onError = () => finish({ ok: false, kind: 'limit', detail: 'is too large or too complex to check' }, true);
    const timer = setTimeout(() => finish({ ok: false, kind: 'limit', detail: `took longer than ${XML_CHECK_TIMEOUT_MS} ms to check` }, true), XML_CHECK_TIMEOUT_MS);
    w.on('message', onMessage);
    w.once('error', onError);
    w.postMessage(new Uint8Array(content));
  });
}

/** checkXml in the worker thread; documents over XML_MAX_BYTES are refused here, never copied to it. */
export function checkXmlOffThread(content: Buffer): Promise<XmlCheck> {
  if (content.length > XML_MAX_BYTES) return Promise.resolve(checkXml(content));
  const run = queue.then(() => runOnce(content));
  queue = run.catch(() => undefined);
  return run;
}
