-- Rate-limit counters are throwaway (a fixed window of a minute or so) and every request writes one
-- or two of them: kept out of the write-ahead log, a request's counting statement commits without
-- waiting for a WAL flush, so requests of one key, which wait on that key's counter row in turn,
-- no longer wait one flush each. After a crash the table comes back empty (every window starts
-- again); it is not on streaming replicas, which never count anything.
-- Half of each page left free and vacuumed after every thousand dead versions: the few hot rows
-- are updated in place (HOT) and their old versions cleared, so a counter's lookup stays one page.
ALTER TABLE "rate_limit_counters" SET UNLOGGED;
--> statement-breakpoint
ALTER TABLE "rate_limit_counters" SET (fillfactor = 50, autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000, autovacuum_vacuum_cost_delay = 0);
