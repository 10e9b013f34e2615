#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
test_description='one JSON shape for a stack frame

lockdep-report --json (each frame of a report) and lockdep-symbolise
--json (each answer) write the same struct: the same keys, the same
values, null for what is not known (lockdep-report(1), FRAMES).'
. "$(dirname "$0")/lib.sh"

test_expect_success 'setup: a static binary with an inlined call' '
	cat >ext.c <<-\EOF &&
	__attribute__((noinline)) int ext(int x) { return x * x; }
	int outer(int);
	void _start(void) { outer(1); for (;;) ; }
	EOF
	cat >t.c <<-\EOF &&
	int ext(int);
	static inline __attribute__((always_inline)) int leaf(int x)
	{
		return ext(x) * 3;
	}
	__attribute__((noinline)) int outer(int x)
	{
		return leaf(x) + 1;
	}
	EOF
	${CC:-cc} -g -O2 -fno-pie -no-pie -static -nostdlib -Wl,--build-id \
		-o vmlinux t.c ext.c &&
	outer=$(nm vmlinux | awk "\$3 == \"outer\" { print \$1 }") &&
	call=$(objdump -d vmlinux | awk "/<outer>:/ { f = 1 }
		f && /call.*<ext>/ { sub(/:.*/, \"\"); print \$1; exit }") &&
	size=$(nm -S vmlinux | awk "\$4 == \"outer\" { print \$2 }") &&
	printf "[<ffffffff818c5ac5>] outer+0x%x/0x%x\n" \
		$((0x$call + 5 - 0x$outer)) $((0x$size)) >frame &&
	echo "[<ffffffff818b777b>] nosuch_fn+0x10/0x40" >>frame &&
	# the report whose backtrace has both frames
	sed -e "s|\[<ffffffff818c5ac5>\] dump_stack+0x4b/0x63|$(sed -n 1p frame)|" \
	    -e "s|\[<ffffffff818b777b>\] lockdep_rcu_suspicious.cold.44+0xc4/0xe4|$(sed -n 2p frame)|" \
		"$CORPUS/026-suspicious-rcu.txt" >r.log &&
	grep -qF "$(sed -n 1p frame)" r.log &&
	grep -qF "$(sed -n 2p frame)" r.log
'

# frame_of JSON FUNC: the first frame object of FUNC in JSON (a report
# array or one answer per line), keys sorted
frame_of() {
	python3 - "$1" "$2" <<-\PY
	import json, sys
	def walk(v):
	    if isinstance(v, dict):
	        if v.get("func") == sys.argv[2] and "unreliable" in v:
	            yield v
	        for x in v.values():
	            yield from walk(x)
	    elif isinstance(v, list):
	        for x in v:
	            yield from walk(x)
	text = open(sys.argv[1]).read()
	docs = [json.loads(l) for l in text.splitlines() if l.strip()]
	for f in walk(docs):
	    print(json.dumps(f, sort_keys=True))
	    break
	else:
	    sys.exit("no frame of " + sys.argv[2])
	PY
}

test_expect_success 'a symbolised frame: the same object from both tools' '
	"$BIN/lockdep-report" --vmlinux=vmlinux --json r.log >report.json &&
	"$BIN/lockdep-symbolise" -e vmlinux --json "$(sed -n 1p frame)" >sym.json &&
	frame_of report.json outer >from-report &&
	frame_of sym.json outer >from-symbolise &&
	grep -q "\"inlined\": \[{\"file\": \"t.c\", \"func\": \"leaf\", \"line\": 4}\]" from-report &&
	test_cmp from-report from-symbolise
'

test_expect_success 'an unknown frame: the same object, file and line null' '
	"$BIN/lockdep-report" --vmlinux=vmlinux --json r.log >report.json &&
	test_expect_code 1 "$BIN/lockdep-symbolise" -e vmlinux --json \
		"$(sed -n 2p frame)" >sym.json 2>err &&
	frame_of report.json nosuch_fn >from-report &&
	frame_of sym.json nosuch_fn >from-symbolise &&
	grep -q "\"file\": null" from-report &&
	grep -q "\"line\": null" from-report &&
	test_cmp from-report from-symbolise
'

test_done
