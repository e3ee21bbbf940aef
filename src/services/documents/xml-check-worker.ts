/**
 * The worker thread that checks uploaded XML (xml-check-thread.ts starts it through
 * lib/bounded-worker.ts): one document at a time, each answered with its XmlCheck.
 */
import { serveInWorker } from '../../lib/bounded-worker';
import { checkXml } from './xml-check';

serveInWorker((content: Uint8Array) => checkXml(Buffer.from(content.buffer, content.byteOffset, content.byteLength)));
