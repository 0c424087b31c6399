-- GIN indexes beside FerretDB's btree indexes, so its pushed-down filters can use an index.
--
-- FerretDB 1.24 (PostgreSQL backend) turns a top-level equality into
--   WHERE _jsonb->'field' @> '"value"'
-- but indexes (_jsonb->'field') with btree, which cannot serve @>: every find, by _id too, scans
-- its table. For each top-level field of a btree index on a FerretDB table, this adds
--   CREATE INDEX <table>_<md5(field)[:8]>_gin ON <table>
--     USING gin ((_jsonb->'field') jsonb_path_ops) WITH (fastupdate = off)
-- jsonb_path_ops serves @> and is smaller than the default jsonb_ops. fastupdate = off: with it on,
-- new entries wait in a pending list that every search reads linearly until a vacuum merges it
-- (30,000 fresh inserts made an `_id` lookup take 6 ms instead of well under 1). Dot paths are
-- skipped: FerretDB never pushes them down.
--
-- Run by `scripts/infra/infra up` in FerretDB's database, every time (idempotent, serialised by an
-- advisory lock): it installs the functions and the event triggers, then backfills the tables that
-- exist. FerretDB keeps one PostgreSQL database with a schema per MongoDB database; a FerretDB
-- schema is one holding `_ferretdb_database_metadata`. Production runs MongoDB and needs none of it.
\set ON_ERROR_STOP on
SET client_min_messages = warning;
BEGIN;
SELECT pg_advisory_xact_lock(hashtext('crafter_ferretdb_gin')) AS locked \gset

