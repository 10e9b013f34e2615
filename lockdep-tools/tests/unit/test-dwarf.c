// SPDX-License-Identifier: GPL-2.0
/*
 * The DWARF read without libdw against libdw, every unit of a binary
 * read both ways: dwarf-dies.c's walk (the scopes met: DIE offset,
 * inlined or not, parent, code ranges, call site, one by one) and line-table.c's
 * table (each row's address, line, file name and end of sequence, as
 * dwarf_getsrclines() sorts them; every file name, as dwarf_filesrc()
 * gives them). The binaries: this test itself (gcc -g -O2, inlined
 * calls), the real vmlinux and the scenario module (ET_REL, its DWARF
 * relocated by libdwfl) when LDT_VMLINUX and LDT_SCENARIO_KO name them
 * (failing when missing), else those of ../build/linux when there
 * (skipped otherwise).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "real-files.h"
#include "../dwarf-walk.h"
#include "symbolise/dwarf-dies.h"
#include "symbolise/dwarf-read.h"
#include "symbolise/line-table.h"
#include "util/xalloc.h"

/* die_scope_fn: a scope when it has a non-empty range, as dwarf-lines.c */
static int record(void *data, const struct die_scope *sc, int parent)
{
	bool code = false;

	for (size_t i = 0; i < sc->nr; i++)
		code |= sc->r[i].lo < sc->r[i].hi;
	return code ? scopes_add(data, sc, parent) : -1;
}

static const Dwfl_Callbacks callbacks = {
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

/* Opens @path's DWARF into *@dwfl; its sections to @sec. */
static Dwarf *open_dwarf(const char *path, Dwfl **dwfl,
			 struct dwarf_sections *sec)
{
	Dwfl_Module *mod;
	Dwarf_Addr bias;
	Dwarf *dw;

	*dwfl = dwfl_begin(&callbacks);
	assert_non_null(*dwfl);
	dwfl_report_begin(*dwfl);
	mod = dwfl_report_offline(*dwfl, path, path, -1);
	assert_non_null(mod);
	assert_int_equal(dwfl_report_end(*dwfl, NULL, NULL), 0);
	dw = dwfl_module_getdwarf(mod, &bias);
	assert_non_null(dw);
	assert_true(dwarf_sections_find(dw, sec));
	return dw;
}

/* The line table of @cu read both ways: the same rows and files. */
static size_t compare_lines(const struct dwarf_sections *sec, Dwarf_Die *cu)
{
	Dwarf_Attribute attr;
	const char *comp_dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir,
							   &attr));
	struct line_table t;
	Dwarf_Lines *lines;
	Dwarf_Files *files;
	size_t nr, nfiles;

	line_table_read(sec, cu, comp_dir, &t);
	if (dwarf_getsrclines(cu, &lines, &nr)) {
		assert_int_equal(t.nr, 0);
		assert_int_equal(t.nr_files, 0);
		return 0;
	}
	assert_int_equal(t.nr, nr);
	for (size_t i = 0; i < nr; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Addr addr;
		bool end;
		int lno;

		assert_int_equal(dwarf_lineaddr(l, &addr), 0);
		assert_int_equal(dwarf_lineno(l, &lno), 0);
		assert_int_equal(dwarf_lineendsequence(l, &end), 0);
		assert_int_equal(t.rows[i].addr, addr);
		assert_int_equal(t.rows[i].line, lno);
		assert_int_equal(line_row_ends(&t.rows[i]), end);
		assert_string_equal(line_table_file(&t, t.rows[i].file),
				    dwarf_linesrc(l, NULL, NULL));
	}
	assert_int_equal(dwarf_getsrcfiles(cu, &files, &nfiles), 0);
	assert_int_equal(t.nr_files, nfiles);
	for (size_t i = 0; i < nfiles; i++)
		assert_string_equal(line_table_file(&t, i),
				    dwarf_filesrc(files, i, NULL, NULL));
	line_table_release(&t);
	return nr;
}

/*
 * Every unit of @path read both ways; returns the number of scopes met,
 * how many of them inlined in *@inlined, and the number of line rows in
 * *@rows.
 */
