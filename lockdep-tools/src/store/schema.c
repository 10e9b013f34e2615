// SPDX-License-Identifier: GPL-2.0
/*
 * The schema, as the ordered list of forward migrations that build it.
 * migrations[i] takes a database from user_version i to i + 1; a new
 * schema change is a new entry at the end, never an edit of an old one
 * (a database in the field may sit at any version). lockdep-db(5)
 * documents the result.
 *
 * Conventions: every table hangs off boots(id) with ON DELETE CASCADE,
 * so "DELETE FROM boots WHERE id = ?" removes a boot entirely; kernel
 * addresses are TEXT in lower-case hex as the kernel prints them (they do
 * not fit SQLite's signed 64-bit INTEGER); idx columns keep the order
 * things were printed in, from 0.
 */
#include "store/schema.h"

static const char migration_1[] =
	/* one row per collection */
	"CREATE TABLE boots (\n"
	"	id INTEGER PRIMARY KEY,\n"
	"	label TEXT,\n"
	"	collected_at TEXT NOT NULL,\n"
	"	source TEXT NOT NULL CHECK (source IN\n"
	"		('socket', 'raw-dir', 'log', 'proc-dir', 'local')),\n"
	"	source_path TEXT,\n"
	"	kernel_release TEXT,\n"
	"	kernel_version TEXT,\n"
	"	build_id TEXT,\n"
	"	cmdline TEXT,\n"
	"	config TEXT,\n"
	"	agent TEXT,\n"
	"	manifest TEXT,\n"
	"	completeness TEXT NOT NULL DEFAULT 'partial'\n"
	"		CHECK (completeness IN ('complete', 'partial'))\n"
	");\n"
	/* what arrived, byte for byte */
	"CREATE TABLE files (\n"
	"	boot_id INTEGER NOT NULL REFERENCES boots(id) ON DELETE CASCADE,\n"
	"	path TEXT NOT NULL,\n"
	"	status TEXT NOT NULL CHECK (status IN\n"
	"		('complete', 'incomplete', 'missing')),\n"
	"	bytes INTEGER NOT NULL,\n"
	"	reason TEXT,\n"
	"	content BLOB,\n"
	"	PRIMARY KEY (boot_id, path)\n"
	") WITHOUT ROWID;\n"
	/* parsed reports (parse/report.h is the model) */
	"CREATE TABLE reports (\n"
	"	id INTEGER PRIMARY KEY,\n"
	"	boot_id INTEGER NOT NULL REFERENCES boots(id) ON DELETE CASCADE,\n"
	"	seq INTEGER NOT NULL,\n"
	"	type TEXT NOT NULL,\n"
	"	title TEXT NOT NULL,\n"
	"	dedup_key TEXT NOT NULL,\n"
	"	header TEXT NOT NULL,\n"
	"	message TEXT,\n"
	"	release TEXT,\n"
	"	taint TEXT,\n"
	"	task TEXT,\n"
	"	pid INTEGER,\n"
	"	cpu INTEGER,\n"
	"	irq_context TEXT,\n"
	"	hardware TEXT,\n"
	"	irq_class TEXT,\n"
	"	irq_event_stamp INTEGER,\n"
	"	old_format INTEGER NOT NULL,\n"
	"	truncated INTEGER NOT NULL,\n"
	"	input TEXT NOT NULL,\n"
	"	first_line INTEGER NOT NULL,\n"
	"	last_line INTEGER NOT NULL,\n"
	"	backtrace INTEGER,\n"
	"	raw_dropped INTEGER NOT NULL,\n"
	"	UNIQUE (boot_id, seq)\n"
	");\n"
	"CREATE INDEX reports_type ON reports(type);\n"
	"CREATE INDEX reports_dedup ON reports(dedup_key);\n"
	"CREATE TABLE report_locks (\n"
	"	report_id INTEGER NOT NULL REFERENCES reports(id) ON DELETE CASCADE,\n"
	"	idx INTEGER NOT NULL,\n"
	"	role TEXT NOT NULL,\n"
	"	name TEXT NOT NULL,\n"
	"	class_name TEXT NOT NULL,\n"
	"	version INTEGER NOT NULL,\n"
	"	subclass INTEGER NOT NULL,\n"
	"	usage TEXT,\n"
	"	usage_bits INTEGER NOT NULL,\n"
	"	wait_outer INTEGER,\n"
	"	wait_inner INTEGER,\n"
	"	addr TEXT,\n"
	"	held_index INTEGER,\n"
	"	holder TEXT,\n"
	"	line INTEGER NOT NULL,\n"
	"	PRIMARY KEY (report_id, idx)\n"
	") WITHOUT ROWID;\n"
	"CREATE INDEX report_locks_class ON report_locks(class_name);\n"
	"CREATE TABLE report_stacks (\n"
	"	report_id INTEGER NOT NULL REFERENCES reports(id) ON DELETE CASCADE,\n"
	"	idx INTEGER NOT NULL,\n"
	"	label TEXT NOT NULL,\n"
	"	lock_idx INTEGER,\n"
	"	PRIMARY KEY (report_id, idx)\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE report_frames (\n"
	"	report_id INTEGER NOT NULL REFERENCES reports(id) ON DELETE CASCADE,\n"
	"	owner TEXT NOT NULL CHECK (owner IN ('stack', 'lock', 'irq-event')),\n"
	"	owner_idx INTEGER NOT NULL,\n"
	"	idx INTEGER NOT NULL,\n"
	"	func TEXT,\n"
	"	off INTEGER,\n"
	"	size INTEGER,\n"
	"	addr TEXT,\n"
	"	module TEXT,\n"
	"	build_id TEXT,\n"
	"	file TEXT,\n"
	"	line INTEGER,\n"
	"	unreliable INTEGER NOT NULL,\n"
	"	inlined INTEGER NOT NULL,\n"
	"	PRIMARY KEY (report_id, owner, owner_idx, idx)\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE report_chain (\n"
	"	report_id INTEGER NOT NULL REFERENCES reports(id) ON DELETE CASCADE,\n"
	"	idx INTEGER NOT NULL,\n"
	"	lock_idx INTEGER,\n"
	"	stack_idx INTEGER,\n"
	"	PRIMARY KEY (report_id, idx)\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE report_chain_summary (\n"
	"	report_id INTEGER NOT NULL REFERENCES reports(id) ON DELETE CASCADE,\n"
	"	idx INTEGER NOT NULL,\n"
	"	name TEXT NOT NULL,\n"
	"	PRIMARY KEY (report_id, idx)\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE report_scenario (\n"
	"	report_id INTEGER NOT NULL REFERENCES reports(id) ON DELETE CASCADE,\n"
	"	idx INTEGER NOT NULL,\n"
	"	cpu INTEGER NOT NULL,\n"
	"	text TEXT NOT NULL,\n"
	"	PRIMARY KEY (report_id, idx)\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE report_irq_events (\n"
	"	report_id INTEGER NOT NULL REFERENCES reports(id) ON DELETE CASCADE,\n"
	"	idx INTEGER NOT NULL,\n"
	"	what TEXT NOT NULL,\n"
	"	stamp INTEGER NOT NULL,\n"
	"	PRIMARY KEY (report_id, idx)\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE report_notes (\n"
	"	report_id INTEGER NOT NULL REFERENCES reports(id) ON DELETE CASCADE,\n"
	"	idx INTEGER NOT NULL,\n"
	"	text TEXT NOT NULL,\n"
	"	PRIMARY KEY (report_id, idx)\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE report_raw (\n"
	"	report_id INTEGER NOT NULL REFERENCES reports(id) ON DELETE CASCADE,\n"
	"	idx INTEGER NOT NULL,\n"
	"	lineno INTEGER NOT NULL,\n"
	"	text TEXT NOT NULL,\n"
	"	PRIMARY KEY (report_id, idx)\n"
	") WITHOUT ROWID;\n";

