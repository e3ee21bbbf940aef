/**
 * The worker thread that checks uploaded XML (xml-check-thread.ts starts it): one document at a
 * time, each answered with its XmlCheck. It says `ready` once loaded, so the time bound of a check
 * never counts the worker's own start-up.
 */
import { parentPort } from 'node:worker_threads';
import { checkXml } from './xml-check';

parentPort!.on('message', (content: Uint8Array) => {
  parentPort!.postMessage(checkXml(Buffer.from(content.buffer, content.byteOffset, content.byteLength)));
});
parentPort!.postMessage('ready');
