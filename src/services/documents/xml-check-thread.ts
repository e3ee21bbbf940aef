/**
 * checkXml off the request path: in one long-lived worker thread (lib/bounded-worker.ts), a document
 * at a time, each with a time bound (XML_CHECK_TIMEOUT_MS) and a memory bound (the worker's resource
 * limits). A check that runs out of either ends the worker (the next check starts a fresh one) and
 * refuses the document, so a large or hostile XML upload never holds the event loop that serves
 * every other request.
 */
import { boundedWorker } from '../../lib/bounded-worker';
import { checkXml, XML_MAX_BYTES, type XmlCheck } from './xml-check';

export const XML_CHECK_TIMEOUT_MS = 5_000;

const inWorker = boundedWorker<Uint8Array, XmlCheck>({
  entry: 'xml-check-worker',
  from: import.meta.url,
  timeoutMs: XML_CHECK_TIMEOUT_MS,
  resourceLimits: { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
});

/** checkXml in the worker thread; documents over XML_MAX_BYTES are refused here, never copied to it. */
export async function checkXmlOffThread(content: Buffer): Promise<XmlCheck> {
  if (content.length > XML_MAX_BYTES) return checkXml(content);
  const outcome = await inWorker(new Uint8Array(content));
  if (outcome.ok) return outcome.value;
  return { ok: false, kind: 'limit', detail: outcome.reason === 'timeout' ? `took longer than ${XML_CHECK_TIMEOUT_MS} ms to check` : 'is too large or too complex to check' };
}
