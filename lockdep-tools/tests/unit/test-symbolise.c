// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the symboliser on binaries built here from the sources
 * below (gcc -g -O2), whose answers are known from the source, and on
 * the real vmlinux and scenario module of the build: those LDT_VMLINUX
 * and LDT_SCENARIO_KO name (failing when missing), else those of
 * ../build/linux when there (skipped otherwise).
 *
 * "vmlinux" is a static executable of a.c and b.c linked with
 * --emit-relocs, so the return address after each call can be found from
 * its relocation; the "module" is a.c compiled alone (ET_REL, like a
 * .ko), once with DWARF and once stripped of it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbolise/symbolise.h"
#include "util/strbuf.h"

/* Line numbers are the answers: keep them in step with the tests. */
static const char a_src[] =
	"int ext(int);\n"						/* 1 */
	"static inline __attribute__((always_inline)) int leaf(int x)\n"
	"{\n"
	"\treturn ext(x) * 3;\n"					/* 4 */
	"}\n"
	"static inline __attribute__((always_inline)) int middle(int x)\n"
	"{\n"
	"\treturn leaf(x + 1) - 2;\n"					/* 8 */
	"}\n"
	"__attribute__((noinline)) int outer(int x)\n"
	"{\n"
	"\treturn middle(x) + 1;\n"					/* 12 */
	"}\n"
	"static __attribute__((noinline, used)) int dup(int x)\n"
	"{\n"
	"\treturn ext(x) + 7;\n"					/* 16 */
	"}\n"
	"__attribute__((noinline)) int plain(int x)\n"
	"{\n"
	"\treturn ext(x) ^ 5;\n"					/* 20 */
	"}\n";

static const char b_src[] =
	"int outer(int);\n"
	"int plain(int);\n"
	"__attribute__((noinline)) int ext(int x)\n"
	"{\n"
	"\treturn x * x;\n"
	"}\n"
	"static __attribute__((noinline, used)) int dup(int x)\n"
	"{\n"
	"\treturn ext(x) + 7;\n"
	"}\n"
	"void _start(void)\n"
	"{\n"
	"\touter(1);\n"
	"\tplain(2);\n"
	"\tfor (;;)\n"
	"\t\t;\n"
	"}\n";

static char dir[] = "/tmp/ldt-symbolise.XXXXXX";
static char vmlinux[256], moddir[256], modfile[256];

