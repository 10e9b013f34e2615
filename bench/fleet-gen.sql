-- SPDX-License-Identifier: GPL-2.0
-- One synthetic boot of a fleet (bench/fleet.sh) as boot 1 of an empty
-- lockdep database: @BOOT@ is its number, a workload of ten. Realistic
-- overlap: 800 dependencies every boot has (the core kernel), 200 to
-- 2,000 of its workload's band (boots of one workload share most), 5
-- timing-only ones drawn from a pool of 1,200 (flaky), and every
-- seventh boot one dependency that reverses one of the next workload's
-- band, which only the union closes into a cycle. Classes c0 .. c3999,
-- each boot storing those its dependencies name; every dependency goes
-- from a lower to a higher class, so no boot has a cycle of its own.
BEGIN;
INSERT INTO boots (id, label, collected_at, source, completeness, uuid)
VALUES (1, 'fleet-@BOOT@', '2026-01-01T00:00:00Z', 'proc-dir', 'complete',
	lower(hex(randomblob(16))));
CREATE TEMP TABLE k(k INTEGER PRIMARY KEY);
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 799)
INSERT INTO k SELECT i FROM n;
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n
			WHERE i < 199 + (@BOOT@ * 37) % 1800)
INSERT INTO k SELECT 800 + (@BOOT@ % 10) * 2000 + i FROM n;
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 4)
INSERT OR IGNORE INTO k SELECT 20800 + (@BOOT@ * 13 + i * 101) % 1200 FROM n;
CREATE TEMP TABLE e AS
SELECT DISTINCT f, f + 1 + (k * 7919) % 50 AS t
FROM (SELECT k, (k * 2654435761) % 3950 AS f FROM k);
-- the reversed dependency: from the far end of an edge of the next band
INSERT INTO e SELECT f + 1 + (k * 7919) % 50, f
FROM (SELECT k, (k * 2654435761) % 3950 AS f FROM
	(SELECT 800 + ((@BOOT@ + 1) % 10) * 2000 + (@BOOT@ * 11) % 200 AS k))
WHERE @BOOT@ % 7 = 0;
INSERT INTO classes (id, boot_id, name, usage_bits, identity)
SELECT c + 1, 1, 'c' || c, CASE c % 9 WHEN 0 THEN 1 WHEN 1 THEN 68 ELSE 0 END,
	'c' || c
FROM (SELECT f AS c FROM e UNION SELECT t FROM e);
INSERT OR IGNORE INTO dependencies (boot_id, from_class, to_class)
SELECT 1, f + 1, t + 1 FROM e;
COMMIT;
