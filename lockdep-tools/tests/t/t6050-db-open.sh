#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='which databases the tools open, and how

A database of ours carries PRAGMA application_id; another application'\''s
SQLite file is refused, not extended. Readers (lockdep-report, -graph,
-diff) open read-only: a database the user cannot write, in a directory
the user cannot write, is still read, and never migrated. An empty --db
and a negative user_version are named, not silently lost or exit 2 with
no word.'
. "$(dirname "$0")/lib.sh"

LOG=$CORPUS/034-circular.txt
collect() { "$BIN/lockdep-collect" "$@"; }
APP_ID=1279542608	# 0x4c444550, "LDEP"

# readers_refuse DB PATTERN: lockdep-report and -graph exit 2 on DB,
# saying PATTERN
readers_refuse() {
	local tool rc
	for tool in lockdep-report lockdep-graph; do
		test_expect_code 2 "$BIN/$tool" --db "$1" >out 2>err && grep -q "$2" err || return 1
	done
}

# as_other CMD...: run CMD as a user who owns nothing here (root would
# write anywhere), in the scratch directory it can enter
as_other() {
	if [ "$(id -u)" = 0 ]; then
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	else
		"$@"
	fi
}

test_expect_success 'a new database carries our application_id' '
	collect --db new.db --log "$LOG" >/dev/null &&
	test "$(sqlite3 new.db "PRAGMA application_id")" = $APP_ID
'

test_expect_success 'another application'\''s database: refused, untouched' '
	sqlite3 other.db "CREATE TABLE t(x); INSERT INTO t VALUES (1)" &&
	cp other.db other.orig &&
	test_expect_code 2 collect --db other.db --log "$LOG" 2>err && grep -q "other.db.* not a lockdep database" err &&
	cmp other.db other.orig &&
	sqlite3 app.db "PRAGMA application_id = 42; CREATE TABLE boots(x)" &&
	cp app.db app.orig &&
	test_expect_code 2 collect --db app.db --log "$LOG" 2>err && grep -q "app.db.* application_id is 0x0000002a" err &&
	cmp app.db app.orig &&
	readers_refuse other.db "not a lockdep database" &&
	cmp other.db other.orig
'

test_expect_success 'an empty SQLite file is ours to fill' '
	: >zero.db &&
	collect --db zero.db --log "$LOG" >/dev/null &&
	test "$(sqlite3 zero.db "PRAGMA application_id")" = $APP_ID
'

test_expect_success 'our database from before application_id: opened, migrated, marked' '
	collect --db old.db --log "$LOG" >/dev/null &&
	# back to version 5: undo migrations 13 (class events), 12
	# (dependency events), 11 and 10 (dependency_packs), 9
	# (not_offered), 8 (workloads), 7 (partial_reason) and 6
	sqlite3 old.db "$UNDO_V12; $UNDO_V10;
		ALTER TABLE boots DROP COLUMN not_offered;
		DROP VIEW report_workload_phase; DROP TABLE workloads;
		ALTER TABLE reports DROP COLUMN kmsg_seq;
		ALTER TABLE boots DROP COLUMN partial_reason;
		PRAGMA application_id = 0; PRAGMA user_version = 5" &&
	"$BIN/lockdep-report" --db old.db >out 2>err &&
	grep -q "schema version 5: reading a copy migrated" err &&
	test "$(sqlite3 old.db "PRAGMA user_version")" = 5 &&
	collect --db old.db --log "$LOG" >/dev/null &&
	test "$(sqlite3 old.db "PRAGMA application_id")" = $APP_ID &&
	test "$(sqlite3 old.db "SELECT count(*) FROM boots")" = 2 &&
	"$BIN/lockdep-report" --db old.db --all >out &&
	test "$(grep -c "^report " out)" = 2
'

test_expect_success 'a database of version 4: migrated, every old boot given its own uuid' '
	collect --db v4.db --log "$LOG" >/dev/null &&
	collect --db v4.db --log "$LOG" >/dev/null &&
	# back to version 4: as above, and migration 5 (uuid) undone too
	sqlite3 v4.db "$UNDO_V12; $UNDO_V10;
		ALTER TABLE boots DROP COLUMN not_offered;
		DROP VIEW report_workload_phase; DROP TABLE workloads;
		ALTER TABLE reports DROP COLUMN kmsg_seq;
		ALTER TABLE boots DROP COLUMN partial_reason;
		DROP INDEX boots_uuid; ALTER TABLE boots DROP COLUMN uuid;
		PRAGMA application_id = 0; PRAGMA user_version = 4" &&
	collect --db v4.db --log "$LOG" >/dev/null &&
	test "$(sqlite3 v4.db "PRAGMA user_version")" -gt 4 &&
	test "$(sqlite3 v4.db "SELECT count(DISTINCT uuid) FROM boots
		WHERE length(uuid) = 32 AND uuid NOT GLOB '\''*[^0-9a-f]*'\''")" = 3
'

test_expect_success 'a negative user_version is named' '
	collect --db neg.db --log "$LOG" >/dev/null &&
	sqlite3 neg.db "PRAGMA user_version = -3" && cp neg.db neg.orig &&
	for tool in lockdep-report lockdep-graph lockdep-collect; do
		args="--db neg.db" &&
		if [ $tool = lockdep-collect ]; then args="$args --log $LOG"; fi &&
		test_expect_code 2 "$BIN/$tool" $args >out 2>err && grep -q "neg.db.*schema version -3" err || return 1
	done &&
	test_expect_code 2 "$BIN/lockdep-diff" neg.db:1 neg.db:1 >out 2>err && grep -q "schema version -3" err &&
	cmp neg.db neg.orig
'

test_expect_success '--db "" is refused by every tool' '
	test_expect_code 2 collect --db "" --log "$LOG" >out 2>err && grep -q "empty" err && test_cmp /dev/null out &&
	readers_refuse "" "empty"
'

test_expect_success 'readers read a database they cannot write, in a directory they cannot write' '
	chmod 755 "$TRASH" && mkdir ro &&
	collect --db ro/lockdep.db --log "$LOG" >/dev/null &&
	collect --db ro/lockdep.db --log "$LOG" >/dev/null &&
	cp ro/lockdep.db before && "$BIN/lockdep-report" --db before --all >want &&
	chmod 444 ro/lockdep.db && chmod 555 ro &&
	as_other "$BIN/lockdep-report" --db ro/lockdep.db --all >got &&
	test_cmp want got &&
	as_other "$BIN/lockdep-graph" --db ro/lockdep.db --boot 1 >/dev/null &&
	as_other "$BIN/lockdep-diff" ro/lockdep.db:1 ro/lockdep.db:2 >/dev/null &&
	test "$(ls ro)" = lockdep.db && cmp before ro/lockdep.db
'

test_expect_success 'readers never migrate the file: an old database stays old' '
	collect --db v4.db --log "$LOG" >/dev/null &&
	# a schema of now that says 3: migrating the copy fails, named
	sqlite3 v4.db "PRAGMA user_version = 3" && cp v4.db v4.orig &&
	readers_refuse v4.db "unable to migrate the schema of .v4.db." &&
	cmp v4.db v4.orig
'

test_expect_success 'man pages: application_id and read-only readers' '
	grep -q "application_id" "$TOP/lockdep-tools/man/lockdep-db.5" &&
	for m in report graph diff; do
		grep -qi "read-only" "$TOP/lockdep-tools/man/lockdep-$m.1" || return 1
	done
'

test_done
