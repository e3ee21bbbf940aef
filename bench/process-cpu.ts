/**
 * CPU of processes on this machine, read from /proc (Linux): a server's own, and that of the
 * PostgreSQL backends serving one database. For the probes that print CPU per request beside
 * latency (bench/_claims-http.ts, bench/_floor-http.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';

/** A process's CPU (user and system) in ms, from /proc/<pid>/stat (clock ticks of 10 ms); `which` one of them alone. */
export function cpuMs(pid: number | string, which?: 'user' | 'system'): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const [user, system] = [Number(fields[11]) * 10, Number(fields[12]) * 10];
  return which === 'user' ? user : which === 'system' ? system : user + system;
}

/** The CPU in ms of every live PostgreSQL backend of `database` (a server's pool lives as long as the run). */
export function backendsMs(database: string): number {
  let total = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (cmd.startsWith('postgres: ') && cmd.includes(` ${database} `)) total += cpuMs(pid);
    } catch {
      // Gone between the listing and the read.
    }
  }
  return total;
}
