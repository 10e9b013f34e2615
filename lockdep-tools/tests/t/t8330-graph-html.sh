#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='lockdep-graph -T html: the explorer, in a real browser

The page of a real boot database: the 6.1 fixtures as a raw directory
with the graph export and the dependency event stream (as t6810 makes
it), and a second boot whose /proc/lockdep has static_call_mutex ->
text_mutex turned around (as t8000 does), so that the union of the two
has a cycle no single boot saw. Chromium, headless, loads each page
from disk and runs its #selftest hook, which drives the page as a
reader would (typing into the search box, clicking a result, then the
class in the drawing, filling the path finder and pressing "find") and
writes what happened into the DOM; --dump-dom gives it back. A class
named like markup must reach the page as text. The screenshot of the
last view is kept in build/test-artifacts/explorer.png.'
. "$(dirname "$0")/lib.sh"

CHROMIUM=$(command -v chromium || command -v chromium-browser) ||
	test_skip_all 'the explorer in a browser' 'no chromium (make deps installs it)'

DB=$TRASH/db
ART=$TOP/build/test-artifacts
graph() { "$BIN/lockdep-graph" "$@"; }
q() { sqlite3 "$DB" "$1"; }
uri() { printf '%s' "$1" | jq -sRr @uri; }

# browse PAGE STEPS [chromium options...]: the page's DOM after its
# #selftest=STEPS ran, on stdout
browse() {
	local page=$1 steps=$2
	shift 2
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
		--disable-background-networking --disable-component-update \
		--disable-sync --no-first-run --user-data-dir="$(mktemp -d -p "$TRASH")" \
		--virtual-time-budget=5000 "$@" "file://$page#selftest=$steps" \
		2>>"$TRASH/chromium.log"
}

# selftest_result DOM: the lines the page's #selftest wrote
selftest_result() {
	sed -n '/<pre id="selftest-result">/,/<\/pre>/{
		s/^<pre id="selftest-result">//; /^<\/pre>$/d; p; }' "$1"
}

# the fixtures' raw directory with the export and the event stream
raw_from_fixtures "$TRASH/raw" "" graph &&
cp "$FIX61/events" "$TRASH/raw/events" &&
echo "events $(wc -c <"$TRASH/raw/events")" >>"$TRASH/raw/MANIFEST" &&
(cd "$TRASH" && collect_rc 3 --db "$DB" --raw-dir raw --label fixture) ||
	echo "# building the database failed: $(cat "$TRASH/err")"
mkdir -p "$TRASH/ba" &&
plain_proc_dir "$TRASH/ba" &&
awk -v from=static_call_mutex -v to=text_mutex '
	/^[^ ]/ { cls = $0; sub(/^.*: /, "", cls) }
	/^ -> / { n = $0; sub(/^ -> \[[^]]*\] /, "", n)
		  if (cls == from && n == to) next }
	{ print }
	/^[^ ]/ && cls == to { print " -> [(____ptrval____)] " from }' \
	<"$FIX61/lockdep" >"$TRASH/ba/lockdep" &&
"$BIN/lockdep-collect" --db "$DB" --proc-dir "$TRASH/ba" --label ba >/dev/null 2>&1

test_expect_success '-T html: one page, nothing fetched from anywhere' '
	graph --db "$DB" --boot fixture -T html -o page.html &&
	head -n 1 page.html | grep -qx "<!DOCTYPE html>" &&
	grep -o "https\?://[^\"'\'' )]*" page.html | sort -u >urls &&
	echo "http://www.w3.org/2000/svg" >expect &&
	test_cmp expect urls &&
	! grep -Eiq "<(link|img|iframe)|src=|@import|url\(http" page.html &&
	test "$(grep -c "<script" page.html)" = 3
'

test_expect_success 'the page holds the graph, the stacks and first-seen times' '
	sed -n "s/^<script type=\"application\/json\" id=\"graph-data\">\(.*\)<\/script>$/\1/p" \
		page.html >data.json &&
	test "$(jq ".nodes | length" data.json)" = "$(q "SELECT count(*) FROM classes WHERE boot_id = 1")" &&
	test "$(jq ".edges | length" data.json)" = "$(q "SELECT count(*) FROM dependencies WHERE boot_id = 1")" &&
	test "$(jq "[.edges[] | select(.[6] >= 0)] | length" data.json)" = \
		"$(q "SELECT count(*) FROM dependency_first_seen WHERE boot_id = 1")" &&
	test "$(jq "[.edges[] | select(.[7] >= 0)] | length" data.json)" = \
		"$(q "SELECT count(*) FROM dependencies WHERE boot_id = 1 AND trace_id IN
			(SELECT trace_id FROM trace_frames WHERE boot_id = 1)")" &&
	test "$(jq ".reports | length" data.json)" = "$(q "SELECT count(*) FROM reports WHERE boot_id = 1")"
'

