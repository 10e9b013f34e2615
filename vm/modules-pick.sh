#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel modules of an initramfs (initramfs.sh), picked as the kernel
# would load them rather than the whole tree, which for a distro kernel
# (4000 modules, 390 MB) the guest cannot even unpack:
#
#   vm/modules-pick.sh MODDIR ROOT
#
# MODDIR is an INSTALL_MOD_PATH (MODDIR/lib/modules/RELEASE); its
# dependencies come from depmod over that tree (not from a modules.dep
# it may lack or hold stale). Into ROOT/lib/modules/RELEASE go:
#   - the modules to load at boot and every module they depend on: those
#     the guest needs when the kernel has them as modules (GUEST_MODULES:
#     the virtio PCI transport, console, block and net drivers, ext4 and
#     loop for a workload's scratch disk, the series' scenario module),
#     the filesystems the workload script RUN mounts (its "mount -t FS"),
#     and MODULES_LOAD (comma-separated names, "-" and "_" alike); a
#     name in MODULES_LOAD that the tree lacks is an error;
#   - every other module, for the guest's modprobe, if the tree's modules
#     add up to at most MODULES_MAX MiB (default 64); else none of them,
#     said;
# with a modules.dep of what was packed (depmod) and ROOT/etc/modules-boot,
# the names /init modprobes in turn ("?NAME": one whose failure is no
# error, see soft_first).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
STEP=modules

GUEST_MODULES="virtio_pci virtio_console virtio_blk virtio_net ext4 loop test_lockdep_scenarios"

[ $# = 2 ] || { echo "usage: $0 MODDIR ROOT" >&2; exit 64; }
moddir=$1 root=$2
max=${MODULES_MAX:-64}
case $max in
''|*[!0-9]*) die "MODULES_MAX must be a number of MiB, not '$max'" ;;
esac
# depmod lives in /sbin, which an ordinary user's PATH may lack
depmod=$(PATH=$PATH:/usr/sbin:/sbin command -v depmod) || die "no depmod: apt-get install kmod"
rels=$(cd "$moddir/lib/modules" && ls)
[ "$(echo "$rels" | wc -w)" = 1 ] ||
	die "$moddir/lib/modules holds $(echo "$rels" | wc -w) kernel releases (${rels//$'\n'/ }): expected one"
rel=$rels
tree=$moddir/lib/modules/$rel
mkdir -p "$root/lib/modules/$rel" "$root/etc"

# what depmod would write: modules.dep ("path: dep dep...", dependencies
# closed already) in $dep, the aliases and soft dependencies in $soft
dep=$(mktemp) soft=$(mktemp) idx=$(mktemp)
trap 'rm -f "$dep" "$soft" "$idx"' EXIT
"$depmod" -n -b "$moddir" "$rel" >"$idx" 2>/dev/null ||
	die "depmod failed on $tree"
grep -E '^[^ #]+\.ko(\.[a-z]+)?:' "$idx" >"$dep" || true
grep -E '^(alias|softdep) ' "$idx" >"$soft" || true

# the workload's filesystems: "mount ... -t FS" on one line
fs=""
if [ -n "${RUN:-}" ]; then
	fs=$(grep -v '^[[:space:]]*#' "$RUN" | grep -w mount |
		grep -oE -- '-t +[A-Za-z0-9_,-]+' | sed 's/^-t *//' | tr ',' ' ' || true)
fi
named=$(echo "${MODULES_LOAD:-}" | tr ',' ' ')