/*
 * Version 2: the lockdep state of the /proc files and the self-test table,
 * symbolised inline frames, and the views for the common questions.
 */
static const char migration_2[] =
	/* /proc/lockdep: one row per class */
	"CREATE TABLE classes (\n"
	"	id INTEGER PRIMARY KEY,\n"
	"	boot_id INTEGER NOT NULL REFERENCES boots(id) ON DELETE CASCADE,\n"
	"	key TEXT,\n"
	"	name TEXT NOT NULL,\n"
	"	ops INTEGER,\n"
	"	forward_deps INTEGER,\n"
	"	backward_deps INTEGER,\n"
	"	usage TEXT,\n"
	"	usage_bits INTEGER,\n"
	"	wait_outer INTEGER,\n"
	"	wait_inner INTEGER,\n"
	"	identity TEXT\n"
	");\n"
	"CREATE INDEX classes_boot_name ON classes(boot_id, name);\n"
	/* /proc/lockdep's "->" lines (and the graph export's edges) */
	"CREATE TABLE dependencies (\n"
	"	boot_id INTEGER NOT NULL REFERENCES boots(id) ON DELETE CASCADE,\n"
	"	from_class INTEGER NOT NULL REFERENCES classes(id) ON DELETE CASCADE,\n"
	"	to_class INTEGER NOT NULL REFERENCES classes(id) ON DELETE CASCADE,\n"
	"	dep_bits INTEGER,\n"
	"	distance INTEGER,\n"
	"	trace TEXT,\n"
	"	PRIMARY KEY (from_class, to_class)\n"
	") WITHOUT ROWID;\n"
	"CREATE INDEX dependencies_to ON dependencies(to_class);\n"
	/* /proc/lockdep_chains */
	"CREATE TABLE chains (\n"
	"	id INTEGER PRIMARY KEY,\n"
	"	boot_id INTEGER NOT NULL REFERENCES boots(id) ON DELETE CASCADE,\n"
	"	idx INTEGER NOT NULL,\n"
	"	irq_context INTEGER NOT NULL\n"
	");\n"
	"CREATE INDEX chains_boot ON chains(boot_id);\n"
	"CREATE TABLE chain_classes (\n"
	"	chain_id INTEGER NOT NULL REFERENCES chains(id) ON DELETE CASCADE,\n"
	"	idx INTEGER NOT NULL,\n"
	"	key TEXT,\n"
	"	name TEXT NOT NULL,\n"
	"	class_id INTEGER REFERENCES classes(id) ON DELETE CASCADE,\n"
	"	PRIMARY KEY (chain_id, idx)\n"
	") WITHOUT ROWID;\n"
	/* /proc/lockdep_stats */
	"CREATE TABLE stats (\n"
	"	boot_id INTEGER NOT NULL REFERENCES boots(id) ON DELETE CASCADE,\n"
	"	idx INTEGER NOT NULL,\n"
	"	name TEXT NOT NULL,\n"
	"	value INTEGER NOT NULL,\n"
	"	max INTEGER,\n"
	"	PRIMARY KEY (boot_id, idx)\n"
	") WITHOUT ROWID;\n"
	/* /proc/lock_stat: one row per class (and read side) */
	"CREATE TABLE lock_stat (\n"
	"	boot_id INTEGER NOT NULL REFERENCES boots(id) ON DELETE CASCADE,\n"
	"	idx INTEGER NOT NULL,\n"
	"	name TEXT NOT NULL,\n"
	"	read INTEGER NOT NULL,\n"
	"	con_bounces INTEGER,\n"
	"	contentions INTEGER,\n"
	"	waittime_min REAL,\n"
	"	waittime_max REAL,\n"
	"	waittime_total REAL,\n"
	"	waittime_avg REAL,\n"
	"	acq_bounces INTEGER,\n"
	"	acquisitions INTEGER,\n"
	"	holdtime_min REAL,\n"
	"	holdtime_max REAL,\n"
	"	holdtime_total REAL,\n"
	"	holdtime_avg REAL,\n"
	"	PRIMARY KEY (boot_id, idx)\n"
	") WITHOUT ROWID;\n"
	/* lock_stat's contention points: where waiters and holders were */
	"CREATE TABLE lock_stat_points (\n"
	"	boot_id INTEGER NOT NULL REFERENCES boots(id) ON DELETE CASCADE,\n"
	"	idx INTEGER NOT NULL,\n"
	"	class_seq INTEGER NOT NULL,\n"
	"	kind TEXT NOT NULL CHECK (kind IN ('contention', 'contending')),\n"
	"	name TEXT NOT NULL,\n"
	"	count INTEGER NOT NULL,\n"
	"	addr TEXT,\n"
	"	symbol TEXT,\n"
	"	PRIMARY KEY (boot_id, idx)\n"
	") WITHOUT ROWID;\n"
	/* the boot self-test table: one row per non-blank cell */
	"CREATE TABLE selftest (\n"
	"	boot_id INTEGER NOT NULL REFERENCES boots(id) ON DELETE CASCADE,\n"
	"	idx INTEGER NOT NULL,\n"
	"	section TEXT NOT NULL,\n"
	"	test TEXT NOT NULL,\n"
	"	variant TEXT NOT NULL,\n"
	"	result TEXT NOT NULL CHECK (result IN ('ok', 'failed', 'FAILED')),\n"
	"	PRIMARY KEY (boot_id, idx)\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE selftest_summary (\n"
	"	boot_id INTEGER PRIMARY KEY REFERENCES boots(id) ON DELETE CASCADE,\n"
	"	outcome TEXT NOT NULL,\n"
	"	failures INTEGER NOT NULL,\n"
	"	total INTEGER NOT NULL\n"
	");\n"
	/* the inline chain symbolisation found at a frame, innermost first */
	"CREATE TABLE frame_inlines (\n"
	"	report_id INTEGER NOT NULL,\n"
	"	owner TEXT NOT NULL,\n"
	"	owner_idx INTEGER NOT NULL,\n"
	"	frame_idx INTEGER NOT NULL,\n"
	"	depth INTEGER NOT NULL,\n"
	"	func TEXT NOT NULL,\n"
	"	file TEXT,\n"
	"	line INTEGER,\n"
	"	PRIMARY KEY (report_id, owner, owner_idx, frame_idx, depth),\n"
	"	FOREIGN KEY (report_id, owner, owner_idx, frame_idx)\n"
	"		REFERENCES report_frames(report_id, owner, owner_idx, idx)\n"
	"		ON DELETE CASCADE\n"
	") WITHOUT ROWID;\n"
	/* ---- views ---- */
	"CREATE VIEW boot_summary AS\n"
	"SELECT b.id, b.label, b.collected_at, b.source, b.kernel_release,\n"
	"	b.completeness,\n"
	"	(SELECT count(*) FROM reports r WHERE r.boot_id = b.id) AS reports,\n"
	"	(SELECT count(*) FROM classes c WHERE c.boot_id = b.id) AS classes\n"
	"FROM boots b;\n"
	"CREATE VIEW reports_by_type AS\n"
	"SELECT boot_id, type, count(*) AS reports,\n"
	"	count(DISTINCT dedup_key) AS distinct_reports\n"
	"FROM reports GROUP BY boot_id, type;\n"
	"CREATE VIEW report_summary AS\n"
	"SELECT r.id, r.boot_id, b.label, r.type, r.title, r.task, r.pid,\n"
	"	r.truncated,\n"
	"	(SELECT group_concat(name, ' ') FROM (SELECT DISTINCT l.name\n"
	"		FROM report_locks l WHERE l.report_id = r.id\n"
	"		ORDER BY l.idx)) AS locks\n"
	"FROM reports r JOIN boots b ON b.id = r.boot_id;\n"
	"CREATE VIEW class_dependency_counts AS\n"
	"SELECT c.boot_id, c.id AS class_id, c.name,\n"
	"	(SELECT count(*) FROM dependencies d WHERE d.from_class = c.id)\n"
	"		AS after,\n"
	"	(SELECT count(*) FROM dependencies d WHERE d.to_class = c.id)\n"
	"		AS before,\n"
	"	c.forward_deps, c.backward_deps\n"
	"FROM classes c;\n"
	/* IN-HARDIRQ-W/R = bits 0-1, IN-SOFTIRQ-W/R = bits 4-5 */
	"CREATE VIEW irq_safe_classes AS\n"
	"SELECT boot_id, id AS class_id, name, usage,\n"
	"	(usage_bits & 3) != 0 AS hardirq_safe,\n"
	"	(usage_bits & 48) != 0 AS softirq_safe\n"
	"FROM classes WHERE usage_bits & 51;\n"
	"CREATE VIEW lock_contention AS\n"
	"SELECT boot_id, name, read, contentions, waittime_total, waittime_max,\n"
	"	acquisitions, holdtime_total\n"
	"FROM lock_stat WHERE contentions > 0;\n"
	"CREATE VIEW selftest_failures AS\n"
	"SELECT boot_id, section, test, variant, result FROM selftest\n"
	"WHERE result <> 'ok';\n";