test_expect_success 'a database from before the event stream: no first-seen times' '
	cp "$DB" old.db &&
	sqlite3 old.db "$UNDO_V12" &&
	graph --db old.db --boot fixture -T html -o old.html &&
	sed -n "s/^<script type=\"application\/json\" id=\"graph-data\">\(.*\)<\/script>$/\1/p" \
		old.html >old.json &&
	test "$(jq "[.edges[] | select(.[6] >= 0)] | length" old.json)" = 0 &&
	test "$(jq "[.edges[] | select(.[7] >= 0)] | length" old.json)" = \
		"$(jq "[.edges[] | select(.[7] >= 0)] | length" data.json)"
'

test_expect_success 'in chromium: search finds a class, a click expands it, a path is found' '
	steps="search:rtnl_mutex,expand:rtnl_mutex,path:$(uri cpu_hotplug_lock)+$(uri text_mutex)" &&
	browse "$TRASH/page.html" "$steps" --dump-dom >dom.html &&
	selftest_result dom.html >result &&
	cat result &&
	grep -q "^search rtnl_mutex: ok [1-9]" result &&
	grep -Eq "^expand rtnl_mutex: ok shown ([0-9]+) then ([0-9]+)" result &&
	sed -n "s/^expand rtnl_mutex: ok shown \([0-9]*\) then \([0-9]*\)$/\1 \2/p" result >n &&
	read before after <n && test "$after" -gt "$before" &&
	grep -q "^path cpu_hotplug_lock &gt; text_mutex: ok 2 dependencies: cpu_hotplug_lock → static_call_mutex → text_mutex" result &&
	! grep -q FAIL result &&
	grep -q "data-load-ms=" dom.html
'

test_expect_success 'in chromium: a click on a dependency shows its site, stack and first-seen time' '
	sqlite3 -separator " " "$DB" "SELECT fs.first_us, (SELECT count(*) FROM trace_frames tf
		WHERE tf.boot_id = 1 AND tf.trace_id = d.trace_id), tr.site
		FROM dependency_first_seen fs JOIN classes f ON f.id = fs.from_class
		JOIN classes t ON t.id = fs.to_class JOIN dependencies d
		ON d.from_class = fs.from_class AND d.to_class = fs.to_class
		JOIN traces tr ON tr.boot_id = 1 AND tr.id = d.trace_id
		WHERE f.name = '\''cpu_hotplug_lock'\'' AND t.name = '\''wq_pool_mutex'\''" >db.txt &&
	read us frames site <db.txt && test "$frames" -gt 0 &&
	browse "$TRASH/page.html" "edge:$(uri cpu_hotplug_lock)+$(uri wq_pool_mutex)" --dump-dom >dom.html &&
	selftest_result dom.html >result &&
	cat result &&
	secs=$(printf "%d.%06d" $((us / 1000000)) $((us % 1000000))) &&
	echo "edge cpu_hotplug_lock &gt; wq_pool_mutex: ok site $site; first seen $secs s after boot; $frames frames" >expect &&
	test_cmp expect result
'

test_expect_success 'the union of two boots: its cross-boot cycle listed and found by a path' '
	graph --db "$DB" --boots fixture,ba -T html -o union.html &&
	steps="path:$(uri text_mutex)+$(uri static_call_mutex),path:$(uri static_call_mutex)+$(uri text_mutex)" &&
	browse "$TRASH/union.html" "$steps" --dump-dom >dom.html &&
	selftest_result dom.html >result &&
	cat result &&
	grep -q "^path text_mutex &gt; static_call_mutex: ok 1 dependency: text_mutex → static_call_mutex" result &&
	grep -q "^path static_call_mutex &gt; text_mutex: ok 1 dependency: static_call_mutex → text_mutex" result &&
	grep -q "<ol id=\"cycles\" class=\"list\"><li[^>]*><span class=\"tag\">cross-boot</span>" dom.html &&
	grep -q "id=\"cycles-count\" class=\"count\">(1)<" dom.html
'

test_expect_success 'a class named like markup stays text' '
	cp "$DB" h.db &&
	evil="</script><img src=x onerror=alert(1)><!--" &&
	sqlite3 h.db "UPDATE classes SET name = '\''$evil'\'' WHERE boot_id = 1 AND name = '\''text_mutex'\''" &&
	sqlite3 h.db "UPDATE boots SET label = '\''</script>'\'' WHERE id = 1" &&
	graph --db h.db --boot 1 -T html -o evil.html &&
	! grep -q "</script><img" evil.html &&
	test "$(grep -c "</script>" evil.html)" = 3 &&
	browse "$TRASH/evil.html" "search:$(uri "$evil"),expand:$(uri "$evil")" --dump-dom >dom.html &&
	selftest_result dom.html >result &&
	cat result &&
	grep -q "^search &lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;&lt;!--: ok 1 results" result &&
	! grep -q "<img" dom.html
'

