-- Claiming takes each kind in turn (jobs_kind_due_idx, migration 0041); the index over every kind's due
-- jobs in run order serves no statement since, and each job write maintained it.
DROP INDEX "jobs_due_idx";