/*
 * Version 3: classes.identity filled (store/identity.h), computed here in
 * SQL for the classes stored before, exactly as store_class_identity() and
 * proc_split_name() do: a trailing "/digits" (1 to 9 digits, something
 * before the '/') is the subclass, kept unless 0; then a trailing
 * "#digits" is the version, dropped. Indexed for joins across boots.
 */
static const char migration_3[] =
	"WITH l1 AS (SELECT id, name AS n, rtrim(name, '0123456789') AS t\n"
	"	FROM classes),\n"
	"l2 AS (SELECT id, n, t, length(t) < length(n)\n"
	"	AND length(n) - length(t) <= 9 AND length(t) >= 2\n"
	"	AND substr(t, -1) = '/' AS c FROM l1),\n"
	"l3 AS (SELECT id, iif(c, substr(t, 1, length(t) - 1), n) AS b,\n"
	"	iif(c AND CAST(substr(n, length(t) + 1) AS INTEGER) > 0,\n"
	"	    '/' || CAST(substr(n, length(t) + 1) AS INTEGER), '') AS sub\n"
	"	FROM l2),\n"
	"l4 AS (SELECT id, b, sub, rtrim(b, '0123456789') AS t FROM l3),\n"
	"l5 AS (SELECT id, iif(length(t) < length(b)\n"
	"	AND length(b) - length(t) <= 9 AND length(t) >= 2\n"
	"	AND substr(t, -1) = '#', substr(t, 1, length(t) - 1), b) || sub\n"
	"	AS identity FROM l4)\n"
	"UPDATE classes SET identity = l5.identity FROM l5\n"
	"WHERE classes.id = l5.id;\n"
	"CREATE INDEX classes_identity ON classes(identity, boot_id);\n"
	/* how many classes of a boot share an identity (see identity.h) */
	"CREATE VIEW class_identities AS\n"
	"SELECT boot_id, identity, count(*) AS classes,\n"
	"	group_concat(name, ' ') AS names\n"
	"FROM classes GROUP BY boot_id, identity;\n";