static void write_file(const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static int run(const char *fmt, ...)
{
	struct strbuf cmd = STRBUF_INIT;
	va_list ap;
	int rc;

	va_start(ap, fmt);
	strbuf_addf(&cmd, "cd '%s' && ", dir);
	strbuf_vaddf(&cmd, fmt, ap);
	va_end(ap);
	rc = system(cmd.buf);
	strbuf_release(&cmd);
	return rc;
}

static int setup(void **state)
{
	const char *cc = getenv("CC") && *getenv("CC") ? getenv("CC") : "cc";

	(void)state;
	if (!mkdtemp(dir))
		return -1;
	write_file("a.c", a_src);
	write_file("b.c", b_src);
	if (run("%s -g -O2 -fno-pie -no-pie -static -nostdlib "
		"-fno-asynchronous-unwind-tables -Wl,--build-id -Wl,--emit-relocs "
		"-o vmlinux a.c b.c", cc) ||
	    run("mkdir -p mods/kernel/drivers mods/stripped && "
		"%s -g -O2 -fno-pie -c -o mods/kernel/drivers/test-mod.ko a.c && "
		"objcopy --strip-debug mods/kernel/drivers/test-mod.ko "
		"mods/stripped/test_mod.ko", cc))
		return -1;
	snprintf(vmlinux, sizeof(vmlinux), "%s/vmlinux", dir);
	snprintf(moddir, sizeof(moddir), "%s/mods", dir);
	snprintf(modfile, sizeof(modfile), "%s/mods/kernel/drivers/test-mod.ko",
		 dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return run("cd / && rm -rf '%s'", dir) ? -1 : 0;
}

/*
 * The offset, in caller, of the return address of its call to callee
 * (the relocation's offset + 4 for a call rel32), and caller's size.
 */
static unsigned long long ret_off(const char *path, const char *caller,
				  const char *callee, unsigned long long *size)
{
	int fd = open(path, O_RDONLY);
	Elf *elf;
	Elf_Scn *scn = NULL;
	GElf_Sym caller_sym = { 0 };
	GElf_Shdr sh;
	Elf_Data *symdata = NULL;
	size_t symstr = 0, nsyms = 0;
	unsigned long long ret = 0;

	assert_true(fd >= 0);
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	assert_non_null(elf);
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		gelf_getshdr(scn, &sh);
		if (sh.sh_type == SHT_SYMTAB) {
			symdata = elf_getdata(scn, NULL);
			symstr = sh.sh_link;
			nsyms = sh.sh_size / sh.sh_entsize;
		}
	}
	assert_non_null(symdata);
	for (size_t i = 0; i < nsyms; i++) {
		GElf_Sym s;

		gelf_getsym(symdata, (int)i, &s);
		if (!strcmp(elf_strptr(elf, symstr, s.st_name), caller) &&
		    GELF_ST_TYPE(s.st_info) == STT_FUNC)
			caller_sym = s;
	}
	assert_true(caller_sym.st_size > 0);
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		Elf_Data *d;

		gelf_getshdr(scn, &sh);
		if (sh.sh_type != SHT_RELA)
			continue;
		d = elf_getdata(scn, NULL);
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Rela r;
			GElf_Sym s;

			gelf_getrela(d, (int)i, &r);
			gelf_getsym(symdata, (int)GELF_R_SYM(r.r_info), &s);
			if (!strcmp(elf_strptr(elf, symstr, s.st_name), callee) &&
			    r.r_offset >= caller_sym.st_value &&
			    r.r_offset < caller_sym.st_value + caller_sym.st_size)
				ret = r.r_offset + 4 - caller_sym.st_value;
		}
	}
	elf_end(elf);
	close(fd);
	assert_true(ret > 0);
	*size = caller_sym.st_size;
	return ret;
}

static struct ldr_frame frame(const char *func, unsigned long long off,
			      unsigned long long size, const char *module)
{
	struct ldr_frame f = {
		.func = strdup(func),
		.off = off,
		.size = size,
		.has_off = true,
		.module = module ? strdup(module) : NULL,
	};

	return f;
}

/* The answer for outer's call of ext: leaf <- middle <- outer. */
static void check_outer(const struct ldr_frame *f)
{
	assert_string_equal(f->func, "outer");
	assert_non_null(f->file);
	assert_string_equal(f->file, "a.c");
	assert_int_equal(f->line, 12);
	assert_int_equal(f->nr_inl, 2);
	assert_string_equal(f->inl[0].func, "leaf");
	assert_string_equal(f->inl[0].file, "a.c");
	assert_int_equal(f->inl[0].line, 4);
	assert_string_equal(f->inl[1].func, "middle");
	assert_string_equal(f->inl[1].file, "a.c");
	assert_int_equal(f->inl[1].line, 8);
}

static void test_inline_chain(void **state)
{
	struct symbolise_opts o = { .vmlinux = vmlinux };
	struct symboliser *s = symboliser_new(&o);
	unsigned long long size, off = ret_off(vmlinux, "outer", "ext", &size);
	struct ldr_frame v[2];

	(void)state;
	assert_true(symboliser_has_vmlinux(s));
	v[0] = frame("outer", off, size, NULL);
	v[1] = frame("plain", ret_off(vmlinux, "plain", "ext", &size), size,
		     NULL);
	assert_int_equal(symbolise_frames(s, v, 2, 0), 2);
	check_outer(&v[0]);
	assert_string_equal(v[1].file, "a.c");
	assert_int_equal(v[1].line, 20);
	assert_int_equal(v[1].nr_inl, 0);
	assert_int_equal(symboliser_stats(s)->with_line, 2);
	frame_release(&v[0]);
	frame_release(&v[1]);
	symboliser_free(s);
}

static unsigned long long sym_addr(const char *path, const char *name)
{
	struct strbuf cmd = STRBUF_INIT;
	unsigned long long addr = 0;
	char type;
	FILE *p;

	strbuf_addf(&cmd, "nm '%s' | grep ' %s$'", path, name);
	p = popen(cmd.buf, "r");
	assert_non_null(p);
	assert_int_equal(fscanf(p, "%llx %c", &addr, &type), 2);
	pclose(p);
	strbuf_release(&cmd);
	return addr;
}

