/** Probe: autocannon against a running service: URL, TOKEN, SECONDS. */
import autocannon from 'autocannon';
const r = await autocannon({ url: process.env.URL!, connections: 10, duration: Number(process.env.SECONDS ?? 10), headers: { authorization: `Bearer ${process.env.TOKEN}` } });
console.log(`${r.requests.average} req/s p50 ${r.latency.p50} p99 ${r.latency.p99} non2xx ${r.non2xx}`);