/*
 * Version 4: /proc/lockdep_graph, the graph export of our kernel series
 * (store/store-export.h writes it). Its classes are joined to the
 * /proc/lockdep classes of the same boot by their printed name (name,
 * "#version" above 1, "/subclass" unless 0) and enrich those rows;
 * classes only the export has get rows of their own. Its dependencies
 * fill dep_bits, distance and trace_id of the rows /proc/lockdep gave,
 * or add rows (the export has every direct dependency, not only those
 * at distance 1). Traces are the export's, keyed by their id in the
 * kernel's trace store, with their frames when symbolised, and the
 * acquisition site the tools print.
 */
static const char migration_4[] =
	"CREATE TABLE graph_exports (\n"
	"	boot_id INTEGER PRIMARY KEY REFERENCES boots(id) ON DELETE CASCADE,\n"
	"	version INTEGER NOT NULL,\n"
	"	release TEXT,\n"
	"	build_id TEXT,\n"
	"	build_id_checked TEXT CHECK (build_id_checked IN\n"
	"		('equal', 'different', 'unknown')),\n"
	"	addresses TEXT NOT NULL CHECK (addresses IN ('raw', 'hidden')),\n"
	"	stext TEXT,\n"
	"	stext_link TEXT,\n"
	"	kaslr_offset TEXT,\n"
	"	usage_bit_names TEXT NOT NULL,\n"
	"	dep_bit_names TEXT NOT NULL,\n"
	"	classes INTEGER NOT NULL,\n"
	"	deps INTEGER NOT NULL,\n"
	"	chains INTEGER NOT NULL,\n"
	"	traces INTEGER NOT NULL,\n"
	"	complete INTEGER NOT NULL\n"
	");\n"
	"ALTER TABLE classes ADD COLUMN graph_idx INTEGER;\n"
	"ALTER TABLE classes ADD COLUMN name_version INTEGER;\n"
	"ALTER TABLE classes ADD COLUMN subclass INTEGER;\n"
	"ALTER TABLE classes ADD COLUMN usage_mask INTEGER;\n"
	"ALTER TABLE classes ADD COLUMN key_addr TEXT;\n"
	"ALTER TABLE classes ADD COLUMN key_offset INTEGER;\n"
	"ALTER TABLE classes ADD COLUMN key_link TEXT;\n"
	"ALTER TABLE classes ADD COLUMN key_symbol TEXT;\n"
	"CREATE UNIQUE INDEX classes_graph_idx ON classes(boot_id, graph_idx);\n"
	"CREATE INDEX classes_key_offset ON classes(key_offset);\n"
	"ALTER TABLE dependencies ADD COLUMN trace_id INTEGER;\n"
	/* the stack trace behind each usage bit of a class */
	"CREATE TABLE class_usage (\n"
	"	class_id INTEGER NOT NULL REFERENCES classes(id) ON DELETE CASCADE,\n"
	"	bit INTEGER NOT NULL,\n"
	"	name TEXT NOT NULL,\n"
	"	trace_id INTEGER,\n"
	"	PRIMARY KEY (class_id, bit)\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE traces (\n"
	"	boot_id INTEGER NOT NULL REFERENCES boots(id) ON DELETE CASCADE,\n"
	"	id INTEGER NOT NULL,\n"
	"	nr INTEGER NOT NULL,\n"
	"	site TEXT,\n"
	"	PRIMARY KEY (boot_id, id)\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE trace_frames (\n"
	"	boot_id INTEGER NOT NULL,\n"
	"	trace_id INTEGER NOT NULL,\n"
	"	idx INTEGER NOT NULL,\n"
	"	addr TEXT NOT NULL,\n"
	"	func TEXT,\n"
	"	off INTEGER,\n"
	"	size INTEGER,\n"
	"	file TEXT,\n"
	"	line INTEGER,\n"
	"	PRIMARY KEY (boot_id, trace_id, idx),\n"
	"	FOREIGN KEY (boot_id, trace_id) REFERENCES traces(boot_id, id)\n"
	"		ON DELETE CASCADE\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE graph_chains (\n"
	"	boot_id INTEGER NOT NULL REFERENCES boots(id) ON DELETE CASCADE,\n"
	"	idx INTEGER NOT NULL,\n"
	"	irq_context INTEGER NOT NULL,\n"
	"	depth INTEGER NOT NULL,\n"
	"	PRIMARY KEY (boot_id, idx)\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE graph_chain_classes (\n"
	"	boot_id INTEGER NOT NULL,\n"
	"	chain_idx INTEGER NOT NULL,\n"
	"	pos INTEGER NOT NULL,\n"
	"	class_id INTEGER NOT NULL REFERENCES classes(id) ON DELETE CASCADE,\n"
	"	PRIMARY KEY (boot_id, chain_idx, pos),\n"
	"	FOREIGN KEY (boot_id, chain_idx) REFERENCES graph_chains(boot_id, idx)\n"
	"		ON DELETE CASCADE\n"
	") WITHOUT ROWID;\n"
	/* where each dependency was taken: its trace's site */
	"CREATE VIEW dependency_sites AS\n"
	"SELECT d.boot_id, d.from_class, d.to_class, f.name AS from_name,\n"
	"	t.name AS to_name, d.dep_bits, d.distance, d.trace_id, tr.site\n"
	"FROM dependencies d JOIN classes f ON f.id = d.from_class\n"
	"JOIN classes t ON t.id = d.to_class\n"
	"LEFT JOIN traces tr ON tr.boot_id = d.boot_id AND tr.id = d.trace_id;\n";

/*
 * Version 5: a boot's identity that survives a copy into another
 * database (lockdep-merge(1)): 32 random hex digits, given to every boot
 * when it is stored and to the boots stored before. A merge skips the
 * boots whose uuid the database already holds.
 */
static const char migration_5[] =
	"ALTER TABLE boots ADD COLUMN uuid TEXT;\n"
	"UPDATE boots SET uuid = lower(hex(randomblob(16)));\n"
	"CREATE UNIQUE INDEX boots_uuid ON boots(uuid);\n";

/*
 * Version 6: our databases say they are ours (SQLite's application_id),
 * so that --db on another application's file is refused instead of
 * extended. The pragma writes the database header, inside the
 * migration's transaction like every other step.
 */
static const char migration_6[] =
	"PRAGMA application_id = 1279542608;\n";	/* STORE_APPLICATION_ID */

/* Version 7: why a partial boot is partial, in words (NULL if complete). */
static const char migration_7[] =
	"ALTER TABLE boots ADD COLUMN partial_reason TEXT;\n";