static void test_bare_address(void **state)
{
	struct symbolise_opts o = { .vmlinux = vmlinux, .quiet = true };
	struct symboliser *s = symboliser_new(&o);
	unsigned long long size, off = ret_off(vmlinux, "outer", "ext", &size);
	unsigned long long base = sym_addr(vmlinux, "outer");
	struct ldr_frame f = { .addr = base + 0x1000000 + off, .has_addr = true };

	(void)state;
	/* no KASLR offset: left alone */
	assert_int_equal(symbolise_frames(s, &f, 1, 0), 0);
	assert_null(f.func);
	assert_null(f.file);
	assert_int_equal(symboliser_stats(s)->no_offset, 1);
	symboliser_free(s);

	o.kaslr_offset = 0x1000000;
	o.has_kaslr_offset = true;
	s = symboliser_new(&o);
	assert_int_equal(symbolise_frames(s, &f, 1, 0), 1);
	assert_true(f.has_off);
	assert_int_equal(f.off, off);
	check_outer(&f);
	frame_release(&f);

	/* a PC (activation) at the first byte of plain: no - 1 */
	f.addr = sym_addr(vmlinux, "plain") + 0x1000000;
	f.has_addr = true;
	assert_int_equal(symbolise_frames(s, &f, 1, SYMBOLISE_ACTIVATION), 1);
	assert_string_equal(f.func, "plain");
	assert_int_equal(f.off, 0);
	assert_int_equal(f.line, 19);
	frame_release(&f);
	symboliser_free(s);
}

static void test_untrusted_left_alone(void **state)
{
	struct symbolise_opts o = { .vmlinux = vmlinux, .quiet = true };
	struct symboliser *s;
	unsigned long long size, off = ret_off(vmlinux, "outer", "ext", &size);
	struct ldr_frame v[4];

	(void)state;
	/* wrong build id: nothing is symbolised */
	o.build_id = "00112233445566778899aabbccddeeff00112233";
	s = symboliser_new(&o);
	assert_false(symboliser_has_vmlinux(s));
	v[0] = frame("outer", off, size, NULL);
	assert_int_equal(symbolise_frames(s, v, 1, 0), 0);
	assert_null(v[0].file);
	assert_int_equal(v[0].nr_inl, 0);
	assert_int_equal(symboliser_stats(s)->no_binary, 1);
	frame_release(&v[0]);
	symboliser_free(s);

	/* missing vmlinux */
	o.build_id = NULL;
	o.vmlinux = "/nonexistent/vmlinux";
	s = symboliser_new(&o);
	assert_false(symboliser_has_vmlinux(s));
	symboliser_free(s);

	o.vmlinux = vmlinux;
	s = symboliser_new(&o);
	v[0] = frame("outer", off, size + 0x1000, NULL);	/* size too big */
	v[1] = frame("dup", 1, 0, NULL);	/* static in a.c and b.c */
	v[2] = frame("no_such_function", 1, 2, NULL);
	v[3] = frame("outer", size, size, NULL);	/* offset past the end */
	assert_int_equal(symbolise_frames(s, v, 4, 0), 0);
	for (int i = 0; i < 4; i++) {
		assert_null(v[i].file);
		frame_release(&v[i]);
	}
	assert_int_equal(symboliser_stats(s)->bad_size, 2);
	assert_int_equal(symboliser_stats(s)->ambiguous, 1);
	assert_int_equal(symboliser_stats(s)->no_symbol, 1);
	symboliser_free(s);
}

