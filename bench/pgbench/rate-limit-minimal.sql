-- The minimal floor's one statement (AUTH in bench/minimal-floor-server.ts: the key with its owner's
-- permissions and both counters), for pgbench: -D key_id=<api key id>; the secret's hash is read from
-- the key's row instead of sent. See bench/README.md, section "floor".
with k as (
  select k.organization_id, k.id, k.owner_member_id,
    array(select p from unnest(k.permissions) p where p = any(array(
      select unnest(r.permissions) from member_roles mr join roles r on r.organization_id = mr.organization_id and r.id = mr.role_id
      where mr.organization_id = k.organization_id and mr.member_id = k.owner_member_id))) as permissions
  from api_keys k join members m on m.organization_id = k.organization_id and m.id = k.owner_member_id
  where k.id = :key_id::uuid and k.secret_hash = (select secret_hash from api_keys where id = :key_id::uuid) and k.revoked_at is null and (k.expires_at is null or k.expires_at > now()) and m.active
), kc as (
  insert into rate_limit_counters (key, points, expire) select 'minimal' || chr(58) || 'key' || chr(58) || k.id, 1, now() + interval '1 minute' from k
  on conflict (key) do update set
    points = case when rate_limit_counters.expire <= now() then 1 else rate_limit_counters.points + 1 end,
    expire = case when rate_limit_counters.expire <= now() then excluded.expire else rate_limit_counters.expire end
  returning points
), oc as (
  insert into rate_limit_counters (key, points, expire) select 'minimal' || chr(58) || 'org' || chr(58) || k.organization_id, 1, now() + interval '1 minute' from k
  on conflict (key) do update set
    points = case when rate_limit_counters.expire <= now() then 1 else rate_limit_counters.points + 1 end,
    expire = case when rate_limit_counters.expire <= now() then excluded.expire else rate_limit_counters.expire end
  returning points
)
select k.organization_id, k.id, k.owner_member_id, k.permissions, (select points from kc) as key_points, (select points from oc) as org_points from k;