/*
 * Version 8: the workload a boot ran (lockdep-collect --run), and where
 * each report falls in the kernel log, so that report_workload_phase can
 * say whether it came before, during or after the workload.
 */
static const char migration_8[] =
	"ALTER TABLE reports ADD COLUMN kmsg_seq INTEGER;\n"
	"CREATE TABLE workloads (\n"
	"	id INTEGER PRIMARY KEY,\n"
	"	boot_id INTEGER NOT NULL UNIQUE REFERENCES boots(id) ON DELETE CASCADE,\n"
	"	name TEXT NOT NULL,\n"
	"	state TEXT NOT NULL\n"
	"		CHECK (state IN ('exited', 'running', 'not started')),\n"
	"	exit_code INTEGER,\n"
	"	signal INTEGER,\n"
	"	duration_ms INTEGER,\n"
	"	start_seq INTEGER,\n"
	"	end_seq INTEGER,\n"
	"	output BLOB,\n"
	"	output_bytes INTEGER,\n"
	"	error TEXT\n"
	");\n"
	/* a report printed on the console after the last kmsg record has no kmsg_seq */
	"CREATE VIEW report_workload_phase AS\n"
	"SELECT r.id AS report_id, r.boot_id AS boot_id, w.name AS workload,\n"
	"	CASE\n"
	"	WHEN w.start_seq IS NULL THEN NULL\n"
	"	WHEN r.kmsg_seq IS NULL THEN\n"
	"		CASE WHEN w.state = 'exited' THEN 'after' ELSE 'during' END\n"
	"	WHEN r.kmsg_seq < w.start_seq THEN 'before'\n"
	"	WHEN w.end_seq IS NULL OR r.kmsg_seq < w.end_seq THEN 'during'\n"
	"	ELSE 'after'\n"
	"	END AS phase\n"
	"FROM reports r JOIN workloads w ON w.boot_id = r.boot_id;\n";

/*
 * Version 9: what the boot's kernel did not offer (a kernel without our
 * series: no /proc/lockdep_graph, no scenario module), as lockdep-collect
 * said it; NULL when it offered everything or the source cannot tell.
 */
static const char migration_9[] =
	"ALTER TABLE boots ADD COLUMN not_offered TEXT;\n";

/*
 * Version 10: each boot's dependency rows as one checked blob
 * (store/dep-pack.h), so that a graph or a diff of a million edges reads
 * one value instead of stepping a million rows. The writers add the pack
 * when they commit a boot (and store.c packs the boots stored before,
 * at the last migration: store_pack_restamp()).
 *
 * The triggers drop a boot's pack whenever a dependency or class row of
 * its boot is inserted, deleted or has a column the pack depends on
 * changed. INSERT OR REPLACE, REPLACE and UPDATE OR REPLACE delete the
 * row they conflict with without firing its delete trigger (SQLite's
 * recursive_triggers is off), so the insert and update triggers run
 * before the row is written and drop the pack of the row it replaces
 * too (the insert triggers run their DELETE only when there is such a
 * pack or row: a boot's million inserts pay two lookups each). A change
 * they cannot see (one made without the triggers) is caught by the
 * reader: a pack records its boot's class count, smallest and largest
 * class id and row count, and one that no longer matches is not read. dependencies_boot makes that row count, and a writer's, a
 * range of an index instead of a scan of every boot's rows.
 */
static const char migration_10[] =
	"CREATE TABLE dependency_packs (\n"
	"	boot_id INTEGER PRIMARY KEY REFERENCES boots(id) ON DELETE CASCADE,\n"
	"	pack BLOB NOT NULL\n"
	");\n"
	"CREATE INDEX dependencies_boot ON dependencies(boot_id);\n"
	"CREATE TRIGGER dependency_packs_dep_insert BEFORE INSERT ON dependencies\n"
	"WHEN EXISTS (SELECT 1 FROM dependency_packs WHERE boot_id = NEW.boot_id)\n"
	"	OR EXISTS (SELECT 1 FROM dependencies\n"
	"	 WHERE from_class = NEW.from_class AND to_class = NEW.to_class)\n"
	"BEGIN DELETE FROM dependency_packs WHERE boot_id IN (NEW.boot_id,\n"
	"	(SELECT boot_id FROM dependencies\n"
	"	 WHERE from_class = NEW.from_class AND to_class = NEW.to_class));\n"
	"END;\n"
	"CREATE TRIGGER dependency_packs_dep_update BEFORE UPDATE OF boot_id,\n"
	"	from_class, to_class, dep_bits, distance, trace, trace_id\n"
	"	ON dependencies\n"
	"BEGIN DELETE FROM dependency_packs WHERE boot_id IN (OLD.boot_id,\n"
	"	NEW.boot_id, (SELECT boot_id FROM dependencies\n"
	"	 WHERE from_class = NEW.from_class AND to_class = NEW.to_class));\n"
	"END;\n"
	"CREATE TRIGGER dependency_packs_dep_delete AFTER DELETE ON dependencies\n"
	"BEGIN DELETE FROM dependency_packs WHERE boot_id = OLD.boot_id; END;\n"
	"CREATE TRIGGER dependency_packs_class_insert BEFORE INSERT ON classes\n"
	"WHEN EXISTS (SELECT 1 FROM dependency_packs WHERE boot_id = NEW.boot_id)\n"
	"	OR EXISTS (SELECT 1 FROM classes WHERE id = NEW.id)\n"
	"BEGIN DELETE FROM dependency_packs WHERE boot_id IN (NEW.boot_id,\n"
	"	(SELECT boot_id FROM classes WHERE id = NEW.id)); END;\n"
	"CREATE TRIGGER dependency_packs_class_update BEFORE UPDATE OF id, boot_id\n"
	"	ON classes\n"
	"BEGIN DELETE FROM dependency_packs WHERE boot_id IN (OLD.boot_id,\n"
	"	NEW.boot_id, (SELECT boot_id FROM classes WHERE id = NEW.id)); END;\n"
	"CREATE TRIGGER dependency_packs_class_delete AFTER DELETE ON classes\n"
	"BEGIN DELETE FROM dependency_packs WHERE boot_id = OLD.boot_id; END;\n";

