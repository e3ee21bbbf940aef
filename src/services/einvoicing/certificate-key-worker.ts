/**
 * The worker thread that opens uploaded certificate keys (certificate.ts starts it through
 * lib/bounded-worker.ts): one key at a time, each answered with its KeyOpening.
 */
import { serveInWorker } from '../../lib/bounded-worker';
import { openCertificateKey } from './certificate-key';

serveInWorker(openCertificateKey);
