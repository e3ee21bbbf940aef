-- Backfill: organizations created before every new organization got the default reference data
-- (src/services/settings/defaults.ts) get it now: the default Malaysian SME chart of accounts
-- (data/default-chart-of-accounts.json) and the SST tax codes (data/default-tax-codes.json).
-- Inserts only what is missing: a default whose code the organization already uses is left out, so
-- the organization's own records are never touched and running this twice inserts nothing more.
-- Each inserted record gets its 'create' entry in the settings history, written by the system, with
-- the record as settings.<entity>.list answers it. The VALUES lists are the data files' entries
-- (tests/routers/settings-defaults.test.ts checks that they agree). Apply after the migration
-- that adds these tables' columns; statements are separated as drizzle-kit custom migrations are.
WITH defaults(code, name, type) AS (
  VALUES
    ('1010', 'Cash in hand', 'asset'),
    ('1020', 'Bank - current account', 'asset'),
    ('1030', 'Petty cash', 'asset'),
    ('1110', 'Trade receivables', 'asset'),
    ('1120', 'Other receivables and deposits', 'asset'),
    ('1130', 'Prepayments', 'asset'),
    ('1140', 'Staff advances', 'asset'),
    ('1150', 'Inventories', 'asset'),
    ('1510', 'Property, plant and equipment', 'asset'),
    ('1520', 'Accumulated depreciation', 'asset'),
    ('2010', 'Trade payables', 'liability'),
    ('2020', 'Other payables and accruals', 'liability'),
    ('2030', 'Expense claims payable', 'liability'),
    ('2110', 'SST payable', 'liability'),
    ('2120', 'Income tax payable', 'liability'),
    ('2130', 'EPF, SOCSO and EIS payable', 'liability'),
    ('2140', 'PCB (monthly tax deduction) payable', 'liability'),
    ('2210', 'Borrowings and hire purchase', 'liability'),
    ('3010', 'Share capital', 'equity'),
    ('3020', 'Retained earnings', 'equity'),
    ('3030', 'Current year earnings', 'equity'),
    ('4010', 'Sales revenue', 'revenue'),
    ('4020', 'Service revenue', 'revenue'),
    ('4030', 'Sales returns and allowances', 'revenue'),
    ('4510', 'Other income', 'revenue'),
    ('4520', 'Interest income', 'revenue'),
    ('4530', 'Foreign exchange gain', 'revenue'),
    ('5010', 'Cost of sales', 'expense'),
    ('6010', 'Salaries and wages', 'expense'),
    ('6020', 'EPF, SOCSO and EIS contributions', 'expense'),
    ('6030', 'Rental', 'expense'),
    ('6040', 'Utilities', 'expense'),
    ('6050', 'Telephone and internet', 'expense'),
    ('6060', 'Travel - local', 'expense'),
    ('6070', 'Travel - overseas', 'expense'),
    ('6080', 'Meals and entertainment', 'expense'),
    ('6090', 'Mileage', 'expense'),
    ('6110', 'Accommodation', 'expense'),
    ('6120', 'Printing and stationery', 'expense'),
    ('6130', 'Professional fees', 'expense'),
    ('6140', 'Bank charges', 'expense'),
    ('6150', 'Depreciation', 'expense'),
    ('6160', 'Repairs and maintenance', 'expense'),
    ('6170', 'Insurance', 'expense'),
    ('6180', 'Advertising and marketing', 'expense'),
    ('6190', 'Training and development', 'expense'),
    ('6210', 'Staff welfare and medical', 'expense'),
    ('6220', 'Foreign exchange loss', 'expense'),
    ('6990', 'Sundry expenses', 'expense')
),
inserted AS (
  INSERT INTO accounts (organization_id, code, name, type)
  SELECT o.id, d.code, d.name, d.type
  FROM organizations o CROSS JOIN defaults d
  WHERE NOT EXISTS (SELECT 1 FROM accounts a WHERE a.organization_id = o.id AND a.code = d.code)
  ORDER BY o.id, d.code
  ON CONFLICT (organization_id, code) DO NOTHING
  RETURNING organization_id, id, code, name, type, active, revision
)
INSERT INTO settings_history (organization_id, entity, record_id, action, actor_member_id, actor_via, changed_at, before, after)
SELECT organization_id, 'accounts', id, 'create', NULL, 'system', now(), NULL,
  jsonb_build_object('id', id, 'code', code, 'name', name, 'type', type, 'active', active, 'revision', revision)
FROM inserted;
--> statement-breakpoint
WITH defaults(code, name, rate, tax_type) AS (
  VALUES
    ('SV-8', 'Service tax 8%', '8', '02'),
    ('SV-6', 'Service tax 6%', '6', '02'),
    ('ST-10', 'Sales tax 10%', '10', '01'),
    ('ST-5', 'Sales tax 5%', '5', '01'),
    ('EXEMPT', 'Exempt from SST', '0', 'E'),
    ('NOT-APPLICABLE', 'Not subject to SST (not applicable)', '0', '06')
),
inserted AS (
  INSERT INTO tax_codes (organization_id, code, name, rate, tax_type, tax_pack_kind)
  SELECT o.id, d.code, d.name, d.rate::numeric, d.tax_type, 'my_sst'
  FROM organizations o CROSS JOIN defaults d
  WHERE NOT EXISTS (SELECT 1 FROM tax_codes t WHERE t.organization_id = o.id AND t.code = d.code)
  ORDER BY o.id, d.code
  ON CONFLICT (organization_id, code) DO NOTHING
  RETURNING organization_id, id, code, name, rate, tax_type, tax_pack_kind, active, revision
)
INSERT INTO settings_history (organization_id, entity, record_id, action, actor_member_id, actor_via, changed_at, before, after)
SELECT i.organization_id, 'taxCodes', i.id, 'create', NULL, 'system', now(), NULL,
  jsonb_build_object('id', i.id, 'code', i.code, 'name', i.name, 'rate', d.rate, 'tax_type', i.tax_type,
    'tax_pack_kind', i.tax_pack_kind, 'active', i.active, 'revision', i.revision)
FROM inserted i JOIN defaults d ON d.code = i.code;