/*
 * Version 11: the schema cookie (PRAGMA schema_version) each pack was
 * written under. SQLite bumps the cookie on every change of the schema,
 * dropping a trigger included, so a pack whose stamp is the cookie of
 * now has had the triggers of version 10 watching its boot ever since
 * it was written: the reader compares only its ids with the rows' (an
 * index scan; the pack itself may be forged) and takes its other fields
 * as the rows'. Any other pack, unstamped or from before a schema
 * change (VACUUM too), is compared with the rows field by field. Every migration changes the cookie: the last one a database
 * goes through writes its packs anew, stamped (store_pack_restamp()).
 */
static const char migration_11[] =
	"ALTER TABLE dependency_packs ADD COLUMN schema_version INTEGER;\n";

/*
 * Version 12: the kernel's lockdep dependency events (kernel-patches/
 * 0009) as they streamed during the collection, so that a workload run
 * shows when each dependency and usage bit first appeared. A boot has an
 * event_streams row only when the agent offered the events; its
 * dependency_events rows are the events in stream order (seq from 0),
 * with the trace clock's boot-relative time and the kernel's class
 * indices and trace ids (the graph_idx of classes and the trace_id of
 * dependencies and traces). A class index may be reused after a
 * class_zapped event; dependency_first_seen takes that into account.
 */
static const char migration_12[] =
	"CREATE TABLE event_streams (\n"
	"	boot_id INTEGER PRIMARY KEY REFERENCES boots(id) ON DELETE CASCADE,\n"
	"	events INTEGER NOT NULL,\n"
	"	lost INTEGER NOT NULL,\n"
	"	other INTEGER NOT NULL\n"
	");\n"
	"CREATE TABLE dependency_events (\n"
	"	boot_id INTEGER NOT NULL REFERENCES boots(id) ON DELETE CASCADE,\n"
	"	seq INTEGER NOT NULL,\n"
	"	time_us INTEGER NOT NULL,\n"
	"	cpu INTEGER NOT NULL,\n"
	"	kind TEXT NOT NULL\n"
	"		CHECK (kind IN ('dependency', 'usage', 'class_zapped')),\n"
	"	class_idx INTEGER NOT NULL,\n"
	"	to_idx INTEGER,\n"
	"	dep_bits INTEGER,\n"
	"	distance INTEGER,\n"
	"	usage_bit INTEGER,\n"
	"	trace_id INTEGER,\n"
	"	PRIMARY KEY (boot_id, seq)\n"
	") WITHOUT ROWID;\n"
	"CREATE INDEX dependency_events_class ON\n"
	"	dependency_events(boot_id, kind, class_idx, to_idx);\n"
	/* the first event of each dependency of the graph, not undone by a zap */
	"CREATE VIEW dependency_first_seen AS\n"
	"SELECT d.boot_id, d.from_class, d.to_class, min(e.time_us) AS first_us\n"
	"FROM dependencies d JOIN classes f ON f.id = d.from_class\n"
	"JOIN classes t ON t.id = d.to_class\n"
	"JOIN dependency_events e ON e.boot_id = d.boot_id\n"
	"	AND e.kind = 'dependency' AND e.class_idx = f.graph_idx\n"
	"	AND e.to_idx = t.graph_idx\n"
	"WHERE NOT EXISTS (SELECT 1 FROM dependency_events z\n"
	"	WHERE z.boot_id = e.boot_id AND z.kind = 'class_zapped'\n"
	"	AND z.class_idx IN (e.class_idx, e.to_idx) AND z.seq > e.seq)\n"
	"GROUP BY d.boot_id, d.from_class, d.to_class;\n";

/*
 * Version 13: the lock:lockdep_class events of the v3 series, a class
 * registered, so that a stream names its classes without a graph copy.
 * Their seq is the event's place in the stream, one sequence with
 * dependency_events (no seq is in both tables); a row of class_events
 * names its class_idx from its seq until the next class_zapped or class
 * event of that index. class_event_spans says until when;
 * dependency_event_names names both
 * classes of each dependency_events row through them (NULL when the
 * stream registered no class of that index before the event: a class
 * lockdep knew before the events were on).
 */
static const char migration_13[] =
	"CREATE TABLE class_events (\n"
	"	boot_id INTEGER NOT NULL REFERENCES boots(id) ON DELETE CASCADE,\n"
	"	seq INTEGER NOT NULL,\n"
	"	time_us INTEGER NOT NULL,\n"
	"	cpu INTEGER NOT NULL,\n"
	"	class_idx INTEGER NOT NULL,\n"
	"	key_addr TEXT,\n"
	"	subclass INTEGER NOT NULL,\n"
	"	name_version INTEGER NOT NULL,\n"
	"	name TEXT NOT NULL,\n"
	"	PRIMARY KEY (boot_id, seq)\n"
	") WITHOUT ROWID;\n"
	"CREATE INDEX class_events_class ON\n"
	"	class_events(boot_id, class_idx, seq);\n"
	/*
	 * Each bound is one index seek (a zap has no to_idx: "IS NULL"
	 * lets the seek use dependency_events_class through seq), so that
	 * an index zapped and reused many times costs no scan per event.
	 */
	"CREATE VIEW class_event_spans AS\n"
	"SELECT c.boot_id, c.class_idx, c.seq,\n"
	"	(SELECT min(s) FROM (\n"
	"	SELECT (SELECT n.seq FROM class_events n WHERE n.boot_id = c.boot_id\n"
	"	AND n.class_idx = c.class_idx AND n.seq > c.seq\n"
	"	ORDER BY n.seq LIMIT 1) AS s\n"
	"	UNION ALL\n"
	"	SELECT (SELECT z.seq FROM dependency_events z\n"
	"	WHERE z.boot_id = c.boot_id AND z.kind = 'class_zapped'\n"
	"	AND z.class_idx = c.class_idx AND z.to_idx IS NULL\n"
	"	AND z.seq > c.seq ORDER BY z.seq LIMIT 1))) AS until_seq,\n"
	"	c.name || CASE WHEN c.name_version > 1 THEN '#' || c.name_version\n"
	"	ELSE '' END || CASE WHEN c.subclass THEN '/' || c.subclass\n"
	"	ELSE '' END AS printed_name, c.key_addr\n"
	"FROM class_events c;\n"
	/*
	 * The last registration before the event, if its span reaches it:
	 * found in the index alone (the planner would walk the table's
	 * primary key backwards for the whole row), then its span by key.
	 */
	"CREATE VIEW dependency_event_names AS\n"
	"SELECT e.boot_id, e.seq,\n"
	"	(SELECT CASE WHEN s.until_seq IS NULL OR e.seq <= s.until_seq\n"
	"	THEN s.printed_name END FROM class_event_spans s\n"
	"	WHERE s.boot_id = e.boot_id AND s.seq = (SELECT c.seq\n"
	"	FROM class_events c WHERE c.boot_id = e.boot_id\n"
	"	AND c.class_idx = e.class_idx AND c.seq < e.seq\n"
	"	ORDER BY c.seq DESC LIMIT 1)) AS class_name,\n"
	"	(SELECT CASE WHEN s.until_seq IS NULL OR e.seq <= s.until_seq\n"
	"	THEN s.printed_name END FROM class_event_spans s\n"
	"	WHERE s.boot_id = e.boot_id AND s.seq = (SELECT c.seq\n"
	"	FROM class_events c WHERE c.boot_id = e.boot_id\n"
	"	AND c.class_idx = e.to_idx AND c.seq < e.seq\n"
	"	ORDER BY c.seq DESC LIMIT 1)) AS to_name\n"
	"FROM dependency_events e;\n";

