-- Receipts written before receipts had their own rate and balance (issue 10): the rate is what their
-- stored base amount implies, and what is left to allocate is the amount less the allocations that
-- count (neither reversed nor a reversal). Allocations written before keep an exchange difference of 0.
UPDATE "receipts" r SET
  "fx_rate" = CASE WHEN r."amount" = 0 THEN 1 ELSE round(r."base_amount" / r."amount", 10) END,
  "unallocated" = r."amount" - coalesce((
    SELECT sum(a."amount") FROM "allocations" a
    WHERE a."organization_id" = r."organization_id" AND a."receipt_id" = r."id"
      AND a."reverses_id" IS NULL AND a."reversed_by_id" IS NULL
  ), 0);
