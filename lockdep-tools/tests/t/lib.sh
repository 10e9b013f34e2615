# SPDX-License-Identifier: GPL-2.0
# Minimal git-style test library: source it, call test_expect_success,
# end with test_done. Output is TAP. Sourced, never run.
#
#   test_expect_success 'what it checks' '
#       cmd1 &&
#       cmd2
#   '
# Each test body runs in a subshell inside a fresh scratch directory
# ($TRASH); $TOP is the repository root, $BIN the built tools.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
BIN=${BIN:-$TOP/build/bin}
CORPUS=${CORPUS:-$TOP/../shared/corpus}
TRASH=$(mktemp -d "${TMPDIR:-/tmp}/ldt-test.XXXXXX")
trap 'rm -rf "$TRASH"' EXIT
_n=0
_failed=0

test_expect_success() {
	local desc=$1 body=$2
	_n=$((_n + 1))
	if (cd "$TRASH" && eval "$body") >"$TRASH/.out" 2>&1; then
		echo "ok $_n - $desc"
	else
		echo "not ok $_n - $desc"
		sed 's/^/#   /' "$TRASH/.out"
		_failed=$((_failed + 1))
	fi
}

# test_skip DESC REASON: a test that cannot run here, said so in TAP.
test_skip() {
	_n=$((_n + 1))
	echo "ok $_n # skip $1 ($2)"
}

# test_cmp EXPECTED ACTUAL: diff, shown on failure.
test_cmp() {
	diff -u "$1" "$2"
}

test_done() {
	echo "1..$_n"
	[ "$_failed" = 0 ]
}