static void test_module(void **state)
{
	struct symbolise_opts o = { .modules_dir = moddir, .quiet = true };
	struct symboliser *s = symboliser_new(&o);
	unsigned long long size, off = ret_off(modfile, "outer", "ext", &size);
	struct ldr_frame v[3];

	(void)state;
	/* '-' and '_' are one; the copy with DWARF wins over the stripped */
	v[0] = frame("outer", off, size, "test_mod");
	v[1] = frame("dup", ret_off(modfile, "dup", "ext", &size), size,
		     "test_mod");
	v[2] = frame("outer", off, size, "other_mod");
	assert_int_equal(symbolise_frames(s, v, 3, 0), 2);
	check_outer(&v[0]);
	assert_int_equal(v[1].line, 16);
	assert_null(v[2].file);
	assert_int_equal(symboliser_stats(s)->no_binary, 1);
	for (int i = 0; i < 3; i++)
		frame_release(&v[i]);

	/* a frame naming another build id than the file's */
	v[0] = frame("outer", off, size, "test-mod");
	v[0].build_id = strdup("deadbeef");
	symboliser_free(s);
	s = symboliser_new(&o);
	assert_int_equal(symbolise_frames(s, v, 1, 0), 0);
	frame_release(&v[0]);
	symboliser_free(s);
}

/* Runs fn(arg) with stderr in a file; returns what was written. */
static char *capture_stderr(void (*fn)(void *), void *arg)
{
	char path[512], *text;
	int fd, saved;
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/stderr", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	fflush(stderr);
	saved = dup(2);
	assert_true(saved >= 0);
	assert_int_equal(dup2(fd, 2), 2);
	fn(arg);
	fflush(stderr);
	assert_int_equal(dup2(saved, 2), 2);
	close(saved);
	close(fd);
	f = fopen(path, "r");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	text = calloc(1, n + 1);
	assert_non_null(text);
	assert_int_equal(fread(text, 1, n, f), (size_t)n);
	fclose(f);
	return text;
}

struct layout_case {
	unsigned long long text, eh_frame;	/* section addresses */
	size_t done;	/* bare address and func+off frame symbolised */
	struct ldr_frame v[2];
};

static void symbolise_layout_case(void *arg)
{
	struct layout_case *c = arg;
	struct symbolise_opts o = { .modules_dir = moddir };
	struct symboliser *s = symboliser_new(&o);
	unsigned long long size, off = ret_off(modfile, "outer", "ext", &size);
	unsigned long long value = sym_addr(modfile, "outer");

	symboliser_add_section(s, "test_mod", ".text", c->text);
	symboliser_add_section(s, "test_mod", ".eh_frame", c->eh_frame);
	c->v[0] = (struct ldr_frame){ .addr = c->text + value + off,
				      .has_addr = true };
	c->v[1] = frame("outer", off, size, "test_mod");
	c->done = symbolise_frames(s, &c->v[0], 1, 0);
	/* a second batch: the refused layout is not warned about again */
	c->done += symbolise_frames(s, &c->v[1], 1, 0);
	symboliser_free(s);
}

/*
 * A module's layout is used only when its loaded sections are at non-zero
 * addresses that do not overlap: with kptr_restrict=2 every sections file
 * reads 0, and a hostile guest sends anything. A refused layout leaves
 * bare addresses raw, says so once, and the module's func+off frames are
 * symbolised by name as without a layout.
 */
static void test_module_bad_layout(void **state)
{
	const struct {
		unsigned long long text, eh_frame;
		bool usable;
	} cases[] = {
		{ 0xffffffffc0000000ULL, 0xffffffffc0001000ULL, true },
		{ 0, 0, false },			/* hidden */
		{ 0xffffffffc0000000ULL, 0xffffffffc0000010ULL, false },
		{ 0xffffffffc0000000ULL, 0, false },	/* one hidden */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct layout_case c = { .text = cases[i].text,
					 .eh_frame = cases[i].eh_frame };
		char *err = capture_stderr(symbolise_layout_case, &c);
		const char *w = "module 'test_mod': section addresses hidden";

		check_outer(&c.v[1]);
		if (cases[i].usable) {
			assert_int_equal(c.done, 2);
			check_outer(&c.v[0]);
			assert_string_equal(c.v[0].module, "test_mod");
			assert_string_equal(err, "");
		} else {
			assert_int_equal(c.done, 1);
			assert_null(c.v[0].func);
			assert_null(c.v[0].module);
			assert_null(c.v[0].file);
			assert_non_null(strstr(err, w));
			assert_null(strstr(strstr(err, w) + 1, w));
		}
		free(err);
		frame_release(&c.v[0]);
		frame_release(&c.v[1]);
	}
}

/*
 * Two modules whose loaded sections both hold an address (a freed
 * .init.text reused): the address is named after neither, and counted
 * as ambiguous.
 */