static size_t compare_units(const char *path, size_t *inlined,
			    size_t *rows)
{
	Dwarf_Off off = 0, next;
	struct dwarf_sections sec;
	size_t hsize, total = 0, units = 0;
	Dwfl *dwfl;
	Dwarf *dw = open_dwarf(path, &dwfl, &sec);

	*inlined = *rows = 0;
	while (!dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL)) {
		struct scopes ours = { 0 }, theirs = { 0 };
		Dwarf_Die cu;

		assert_non_null(dwarf_offdie(dw, off + hsize, &cu));
		die_walk_scopes(dw, &sec, &cu, record, &ours);
		libdw_walk(&cu, -1, -1, record, &theirs);
		assert_int_equal(ours.nr, theirs.nr);
		for (size_t i = 0; i < ours.nr; i++) {
			const struct scope *a = &ours.v[i], *b = &theirs.v[i];

			assert_int_equal(a->s.die, b->s.die);
			assert_int_equal(a->s.inlined, b->s.inlined);
			assert_int_equal(a->parent, b->parent);
			assert_int_equal(a->s.nr, b->s.nr);
			assert_memory_equal(&ours.ranges[a->first],
					    &theirs.ranges[b->first],
					    a->s.nr * sizeof(*ours.ranges));
			assert_int_equal(a->s.has_call_file, b->s.has_call_file);
			assert_int_equal(a->s.has_call_line, b->s.has_call_line);
			if (a->s.has_call_file)
				assert_int_equal(a->s.call_file, b->s.call_file);
			if (a->s.has_call_line)
				assert_int_equal(a->s.call_line, b->s.call_line);
			*inlined += a->s.inlined;
		}
		*rows += compare_lines(&sec, &cu);
		total += ours.nr;
		units++;
		scopes_release(&ours);
		scopes_release(&theirs);
		off = next;
	}
	assert_true(units > 0);
	dwfl_end(dwfl);
	return total;
}

static void test_self(void **state)
{
	size_t inlined, rows, n = compare_units("/proc/self/exe", &inlined,
						&rows);

	(void)state;
	/* dwarf-dies.c and the rest of this binary, some of it inlined */
	assert_true(n > 40);
	assert_true(inlined > 10);
	assert_true(rows > 1000);
}


/*
 * This binary with its DWARF compressed, the gABI way (SHF_COMPRESSED)
 * and GNU's (.zdebug_*): read as libdw reads it, once libdw inflated it.
 */
static void test_compressed(void **state)
{
	static const char *const how[] = { "zlib", "zlib-gnu" };
	char path[] = "/tmp/ldt-test-dwarf.XXXXXX", cmd[256];
	size_t inlined, rows;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	for (size_t i = 0; i < sizeof(how) / sizeof(how[0]); i++) {
		snprintf(cmd, sizeof(cmd),
			 "objcopy --compress-debug-sections=%s /proc/%d/exe %s",
			 how[i], (int)getpid(), path);
		assert_int_equal(system(cmd), 0);
		assert_true(compare_units(path, &inlined, &rows) > 40);
		assert_true(inlined > 10);
		assert_true(rows > 1000);
	}
	unlink(path);
}

static void test_real_vmlinux(void **state)
{
	const char *path = real_file("LDT_VMLINUX", "../build/linux/vmlinux");
	size_t inlined, rows;

	(void)state;
	if (!path)
		skip();
	assert_true(compare_units(path, &inlined, &rows) > 100000);
	assert_true(inlined > 100000);
	assert_true(rows > 1000000);
}

static void test_real_module(void **state)
{
	const char *path = real_file("LDT_SCENARIO_KO",
				     "../build/linux/lib/test_lockdep_scenarios.ko");
	size_t inlined, rows;

	(void)state;
	if (!path)
		skip();
	assert_true(compare_units(path, &inlined, &rows) > 10);
	assert_true(rows > 100);
}

/* The number of scopes of the unit @cu. */
static size_t nr_scopes(Dwarf *dw, const struct dwarf_sections *sec,
			Dwarf_Die *cu)
{
	struct scopes s = { 0 };
	size_t nr;

	die_walk_scopes(dw, sec, cu, record, &s);
	nr = s.nr;
	scopes_release(&s);
	return nr;
}

/* The number of line rows of the unit @cu. */
static size_t nr_rows(Dwarf *dw, const struct dwarf_sections *sec,
		      Dwarf_Die *cu)
{
	Dwarf_Attribute attr;
	struct line_table t;
	size_t nr;

	(void)dw;
	line_table_read(sec, cu, dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir,
							      &attr)), &t);
	nr = t.nr;
	line_table_release(&t);
	return nr;
}

/*
 * The unit of @dw with the most of @measure (more than @least): its DIE
 * to *@cu, the offset of the unit after it to *@next; returns its offset.
 */
