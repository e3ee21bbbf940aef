-- The service's checked statement of a keyed request whose principal is cached (hitKeyChecked in
-- src/services/rate-limit/limits.ts), for pgbench: -D key_id=<api key id> -D org_id=<its organization>
-- -D epoch=<auth_epochs.epoch of the organization>. See bench/README.md, section "floor".
with a as (
        select points, expire from rate_limit_counters
        where key = 'authfail' || chr(58) || '127.0.0.1' and (expire > now() or expire is null)),
      e as (select coalesce((select epoch from auth_epochs where organization_id = :org_id::uuid), 0) as epoch),
      g as (select coalesce((select points from a), 0) < 20 and (select epoch from e) = :epoch as go),
      k as (
        insert into rate_limit_counters (key, points, expire)
        select 'key' || chr(58) || :key_id, 1, now() + interval '60 s' where (select go from g)
        on conflict (key) do update set
        points = case when rate_limit_counters.expire <= now() then 1 else rate_limit_counters.points + 1 end,
        expire = case when rate_limit_counters.expire <= now() then now() + interval '60 s' else rate_limit_counters.expire end
      returning points, expire),
      o as (
        insert into rate_limit_counters (key, points, expire)
        select 'org' || chr(58) || :org_id, 1, now() + interval '60 s' where (select points from k) <= 1000000000
        on conflict (key) do update set
        points = case when rate_limit_counters.expire <= now() then 1 else rate_limit_counters.points + 1 end,
        expire = case when rate_limit_counters.expire <= now() then now() + interval '60 s' else rate_limit_counters.expire end
      returning points, expire),
      t as (
        update api_keys set last_used_at = now()
        where organization_id = :org_id::uuid and id = :key_id::uuid and (select go from g)
          and (last_used_at is null or last_used_at <= now() - interval '1 minute')
        returning 1)
      select (select points from a) as ap, (select expire from a) as ae, (select epoch from e) as epoch, (select go from g) as go,
             k.points as kp, k.expire as ke, o.points as op, o.expire as oe
      from (select 1) as one left join k on true left join o on true;
