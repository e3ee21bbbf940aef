-- The minimal floor's one authenticating statement (AUTH in bench/minimal-floor-server.ts: the
-- address's failed authentications, the key with its owner's permissions, the organization's base
-- currency and epoch, both counters, the key's last use), for pgbench: -D key_id=<api key id>; the
-- secret's hash is read from the key's row instead of sent, the address is 127.0.0.1 and its limit 20.
-- The pgbench figures in bench/README.md ("floor", 2026-12-07 09:57) were taken before the address's
-- counter and the last use joined it (2026-12-08). See bench/README.md, section "floor".
with af as (select points from rate_limit_counters where key = 'minimal' || chr(58) || 'authfail' || chr(58) || '127.0.0.1' and expire > now()),
k as (
  select k.organization_id, k.id, k.owner_member_id, o.base_currency, coalesce((select e.epoch from auth_epochs e where e.organization_id = k.organization_id), 0)::int as epoch,
    array(select p from unnest(k.permissions) p where p = any(array(
      select unnest(r.permissions) from member_roles mr join roles r on r.organization_id = mr.organization_id and r.id = mr.role_id
      where mr.organization_id = k.organization_id and mr.member_id = k.owner_member_id))) as permissions
  from api_keys k join members m on m.organization_id = k.organization_id and m.id = k.owner_member_id
    join organizations o on o.id = k.organization_id
  where k.id = :key_id::uuid and k.secret_hash = (select secret_hash from api_keys where id = :key_id::uuid) and k.revoked_at is null
    and (k.expires_at is null or k.expires_at > now()) and m.active and coalesce((select points from af), 0) < 20
), kc as (
  insert into rate_limit_counters (key, points, expire) select 'minimal' || chr(58) || 'key' || chr(58) || k.id, 1, now() + interval '1 minute' from k
  on conflict (key) do update set
    points = case when rate_limit_counters.expire <= now() then 1 else rate_limit_counters.points + 1 end,
    expire = case when rate_limit_counters.expire <= now() then excluded.expire else rate_limit_counters.expire end
  returning points, ceil(extract(epoch from expire - now()))::int as reset
), oc as (
  insert into rate_limit_counters (key, points, expire) select 'minimal' || chr(58) || 'org' || chr(58) || k.organization_id, 1, now() + interval '1 minute' from k
  on conflict (key) do update set
    points = case when rate_limit_counters.expire <= now() then 1 else rate_limit_counters.points + 1 end,
    expire = case when rate_limit_counters.expire <= now() then excluded.expire else rate_limit_counters.expire end
  returning points, ceil(extract(epoch from expire - now()))::int as reset
), t as (update api_keys u set last_used_at = now() from k where u.organization_id = k.organization_id and u.id = k.id
  and (u.last_used_at is null or u.last_used_at <= now() - interval '1 minute') returning 1)
select (select points from af) as address_points, k.*, kc.points as key_points, kc.reset as key_reset, oc.points as org_points, oc.reset as org_reset
from (select 1) one left join k on true left join kc on true left join oc on true;