test_expect_success 'a screenshot of the explorer, kept in build/test-artifacts' '
	mkdir -p "$ART" &&
	rm -f "$ART/explorer.png" &&
	steps="search:cpu_hotplug_lock,expand:cpu_hotplug_lock,edge:$(uri cpu_hotplug_lock)+$(uri wq_pool_mutex)" &&
	browse "$TRASH/page.html" "$steps" --window-size=1400,900 \
		--screenshot="$ART/explorer.png" >/dev/null &&
	head -c 8 "$ART/explorer.png" | od -An -c | grep -q "P   N   G" &&
	test "$(wc -c <"$ART/explorer.png")" -gt 20000
'

# ring N FILE: a /proc/lockdep whose N classes make one cycle
ring() {
	awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++)
		printf "(____ptrval____) FD:    1 BD:    1 +.+.: ring_%d\n -> [(____ptrval____)] ring_%d\n\n", i, (i + 1) % n }' >"$2"
}

test_expect_success 'a cycle of 20,000 classes opens bounded, and is walked a view at a time' '
	mkdir ring && ring 20000 ring/lockdep &&
	test_expect_code 1 "$BIN/lockdep-collect" --db ring.db --proc-dir ring --label ring >/dev/null 2>&1 &&
	graph --db ring.db -T html -o ring.html &&
	browse "$TRASH/ring.html" "view:,later:,view:,path:ring_5+ring_4" --dump-dom >dom.html &&
	selftest_result dom.html >result &&
	cat result &&
	sed -n 1p result >first &&
	grep -qx "view: 150 classes, 149 dependencies drawn, 149 listed; cycle 1: dependencies 1–149 of 20000 drawn (a view holds 150 classes)" first &&
	grep -qx "later: ok dependencies 150–298 of 20000" result &&
	sed -n 3p result | grep -q "^view: 150 classes, 149 dependencies drawn, 149 listed; " &&
	grep -q "^path ring_5 &gt; ring_4: ok 19999 dependencies: ring_5 → ring_6 → .* → … 19990 more … → ring_3 → ring_4$" result &&
	test "$(grep -o "<g class=\"node" dom.html | wc -l)" = 150 &&
	sed -n "s/.*<ol id=\"cycles\" class=\"list\">\(.*\)/\1/p" dom.html | cut -d"<" -f2 >cycle-item &&
	grep -q "… 19991 more …" cycle-item &&
	test "$(wc -c <cycle-item)" -lt 400 &&
	mkdir -p "$ART" && rm -f "$ART/explorer-long-cycle.png" &&
	browse "$TRASH/ring.html" "view:" --window-size=1400,900 \
		--screenshot="$ART/explorer-long-cycle.png" >/dev/null &&
	head -c 8 "$ART/explorer-long-cycle.png" | od -An -c | grep -q "P   N   G"
'

test_expect_success 'a report naming 300 classes draws its first 150 and says so' '
	cp ring.db rep.db &&
	sqlite3 rep.db "INSERT INTO reports (id, boot_id, seq, type, title, dedup_key,
			header, old_format, truncated, input, first_line, last_line, raw_dropped)
		VALUES (7, 1, 1, '\''circular-dependency'\'', '\''a long chain'\'', '\''k'\'',
			'\''h'\'', 0, 0, '\''log'\'', 1, 2, 0);
		WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 299)
		INSERT INTO report_locks (report_id, idx, role, name, class_name, version,
			subclass, usage_bits, line)
		SELECT 7, i, '\''chain'\'', '\''ring_'\'' || i, '\''ring_'\'' || i, 0, 0, 0, 1 FROM n" &&
	graph --db rep.db -T html -o rep.html &&
	browse "$TRASH/rep.html" "report:7,view:" --dump-dom >dom.html &&
	selftest_result dom.html >result &&
	cat result &&
	grep -qx "report 7: ok" result &&
	grep -qx "view: 150 classes, 149 dependencies drawn, 149 listed; report #7 (circular-dependency, boot 1 (ring)): a long chain: the first 150 of its 300 classes drawn" result
'

test_expect_success '-T html: --class opens on it; other selections refused' '
	graph --db "$DB" --boot fixture --class rtnl_mutex -T html -o c.html &&
	grep -q "\"focus\":[0-9]" c.html &&
	test_expect_code 64 graph --db "$DB" --cycles -T html 2>err &&
	grep -q "takes --class or no selection" err &&
	test_expect_code 2 graph --db "$DB" --class no_such_class -T html -o x.html 2>err
'

test_expect_success '-T html in --help and lockdep-graph(1)' '
	graph --help | grep -q "html: the explorer" &&
	groff -man -Tascii -P-cbou "$TOP/lockdep-tools/man/lockdep-graph.1" 2>/dev/null >man.txt &&
	grep -q "selftest" man.txt &&
	grep -q "^ *-T, --format=FMT" man.txt &&
	sed -n "/^ *-T, --format/,/^ *-[a-z]/p" man.txt | grep -q html
'

test_done