# pick [?]NAME...: "[?]NAME<TAB>path path..." for each NAME (once, "-"
# read as "_"): the module and what it needs, or nothing after the tab
# when the tree has no such module
pick() {
	awk -v want="$*" '
	function norm(p) { sub(/.*\//, "", p); sub(/\.ko(\.[a-z]+)?$/, "", p); gsub(/-/, "_", p); return p }
	BEGIN { n = split(want, w, " ")
		for (i = 1; i <= n; i++) {
			mark = w[i] ~ /^\?/ ? "?" : ""; sub(/^\?/, "", w[i]); gsub(/-/, "_", w[i])
			if (!(w[i] in line)) { order[++k] = w[i]; soft[w[i]] = mark; line[w[i]] = "" } } }
	{ sub(/:$/, "", $1); m = norm($1); if (m in line) line[m] = $0 }
	END { for (i = 1; i <= k; i++) printf "%s%s\t%s\n", soft[order[i]], order[i], line[order[i]] }
	' "$dep"
}

# soft_first NAME...: the NAMEs, each after the modules its "softdep
# NAME pre:" wants (the crc32c that libcrc32c, ext4 and btrfs look up
# when they load: modules.dep does not list it, and busybox modprobe
# does not read soft dependencies), aliases resolved to module names.
# Those only a soft dependency wants are marked "?NAME": an alias often
# names several (crc32c_intel, which a CPU without SSE4.2 refuses, and
# crc32c_generic), of which one is enough.
soft_first() {
	awk -v want="$*" '
	function visit(n, soft,   i, j, k, m, a, b) {
		gsub(/-/, "_", n)
		if (n in done) return
		done[n] = 1
		k = split(pre[n], a, " ")
		for (i = 1; i <= k; i++) {
			if (a[i] in alias) { m = split(alias[a[i]], b, " "); for (j = 1; j <= m; j++) visit(b[j], 1) }
			else visit(a[i], 1)
		}
		printf "%s%s ", soft ? "?" : "", n
	}
	$1 == "alias" { alias[$2] = alias[$2] " " $3 }
	$1 == "softdep" { for (i = 4; i <= NF && $i != "post:"; i++) pre[$2] = pre[$2] " " $i }
	END { n = split(want, w, " "); for (i = 1; i <= n; i++) visit(w[i], 0) }
	' "$soft"
}

boot="" files=""
# module names and modules.dep's paths are single words: the lists below
# are split into them on purpose
# shellcheck disable=SC2046,SC2086
while IFS=$'\t' read -r mod paths; do
	if [ -n "$paths" ]; then
		boot="$boot $mod"
		files="$files $paths"
		continue
	fi
	# only a name the user gave must be there: the guest's own needs are
	# often built in, and a workload may mount what the kernel has built in
	case " $(echo "$named" | tr - _) " in
	*" $mod "*) grep -qE "/${mod//_/[-_]}\.ko" "$tree/modules.builtin" 2>/dev/null ||
		die "MODULES_LOAD: no module '$mod' in $tree, nor built in" ;;
	esac
done < <(pick $(soft_first $GUEST_MODULES $fs $named))
# shellcheck disable=SC2086 # modules.dep's paths, one word each
files=$(printf '%s\n' $files | sort -u)
others=$(($(wc -l <"$dep") - $(echo "$files" | grep -c . || true)))

# the modules alone: lib/modules/RELEASE/build and source lead to the
# whole kernel tree, which find does not follow
total=$(find "$tree" -name '*.ko*' -printf '%s\n' | awk '{ n += $1 } END { print n + 0 }')
if [ "$total" -le $((max << 20)) ]; then
	(cd "$tree" && find . -name '*.ko*' -print0) | (cd "$tree" && cpio -p0dm --quiet "$root/lib/modules/$rel")
	rest="and the other $others for modprobe"
else
	[ -z "$files" ] || echo "$files" | (cd "$tree" && cpio -pdm --quiet "$root/lib/modules/$rel")
	rest="the other $others left out: its modules are $((total >> 20)) MiB, over MODULES_MAX=$max (name them in MODULES_LOAD)"
fi
# depmod reads these, and warns when one is missing (a tree made by hand)
for f in modules.order modules.builtin modules.builtin.modinfo; do
	if [ -f "$tree/$f" ]; then
		cp "$tree/$f" "$root/lib/modules/$rel/"
	else
		: >"$root/lib/modules/$rel/$f"
	fi
done
"$depmod" -b "$root" "$rel" || die "depmod failed on the packed modules of $rel"
# shellcheck disable=SC2086 # module names, one word each
printf '%s\n' $boot >"$root/etc/modules-boot"
progress "$rel: loading$boot at boot, $rest"