/*
 * Version 14: the class indexes of versions 3 and 4 with the boot first.
 * On (identity, boot_id) and (key_offset) a boot's classes sat on pages
 * all over each index, so that storing or merging a boot dirtied about
 * a page per class, wherever the history's other boots had theirs: a
 * merge's cost grew with the history. With the boot first a new boot's
 * entries are one run at the end of each index. Joins of two boots by
 * identity or key offset name the boots and still seek.
 */
static const char migration_14[] =
	"DROP INDEX classes_identity;\n"
	"CREATE INDEX classes_identity ON classes(boot_id, identity);\n"
	"DROP INDEX classes_key_offset;\n"
	"CREATE INDEX classes_key_offset ON classes(boot_id, key_offset);\n";

/*
 * Version 15: the union of the boots, kept by lockdep-merge
 * (store/store-union.h), so that the graph of every boot of a fleet
 * reads each distinct class and dependency once instead of every boot's
 * rows. A cache of the rows, written only by the merge; its invariants:
 *
 *  (U1) union_state has one row, kept = 1, stamped with the schema
 *       cookie of now, only while the union tables are exactly the union
 *       of the boots of union_packs, computed from their rows as
 *       lockdep-graph --boots would; its generation is a random number
 *       each writer draws anew (a writer that remembers the union it
 *       wrote trusts its memory only while it finds its own number).
 *       Any other state means "not kept":
 *       readers read the boots' rows, the next merge builds it anew.
 *  (U2) union_classes holds one row per node of that graph: a class
 *       identity (identity set, class_id NULL), or a class of an
 *       identity some boot of the union holds twice, or of none
 *       (union_ambiguous), a node of its own (class_id set, identity
 *       NULL). first_class is the smallest classes.id of the node: the
 *       graph's node order.
 *  (U3) union_deps holds each distinct (from_id, to_id) of union_classes
 *       ids once, with its dependency bits ORed, its smallest distance
 *       and the site of the first boot that has one (site_boot).
 *  (U4) union_packs holds, for each boot of the union, how many of its
 *       classes are nodes of their own, its nodes (union_classes ids) and
 *       its dependencies as (from_id, to_id) pairs (store/store-union.c's
 *       format). A node's count of boots is counted from them.
 *  (U5) The triggers below drop the state row as soon as a row the
 *       union was computed from changes (a class, dependency or trace of
 *       a boot of the union, or the boot itself): the union is never
 *       read stale. The merge copies with triggers off and keeps the
 *       union itself, in the same transaction.
 */
static const char migration_15[] =
	"CREATE TABLE union_state (\n"
	"	schema_version INTEGER,\n"
	"	kept INTEGER NOT NULL,\n"
	"	generation INTEGER NOT NULL\n"
	");\n"
	"CREATE TABLE union_classes (\n"
	"	id INTEGER PRIMARY KEY,\n"
	"	identity TEXT UNIQUE,\n"
	"	class_id INTEGER UNIQUE,\n"
	"	name TEXT NOT NULL,\n"
	"	usage_bits INTEGER NOT NULL,\n"
	"	first_class INTEGER NOT NULL\n"
	");\n"
	"CREATE TABLE union_ambiguous (\n"
	"	identity TEXT PRIMARY KEY\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE union_deps (\n"
	"	from_id INTEGER NOT NULL,\n"
	"	to_id INTEGER NOT NULL,\n"
	"	dep_bits INTEGER,\n"
	"	distance INTEGER,\n"
	"	site TEXT,\n"
	"	site_boot INTEGER,\n"
	"	PRIMARY KEY (from_id, to_id)\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE union_packs (\n"
	"	boot_id INTEGER PRIMARY KEY REFERENCES boots(id) ON DELETE CASCADE,\n"
	"	pack BLOB NOT NULL\n"
	");\n"
	"CREATE TRIGGER union_boot_delete BEFORE DELETE ON boots\n"
	"WHEN EXISTS (SELECT 1 FROM union_packs WHERE boot_id = OLD.id)\n"
	"BEGIN DELETE FROM union_state; END;\n"
	"CREATE TRIGGER union_boot_update AFTER UPDATE OF id ON boots\n"
	"BEGIN DELETE FROM union_state; END;\n"
	"CREATE TRIGGER union_class_insert AFTER INSERT ON classes\n"
	"WHEN EXISTS (SELECT 1 FROM union_packs WHERE boot_id = NEW.boot_id)\n"
	"BEGIN DELETE FROM union_state; END;\n"
	"CREATE TRIGGER union_class_update AFTER UPDATE ON classes\n"
	"WHEN EXISTS (SELECT 1 FROM union_packs\n"
	"	WHERE boot_id IN (OLD.boot_id, NEW.boot_id))\n"
	"BEGIN DELETE FROM union_state; END;\n"
	"CREATE TRIGGER union_class_delete AFTER DELETE ON classes\n"
	"WHEN EXISTS (SELECT 1 FROM union_packs WHERE boot_id = OLD.boot_id)\n"
	"BEGIN DELETE FROM union_state; END;\n"
	"CREATE TRIGGER union_dep_insert AFTER INSERT ON dependencies\n"
	"WHEN EXISTS (SELECT 1 FROM union_packs WHERE boot_id = NEW.boot_id)\n"
	"BEGIN DELETE FROM union_state; END;\n"
	"CREATE TRIGGER union_dep_update AFTER UPDATE ON dependencies\n"
	"WHEN EXISTS (SELECT 1 FROM union_packs\n"
	"	WHERE boot_id IN (OLD.boot_id, NEW.boot_id))\n"
	"BEGIN DELETE FROM union_state; END;\n"
	"CREATE TRIGGER union_dep_delete AFTER DELETE ON dependencies\n"
	"WHEN EXISTS (SELECT 1 FROM union_packs WHERE boot_id = OLD.boot_id)\n"
	"BEGIN DELETE FROM union_state; END;\n"
	"CREATE TRIGGER union_trace_insert AFTER INSERT ON traces\n"
	"WHEN EXISTS (SELECT 1 FROM union_packs WHERE boot_id = NEW.boot_id)\n"
	"BEGIN DELETE FROM union_state; END;\n"
	"CREATE TRIGGER union_trace_update AFTER UPDATE ON traces\n"
	"WHEN EXISTS (SELECT 1 FROM union_packs\n"
	"	WHERE boot_id IN (OLD.boot_id, NEW.boot_id))\n"
	"BEGIN DELETE FROM union_state; END;\n"
	"CREATE TRIGGER union_trace_delete AFTER DELETE ON traces\n"
	"WHEN EXISTS (SELECT 1 FROM union_packs WHERE boot_id = OLD.boot_id)\n"
	"BEGIN DELETE FROM union_state; END;\n";