static void test_modules_overlap(void **state)
{
	char twins[512];
	struct symbolise_opts o = { .modules_dir = twins, .quiet = true };
	struct symboliser *s;
	unsigned long long size, off = ret_off(modfile, "outer", "ext", &size);
	unsigned long long text = 0xffffffffc0000000ULL;
	struct ldr_frame f = { .addr = text + sym_addr(modfile, "outer") + off,
			       .has_addr = true };

	(void)state;
	snprintf(twins, sizeof(twins), "%s/twins", dir);
	assert_int_equal(run("mkdir -p twins && cp '%s' twins/test_mod.ko && "
			     "cp '%s' twins/twin.ko", modfile, modfile), 0);
	s = symboliser_new(&o);
	symboliser_add_section(s, "test_mod", ".text", text);
	symboliser_add_section(s, "twin", ".text", text);
	assert_int_equal(symbolise_frames(s, &f, 1, 0), 0);
	assert_null(f.func);
	assert_null(f.module);
	assert_int_equal(symboliser_stats(s)->ambiguous, 1);
	assert_int_equal(symboliser_stats(s)->no_symbol, 0);
	symboliser_free(s);

	/* the twin elsewhere: the address is test_mod's */
	s = symboliser_new(&o);
	symboliser_add_section(s, "test_mod", ".text", text);
	symboliser_add_section(s, "twin", ".text", text + 0x100000);
	assert_int_equal(symbolise_frames(s, &f, 1, 0), 1);
	check_outer(&f);
	assert_string_equal(f.module, "test_mod");
	frame_release(&f);
	symboliser_free(s);
}

static void test_report_and_skip_existing(void **state)
{
	struct symbolise_opts o = { .vmlinux = vmlinux };
	struct symboliser *s = symboliser_new(&o);
	unsigned long long size, off = ret_off(vmlinux, "outer", "ext", &size);
	struct ldr_report *r = report_new(LDR_CIRCULAR_DEPENDENCY, "t");
	int st = report_add_stack(r, "stack backtrace", -1);
	int lk = report_add_lock(r, LDR_ROLE_HELD);
	struct ldr_frame *f;

	(void)state;
	*frames_add(&r->stacks[st].frames) = frame("outer", off, size, NULL);
	f = frames_add(&r->stacks[st].frames);	/* printed symbolised */
	*f = frame("plain", 1, size, NULL);
	f->file = strdup("kept.c");
	f->line = 7;
	*frames_add(&r->locks[lk].at) = frame("plain", 1, size, NULL);
	assert_int_equal(symbolise_report(s, r), 2);
	check_outer(&r->stacks[st].frames.v[0]);
	assert_string_equal(r->stacks[st].frames.v[1].file, "kept.c");
	assert_string_equal(r->locks[lk].at.v[0].file, "a.c");
	report_free(r);
	symboliser_free(s);
}

/*
 * A file of the real build: the one environment variable @var names
 * (the top-level Makefile sets it; missing then is a failure, not a
 * skip), else @fallback, relative to lockdep-tools/; NULL (skip) if that
 * is missing too.
 */
static const char *real_file(const char *var, const char *fallback)
{
	const char *path = getenv(var);

	if (path && *path) {
		if (access(path, R_OK))
			fail_msg("%s='%s' cannot be read", var, path);
		return path;
	}
	return access(fallback, R_OK) ? NULL : fallback;
}

/* The real kernel, when built: a spinlock frame and its inline chain. */
static void test_real_vmlinux(void **state)
{
	const char *path = real_file("LDT_VMLINUX", "../build/linux/vmlinux");
	struct symbolise_opts o = { .vmlinux = path, .quiet = true,
				    .has_kaslr_offset = true };
	struct symboliser *s;
	struct ldr_frame f = { 0 };
	unsigned long long base, off;
	bool found = false;
	size_t i;

	(void)state;
	if (!path)
		skip();
	s = symboliser_new(&o);
	assert_true(symboliser_has_vmlinux(s));
	/*
	 * _raw_spin_lock's body is __raw_spin_lock from spinlock_api_smp.h:
	 * past the prologue, some address has it in its inline chain.
	 */
	base = sym_addr(path, "_raw_spin_lock");
	for (off = 0; off < 0x40 && !found; off++) {
		f.addr = base + off;
		f.has_addr = true;
		assert_int_equal(symbolise_frames(s, &f, 1,
						  SYMBOLISE_ACTIVATION), 1);
		assert_string_equal(f.func, "_raw_spin_lock");
		assert_string_equal(f.file, "kernel/locking/spinlock.c");
		for (i = 0; i < f.nr_inl; i++)
			if (!strcmp(f.inl[i].func, "__raw_spin_lock") &&
			    !strcmp(f.inl[i].file,
				    "include/linux/spinlock_api_smp.h"))
				found = true;
		frame_release(&f);
	}
	assert_true(found);
	symboliser_free(s);
}