static Dwarf_Off biggest_unit(Dwarf *dw, const struct dwarf_sections *sec,
			      size_t (*measure)(Dwarf *,
						const struct dwarf_sections *,
						Dwarf_Die *),
			      size_t least, Dwarf_Die *cu, Dwarf_Off *next)
{
	Dwarf_Off off = 0, big = 0;
	size_t hsize, most = 0, n;

	while (!dwarf_nextcu(dw, off, next, &hsize, NULL, NULL, NULL)) {
		assert_non_null(dwarf_offdie(dw, off + hsize, cu));
		n = measure(dw, sec, cu);
		if (n > most) {
			most = n;
			big = off;
		}
		off = *next;
	}
	assert_true(most > least);
	assert_int_equal(dwarf_nextcu(dw, big, next, &hsize, NULL, NULL, NULL), 0);
	assert_non_null(dwarf_offdie(dw, big + hsize, cu));
	return big + hsize;
}

/*
 * A unit cut short, at every 7th byte, in a buffer that ends there
 * (ASan: not a byte read past it): its walk meets the scopes of the
 * whole unit's walk up to the cut, in order, and no other.
 */
static void test_truncated(void **state)
{
	struct dwarf_sections sec, cut;
	struct scopes whole = { 0 };
	Dwarf_Off next, die;
	Dwarf_Die cu;
	Dwfl *dwfl;
	Dwarf *dw = open_dwarf("/proc/self/exe", &dwfl, &sec);

	(void)state;
	die = biggest_unit(dw, &sec, nr_scopes, 20, &cu, &next);
	die_walk_scopes(dw, &sec, &cu, record, &whole);
	for (size_t end = die; end < next; end += 7) {
		unsigned char *copy = xmalloc(end);
		Dwarf_Off big = die - dwarf_cuoffset(&cu);
		uint32_t len = (uint32_t)(end - big - 4), was;
		struct scopes part = { 0 };

		memcpy(copy, sec.info, end);
		/* 32-bit DWARF, in this host's byte order (its own binary) */
		memcpy(&was, sec.info + big, sizeof(was));
		assert_true(was < 0xfffffff0u);
		memcpy(copy + big, &len, sizeof(len));
		cut = sec;
		cut.info = copy;
		cut.info_size = end;
		die_walk_scopes(dw, &cut, &cu, record, &part);
		assert_true(part.nr <= whole.nr);
		for (size_t i = 0; i < part.nr; i++) {
			assert_int_equal(part.v[i].s.die, whole.v[i].s.die);
			assert_int_equal(part.v[i].parent, whole.v[i].parent);
			assert_true(part.v[i].s.die < end);
		}
		scopes_release(&part);
		free(copy);
	}
	scopes_release(&whole);
	dwfl_end(dwfl);
}

/*
 * A line program cut short, at every 5th byte, in a buffer that ends
 * there (ASan: not a byte read past it): no more rows than the whole,
 * and the last of them ends a sequence (line-table.h (1)).
 */
static void test_lines_truncated(void **state)
{
	struct dwarf_sections sec, cut;
	struct line_table whole, part;
	Dwarf_Word at = 0;
	Dwarf_Attribute attr;
	const char *comp_dir;
	Dwarf_Off next;
	Dwarf_Die cu;
	Dwfl *dwfl;
	Dwarf *dw = open_dwarf("/proc/self/exe", &dwfl, &sec);
	uint32_t len;

	(void)state;
	biggest_unit(dw, &sec, nr_rows, 100, &cu, &next);
	comp_dir = dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir, &attr));
	line_table_read(&sec, &cu, comp_dir, &whole);
	assert_int_equal(dwarf_formudata(dwarf_attr(&cu, DW_AT_stmt_list,
						    &attr), &at), 0);
	memcpy(&len, sec.line + at, sizeof(len));
	assert_true(len < 0xfffffff0u);
	for (size_t end = at + 5; end < at + 4 + len; end += 5) {
		unsigned char *copy = xmalloc(end);
		uint32_t cut_len = (uint32_t)(end - at - 4);

		memcpy(copy, sec.line, end);
		memcpy(copy + at, &cut_len, sizeof(cut_len));
		cut = sec;
		cut.line = copy;
		cut.line_size = end;
		line_table_read(&cut, &cu, comp_dir, &part);
		assert_true(part.nr <= whole.nr);
		if (part.nr)
			assert_true(line_row_ends(&part.rows[part.nr - 1]));
		line_table_release(&part);
		free(copy);
	}
	line_table_release(&whole);
	dwfl_end(dwfl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_self),
		cmocka_unit_test(test_compressed),
		cmocka_unit_test(test_real_vmlinux),
		cmocka_unit_test(test_real_module),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_lines_truncated),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