/*
 * Version 16: a C reproducer's run (vm/repro.sh, lockdep-collect
 * --repro-source): its source (name, text, the FNV-1a hash that groups
 * the runs of one source), the config fragment and the patches of the
 * kernel it ran on, and the verdict, fixed when the boot is stored: the
 * first report that came while it ran (by seq, unique in its boot, so a
 * merge keeps it) and how long the run took. lockdep-report reads them
 * as "reproduced on A, fixed by P on B".
 */
static const char migration_16[] =
	"CREATE TABLE repro_runs (\n"
	"	id INTEGER PRIMARY KEY,\n"
	"	boot_id INTEGER NOT NULL UNIQUE REFERENCES boots(id) ON DELETE CASCADE,\n"
	"	source_name TEXT NOT NULL,\n"
	"	source_hash TEXT NOT NULL,\n"
	"	source BLOB NOT NULL,\n"
	"	fragment_name TEXT,\n"
	"	fragment BLOB,\n"
	"	patch_names TEXT,\n"
	"	patches BLOB,\n"
	"	reproduced INTEGER NOT NULL CHECK (reproduced IN (0, 1)),\n"
	"	report_seq INTEGER,\n"
	"	duration_ms INTEGER\n"
	");\n"
	"CREATE INDEX repro_runs_source ON repro_runs(source_hash);\n";

/*
 * Version 17: lockdep_stats over time. The agent samples
 * /proc/lockdep_stats every few seconds of a boot, and once more, with
 * the graph export, the moment a "BUG: MAX_... too low!" record
 * arrives; it keeps them as one series file (/run/lockdep/stats, format
 * in lockdep-agent(8)). stats_samples has a row per sample in the order
 * of the file (idx): the agent's sample number (seq: a number skipped
 * is a sample lost, one repeated or going back a damaged series, kept
 * as read), the guest's monotonic time it was read at, its kind, and
 * for a snapshot the kmsg sequence number of the record that fired it,
 * the report parsed from that record (report_id: NULL when the log has
 * no such report, which lockdep-report says) and the copy of the graph
 * export taken with it (graph_path, a row of files). Each sample's
 * lines are rows of stats_sample_values in the order printed, every
 * line kept, known label or not (known 0: a label no kernel the parser
 * knows prints; newer kernels add lines). stats_sample_steps pairs each
 * line with the same line of the sample before: the time between them
 * and the change, so that a counter that went back or a gap in the
 * series is one query.
 */
static const char migration_17[] =
	"CREATE TABLE stats_samples (\n"
	"	boot_id INTEGER NOT NULL REFERENCES boots(id) ON DELETE CASCADE,\n"
	"	idx INTEGER NOT NULL,\n"
	"	seq INTEGER NOT NULL,\n"
	"	time_ms INTEGER NOT NULL,\n"
	"	kind TEXT NOT NULL CHECK (kind IN ('periodic', 'snapshot')),\n"
	"	interval_ms INTEGER,\n"
	"	kmsg_seq INTEGER,\n"
	"	report_id INTEGER REFERENCES reports(id) ON DELETE SET NULL,\n"
	"	graph_path TEXT,\n"
	"	PRIMARY KEY (boot_id, idx)\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE stats_sample_values (\n"
	"	boot_id INTEGER NOT NULL REFERENCES boots(id) ON DELETE CASCADE,\n"
	"	sample_idx INTEGER NOT NULL,\n"
	"	idx INTEGER NOT NULL,\n"
	"	name TEXT NOT NULL,\n"
	"	value INTEGER NOT NULL,\n"
	"	max INTEGER,\n"
	"	known INTEGER NOT NULL,\n"
	"	PRIMARY KEY (boot_id, sample_idx, idx)\n"
	") WITHOUT ROWID;\n"
	"CREATE VIEW stats_sample_steps AS\n"
	"SELECT v.boot_id, v.sample_idx, v.name, s.time_ms - ps.time_ms AS dt_ms,\n"
	"	v.value - p.value AS delta, v.value, v.max\n"
	"FROM stats_sample_values v\n"
	"JOIN stats_samples s ON s.boot_id = v.boot_id AND s.idx = v.sample_idx\n"
	"JOIN stats_samples ps ON ps.boot_id = s.boot_id AND ps.idx = s.idx - 1\n"
	"JOIN stats_sample_values p ON p.boot_id = v.boot_id\n"
	"	AND p.sample_idx = ps.idx AND p.name = v.name;\n";

const char *const store_migrations[] = {
	migration_1,
	migration_2,
	migration_3,
	migration_4,
	migration_5,
	migration_6,
	migration_7,
	migration_8,
	migration_9,
	migration_10,
	migration_11,
	migration_12,
	migration_13,
	migration_14,
	migration_15,
	migration_16,
	migration_17,
};

const int store_app_id_version = 6;

const int store_nr_migrations =
	sizeof(store_migrations) / sizeof(store_migrations[0]);