/*
 * A function's value, size and section in the real module's own symbol
 * table (readelf), for the expected answers of test_real_module_layout.
 */
static unsigned long long ko_sym(const char *path, const char *name,
				 unsigned long long *size, char *sec,
				 size_t secsize)
{
	struct strbuf cmd = STRBUF_INIT;
	unsigned long long value = 0;
	unsigned int ndx;
	FILE *p;

	strbuf_addf(&cmd, "readelf -sW '%s' | awk '$4 == \"FUNC\" && $8 == \"%s\" { print $2, $3, $7 }'",
		    path, name);
	p = popen(cmd.buf, "r");
	assert_non_null(p);
	assert_int_equal(fscanf(p, "%llx %llu %u", &value, size, &ndx), 3);
	pclose(p);
	strbuf_reset(&cmd);
	strbuf_addf(&cmd, "readelf -SW '%s' | sed -n 's/^ *\\[ *%u\\] \\([^ ]*\\) .*/\\1/p'",
		    path, ndx);
	p = popen(cmd.buf, "r");
	assert_non_null(p);
	assert_non_null(fgets(sec, (int)secsize, p));
	sec[strcspn(sec, "\n")] = '\0';
	pclose(p);
	strbuf_release(&cmd);
	return value;
}

/* The GNU build id of @path (readelf -n) into @buf. */
static const char *ko_build_id(const char *path, char *buf, size_t size)
{
	struct strbuf cmd = STRBUF_INIT;
	FILE *p;

	strbuf_addf(&cmd, "readelf -n '%s' | sed -n 's/^ *Build ID: //p'", path);
	p = popen(cmd.buf, "r");
	assert_non_null(p);
	assert_non_null(fgets(buf, (int)size, p));
	buf[strcspn(buf, "\n")] = '\0';
	pclose(p);
	strbuf_release(&cmd);
	assert_int_equal(strlen(buf), 40);
	return buf;
}

/* A module's loaded section, as a /sys/module/NAME/sections/ file says. */
struct ko_section {
	char name[64];
	unsigned long long addr;
};

/*
 * A layout for the .ko @path, as the kernel could give it: each of its
 * SHF_ALLOC sections with a size at the next page after the previous
 * one's end, from @base. Returns the number of sections; *@end is the
 * end of the last one.
 */
static size_t ko_layout(const char *path, unsigned long long base,
			struct ko_section *v, size_t max,
			unsigned long long *end)
{
	int fd = open(path, O_RDONLY);
	Elf_Scn *scn = NULL;
	size_t shstrndx, n = 0;
	Elf *elf;

	assert_true(fd >= 0);
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	assert_non_null(elf);
	assert_int_equal(elf_getshdrstrndx(elf, &shstrndx), 0);
	*end = base;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		const char *name;
		GElf_Shdr sh;

		assert_non_null(gelf_getshdr(scn, &sh));
		if (!(sh.sh_flags & SHF_ALLOC) || !sh.sh_size)
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		assert_non_null(name);
		assert_true(n < max && strlen(name) < sizeof(v[n].name));
		strcpy(v[n].name, name);
		v[n].addr = (*end + 0xfff) & ~0xfffULL;
		*end = v[n].addr + sh.sh_size;
		n++;
	}
	elf_end(elf);
	close(fd);
	return n;
}

/*
 * The scenario module of the real build, loaded at the addresses of a
 * /sys/module/NAME/sections/ table built from its own section sizes: a
 * bare return address inside a function, in .text and in .init.text, is
 * that function at the right offset with its file:line; an address
 * after the last section stays bare, and so does every address when the
 * loaded module's build id is not the file's.
 */