-- 'userId' for the index column (_jsonb -> 'userId'::text); NULL for anything else.
CREATE OR REPLACE FUNCTION public.crafter_gin_field(expr text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT replace(m[1], '''''', '''')
  FROM regexp_match(expr, '^\(?_jsonb -> ''((?:[^'']|'''')*)''::text\)?$') AS m
$$;

-- Whether a table is a FerretDB collection (not its metadata table).
CREATE OR REPLACE FUNCTION public.crafter_is_ferretdb_table(tbl oid) RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT EXISTS (
    SELECT 1 FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.oid = tbl AND c.relkind = 'r' AND c.relname NOT LIKE '\_ferretdb\_%'
      AND to_regclass(format('%I._ferretdb_database_metadata', n.nspname)) IS NOT NULL)
$$;

-- Makes a FerretDB table's GIN indexes match its btree indexes: creates the missing ones, drops the
-- ones this file made whose field no btree index has any more. Returns (created, dropped).
CREATE OR REPLACE FUNCTION public.crafter_ferretdb_gin_sync(tbl oid, OUT created integer, OUT dropped integer)
LANGUAGE plpgsql AS $$
DECLARE
  nsp text;
  rel text;
  f text;
  idx text;
  busy text := current_setting('crafter.gin_busy', true);
BEGIN
  created := 0;
  dropped := 0;
  SELECT n.nspname, c.relname INTO nsp, rel
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = tbl;
  IF rel IS NULL THEN RETURN; END IF;
  -- Our own CREATE/DROP INDEX fire the event triggers again; they return at once while this is on.
  PERFORM set_config('crafter.gin_busy', 'on', true);
  FOR f IN
    SELECT DISTINCT public.crafter_gin_field(pg_get_indexdef(i.indexrelid, k, true))
    FROM pg_index i
    JOIN pg_class ic ON ic.oid = i.indexrelid
    JOIN pg_am am ON am.oid = ic.relam
    CROSS JOIN generate_series(1, i.indnkeyatts) AS k
    WHERE i.indrelid = tbl AND am.amname = 'btree'
  LOOP
    CONTINUE WHEN f IS NULL;
    CONTINUE WHEN EXISTS (
      SELECT 1 FROM pg_index i
      JOIN pg_class ic ON ic.oid = i.indexrelid
      JOIN pg_am am ON am.oid = ic.relam
      WHERE i.indrelid = tbl AND am.amname = 'gin' AND i.indnkeyatts = 1
        AND public.crafter_gin_field(pg_get_indexdef(i.indexrelid, 1, true)) = f);
    EXECUTE format('CREATE INDEX %I ON %I.%I USING gin ((_jsonb -> %L) jsonb_path_ops) WITH (fastupdate = off)',
      left(rel, 40) || '_' || left(md5(f), 8) || '_gin', nsp, rel, f);
    created := created + 1;
  END LOOP;
  FOR idx IN
    SELECT ic.relname FROM pg_index i
    JOIN pg_class ic ON ic.oid = i.indexrelid
    JOIN pg_am am ON am.oid = ic.relam
    WHERE i.indrelid = tbl AND am.amname = 'gin' AND ic.relname LIKE '%\_gin'
      AND NOT EXISTS (
        SELECT 1 FROM pg_index b
        JOIN pg_class bc ON bc.oid = b.indexrelid
        JOIN pg_am bam ON bam.oid = bc.relam
        CROSS JOIN generate_series(1, b.indnkeyatts) AS k
        WHERE b.indrelid = tbl AND bam.amname = 'btree'
          AND public.crafter_gin_field(pg_get_indexdef(b.indexrelid, k, true))
            = public.crafter_gin_field(pg_get_indexdef(i.indexrelid, 1, true)))
  LOOP
    EXECUTE format('DROP INDEX %I.%I', nsp, idx);
    dropped := dropped + 1;
  END LOOP;
  PERFORM set_config('crafter.gin_busy', coalesce(busy, ''), true);
END
$$;

-- Every FerretDB table, synced. Returns (tables, created, dropped).
CREATE OR REPLACE FUNCTION public.crafter_ferretdb_gin_backfill(OUT tables integer, OUT created integer, OUT dropped integer)
LANGUAGE plpgsql AS $$
DECLARE
  t oid;
  r record;
BEGIN
  tables := 0;
  created := 0;
  dropped := 0;
  FOR t IN SELECT c.oid FROM pg_class c WHERE c.relkind = 'r' AND public.crafter_is_ferretdb_table(c.oid) LOOP
    r := public.crafter_ferretdb_gin_sync(t);
    tables := tables + 1;
    created := created + r.created;
    dropped := dropped + r.dropped;
  END LOOP;
END
$$;

-- CREATE INDEX (FerretDB's createIndex, and the unique _id index it makes right after CREATE TABLE).
CREATE OR REPLACE FUNCTION public.crafter_ferretdb_gin_on_create() RETURNS event_trigger
LANGUAGE plpgsql AS $$
DECLARE
  t oid;
BEGIN
  IF current_setting('crafter.gin_busy', true) = 'on' THEN RETURN; END IF;
  FOR t IN
    SELECT DISTINCT i.indrelid FROM pg_event_trigger_ddl_commands() AS c
    JOIN pg_index i ON i.indexrelid = c.objid
    WHERE c.classid = 'pg_class'::regclass AND c.object_type = 'index'
  LOOP
    IF public.crafter_is_ferretdb_table(t) THEN
      PERFORM public.crafter_ferretdb_gin_sync(t);
    END IF;
  END LOOP;
END
$$;

-- DROP INDEX (dropIndexes): the dropped index is gone from the catalogs by now, so sync every
-- FerretDB table of the schemas it was in (a handful of catalog reads each).
CREATE OR REPLACE FUNCTION public.crafter_ferretdb_gin_on_drop() RETURNS event_trigger
LANGUAGE plpgsql AS $$
DECLARE
  t oid;
BEGIN
  IF current_setting('crafter.gin_busy', true) = 'on' THEN RETURN; END IF;
  FOR t IN
    SELECT c.oid FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname IN (
        SELECT d.schema_name FROM pg_event_trigger_dropped_objects() AS d WHERE d.object_type = 'index')
      AND public.crafter_is_ferretdb_table(c.oid)
  LOOP
    PERFORM public.crafter_ferretdb_gin_sync(t);
  END LOOP;
END
$$;

DROP EVENT TRIGGER IF EXISTS crafter_ferretdb_gin_on_create;
CREATE EVENT TRIGGER crafter_ferretdb_gin_on_create ON ddl_command_end
  WHEN TAG IN ('CREATE INDEX') EXECUTE FUNCTION public.crafter_ferretdb_gin_on_create();
DROP EVENT TRIGGER IF EXISTS crafter_ferretdb_gin_on_drop;
CREATE EVENT TRIGGER crafter_ferretdb_gin_on_drop ON sql_drop
  WHEN TAG IN ('DROP INDEX') EXECUTE FUNCTION public.crafter_ferretdb_gin_on_drop();

-- FerretDB passes the field name as a parameter (_jsonb->$1 @> $2). A generic plan of such a
-- prepared statement cannot match an expression index, so always plan with the actual values
-- (new connections; the planning costs about 0.1 ms).
DO $$ BEGIN
  EXECUTE format('ALTER DATABASE %I SET plan_cache_mode = force_custom_plan', current_database());
END $$;

-- The backfill's figures, for `up` to print.
SELECT format('%s tables, %s GIN indexes created, %s dropped', tables, created, dropped)
FROM public.crafter_ferretdb_gin_backfill();
COMMIT;
