-- SPDX-License-Identifier: GPL-2.0
-- A synthetic lock graph of about @EDGES@ dependencies as boot 2 of a
-- lockdep database (bench/graph.sh): @EDGES@/4 classes, each with
-- dependencies to classes shortly after it, one in a thousand pointing
-- shortly back, closing small cycles. Pseudo-random from a multiplicative
-- hash of the row number, so every run builds the same graph; duplicate
-- pairs are dropped, so sizes are approximate: the bench counts what was
-- stored.
BEGIN;
INSERT INTO boots (id, label, collected_at, source, completeness, uuid)
VALUES (2, 'synthetic-@EDGES@', datetime('now'), 'proc-dir', 'complete',
	lower(hex(randomblob(16))));
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n
			WHERE i < @EDGES@ / 4)
INSERT INTO classes (id, boot_id, name, usage_bits, identity)
SELECT 1000000 + i, 2, 'synthetic_class_' || i,
	CASE (i * 40503) % 8 WHEN 0 THEN 1 WHEN 1 THEN 68 ELSE 0 END,
	'synthetic_class_' || i
FROM n;
WITH RECURSIVE e(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM e
			WHERE k < @EDGES@ * 107 / 100)
INSERT OR IGNORE INTO dependencies (boot_id, from_class, to_class)
SELECT 2, 1000000 + f, 1000000 + t FROM (
	SELECT f, CASE WHEN h % 1000 = 0 THEN f - 1 - (h / 1000) % 8
		       ELSE f + 1 + (h / 1000) % 64 END AS t
	FROM (SELECT 1 + k % (@EDGES@ / 4) AS f,
		     (k * 2654435761) % 4294967291 AS h FROM e))
WHERE t BETWEEN 1 AND @EDGES@ / 4;
COMMIT;