static void test_real_module_layout(void **state)
{
	const char *ko = real_file("LDT_SCENARIO_KO",
				   "../build/linux/lib/test_lockdep_scenarios.ko");
	const char *funcs[] = { "order_ab", "test_lockdep_scenarios_init" };
	struct symbolise_opts o = { .quiet = true };
	struct ldr_frame v[3] = { 0 };
	char mods[512], sec[64], *abs;
	struct ko_section table[256];
	unsigned long long addr0, end;
	struct symboliser *s;
	size_t i, k, nr;

	(void)state;
	if (!ko)
		skip();
	nr = ko_layout(ko, 0xffffffffc0200000ULL, table,
		       sizeof(table) / sizeof(table[0]), &end);
	/* a directory holding only the module, as --modules gets it */
	snprintf(mods, sizeof(mods), "%s/real-mods", dir);
	abs = realpath(ko, NULL);
	assert_non_null(abs);
	assert_int_equal(run("mkdir -p '%s' && cp '%s' '%s/'", mods, abs,
			     mods), 0);
	free(abs);
	o.modules_dir = mods;
	s = symboliser_new(&o);
	for (i = 0; i < nr; i++)
		symboliser_add_section(s, "test_lockdep_scenarios",
				       table[i].name, table[i].addr);
	for (i = 0; i < 2; i++) {
		unsigned long long size, value = ko_sym(ko, funcs[i], &size,
							sec, sizeof(sec));

		assert_true(size > 8);
		for (k = 0; k < nr; k++)
			if (!strcmp(table[k].name, sec))
				break;
		assert_true(k < nr);
		v[i].addr = table[k].addr + value + 8;
		v[i].has_addr = true;
	}
	v[2].addr = end + 0x10;	/* after the last section */
	v[2].has_addr = true;
	addr0 = v[0].addr;
	assert_int_equal(symbolise_frames(s, v, 3, 0), 2);
	for (i = 0; i < 2; i++) {
		assert_non_null(v[i].func);
		assert_string_equal(v[i].func, funcs[i]);
		assert_int_equal(v[i].off, 8);
		assert_true(v[i].has_off);
		assert_string_equal(v[i].module, "test_lockdep_scenarios");
		assert_non_null(v[i].file);
		assert_string_equal(v[i].file, "lib/test_lockdep_scenarios.c");
		assert_true(v[i].line > 0);
	}
	assert_null(v[2].func);
	assert_null(v[2].module);
	assert_int_equal(symboliser_stats(s)->no_binary, 1);

	/* the module's func+off frame: the same binary, the same line */
	v[2] = frame(funcs[0], 8, v[0].size, "test_lockdep_scenarios");
	assert_int_equal(symbolise_frames(s, &v[2], 1, 0), 1);
	assert_string_equal(v[2].file, v[0].file);
	assert_int_equal(v[2].line, v[0].line);
	for (i = 0; i < 3; i++)
		frame_release(&v[i]);

	/* the loaded module's build id: the file's is used, another is not */
	symboliser_set_module_build_id(s, "test_lockdep_scenarios",
				       ko_build_id(ko, sec, sizeof(sec)));
	v[0].addr = addr0;
	v[0].has_addr = true;
	assert_int_equal(symbolise_frames(s, v, 1, 0), 1);
	assert_string_equal(v[0].func, funcs[0]);
	frame_release(&v[0]);
	symboliser_set_module_build_id(s, "test_lockdep_scenarios",
				       "0123456789abcdef0123456789abcdef01234567");
	v[0].addr = addr0;
	v[0].has_addr = true;
	assert_int_equal(symbolise_frames(s, v, 1, 0), 0);
	assert_null(v[0].func);
	assert_null(v[0].module);
	symboliser_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inline_chain),
		cmocka_unit_test(test_bare_address),
		cmocka_unit_test(test_untrusted_left_alone),
		cmocka_unit_test(test_module),
		cmocka_unit_test(test_module_bad_layout),
		cmocka_unit_test(test_modules_overlap),
		cmocka_unit_test(test_report_and_skip_existing),
		cmocka_unit_test(test_real_vmlinux),
		cmocka_unit_test(test_real_module_layout),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
