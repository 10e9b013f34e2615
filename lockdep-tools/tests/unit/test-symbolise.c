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
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "real-files.h"
#include "symbolise/binary.h"
#include "symbolise/index.h"
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

/*
 * vmlinux's build id, fixed: a hashed one changes with the temporary
 * directory the DWARF names, and a test that passes for most ids and
 * fails for some (one that begins like a forged id, say) would then
 * fail one run in hundreds. It begins with "00" on purpose.
 */
#define VM_BUILD_ID "0011223344556677889900aabbccddeeff001122"

static char dir[] = "/tmp/ldt-symbolise.XXXXXX";
static char vmlinux[256], moddir[256], modfile[256];
static char *vm_id;	/* vmlinux's build id */
static struct sym_elf_identity vm_elf;	/* and its identity */

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
	bool own_dwarf;

	(void)state;
	if (!mkdtemp(dir))
		return -1;
	write_file("a.c", a_src);
	write_file("b.c", b_src);
	if (run("%s -g -O2 -fno-pie -no-pie -static -nostdlib "
		"-fno-asynchronous-unwind-tables -Wl,--build-id=0x%s "
		"-Wl,--emit-relocs -o vmlinux a.c b.c", cc, VM_BUILD_ID) ||
	    run("mkdir -p mods/kernel/drivers mods/stripped && "
		"%s -g -O2 -fno-pie -c -o mods/kernel/drivers/test-mod.ko a.c && "
		"objcopy --strip-debug mods/kernel/drivers/test-mod.ko "
		"mods/stripped/test_mod.ko", cc))
		return -1;
	snprintf(vmlinux, sizeof(vmlinux), "%s/vmlinux", dir);
	snprintf(moddir, sizeof(moddir), "%s/mods", dir);
	snprintf(modfile, sizeof(modfile), "%s/mods/kernel/drivers/test-mod.ko",
		 dir);
	return sym_file_identity(vmlinux, &vm_id, &own_dwarf, &vm_elf) && vm_id &&
	       own_dwarf ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	free(vm_id);
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

/*
 * The symbol index cache (symbolise/index.h): a warm run, answered from
 * the mapped index, answers exactly what a run without a cache answers;
 * an index that is truncated, damaged, of another build or lying about
 * its own structure is refused, and rebuilt.
 */
static char cache[256];

/* The background build of @id's index in @d is over. */
static void wait_index(const char *d, const char *id)
{
	char *lock = sym_index_path(d, id, ".lock");
	int fd = open(lock, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(flock(fd, LOCK_EX), 0);
	close(fd);
	free(lock);
}

static char *index_file(const char *d, const char *id)
{
	return sym_index_path(d, id, ".idx");
}

static void assert_same_string(const char *a, const char *b)
{
	if (a && b)
		assert_string_equal(a, b);
	else
		assert_ptr_equal(a, b);
}

static void assert_same_frame(const struct ldr_frame *a,
			      const struct ldr_frame *b)
{
	assert_same_string(a->func, b->func);
	assert_same_string(a->module, b->module);
	assert_same_string(a->file, b->file);
	assert_int_equal(a->line, b->line);
	assert_int_equal(a->has_off, b->has_off);
	assert_int_equal(a->off, b->off);
	assert_int_equal(a->size, b->size);
	assert_int_equal(a->nr_inl, b->nr_inl);
	for (size_t i = 0; i < a->nr_inl; i++) {
		assert_string_equal(a->inl[i].func, b->inl[i].func);
		assert_same_string(a->inl[i].file, b->inl[i].file);
		assert_int_equal(a->inl[i].line, b->inl[i].line);
	}
}

/* Frames to look up: bare addresses or func+off ones, with flags. */
struct probe {
	struct ldr_frame *v;
	size_t nr, alloc;
	unsigned int flags;
};

static void add_addr(struct probe *p, unsigned long long addr)
{
	if (p->nr == p->alloc) {
		p->alloc = p->alloc ? 2 * p->alloc : 1024;
		p->v = realloc(p->v, p->alloc * sizeof(*p->v));
		assert_non_null(p->v);
	}
	p->v[p->nr++] = (struct ldr_frame){ .addr = addr, .has_addr = true };
}

static void add_func(struct probe *p, const char *func,
		     unsigned long long off, const char *module)
{
	add_addr(p, 0);
	p->v[p->nr - 1] = (struct ldr_frame){
		.func = strdup(func), .off = off, .has_off = true,
		.module = module ? strdup(module) : NULL,
	};
}

/* A copy of @p's frames symbolised against @o (cache_dir @dir). */
static struct ldr_frame *answers(const struct probe *p,
				 struct symbolise_opts o, const char *d)
{
	struct ldr_frame *v = calloc(p->nr + 1, sizeof(*v));
	struct symboliser *s;

	assert_non_null(v);
	for (size_t i = 0; i < p->nr; i++) {
		v[i] = p->v[i];
		v[i].func = p->v[i].func ? strdup(p->v[i].func) : NULL;
		v[i].module = p->v[i].module ? strdup(p->v[i].module) : NULL;
	}
	o.cache_dir = d;
	o.quiet = true;
	s = symboliser_new(&o);
	assert_non_null(s);
	symbolise_frames(s, v, p->nr, p->flags);
	symboliser_free(s);
	return v;
}

static void free_answers(struct ldr_frame *v, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		frame_release(&v[i]);
	free(v);
}

/*
 * @p against @o without a cache, then with @d: cold (no index yet),
 * warm (from the index @path must then be opened from): all alike, and
 * @want symbolised with a line.
 */
static void check_warm_equals_cold(struct probe *p, struct symbolise_opts o,
				   const char *d, const char *path,
				   size_t want)
{
	struct ldr_frame *ref = answers(p, o, NULL), *cold, *warm;
	struct sym_elf_identity elf;
	struct sym_binary *b;
	char *id = NULL;
	const char *err;
	size_t lines = 0;
	bool own;

	cold = answers(p, o, d);
	assert_true(sym_file_identity(path, &id, &own, &elf));
	wait_index(d, id);
	b = sym_binary_open(path, d, &err);
	assert_non_null(b);
	assert_non_null(b->index);	/* warm: answered from the index */
	sym_binary_free(b);
	warm = answers(p, o, d);
	for (size_t i = 0; i < p->nr; i++) {
		assert_same_frame(&ref[i], &cold[i]);
		assert_same_frame(&ref[i], &warm[i]);
		lines += ref[i].file != NULL;
	}
	assert_true(lines >= want);
	free_answers(ref, p->nr);
	free_answers(cold, p->nr);
	free_answers(warm, p->nr);
	free(id);
}

static void free_probe(struct probe *p)
{
	free_answers(p->v, p->nr);
	memset(p, 0, sizeof(*p));
}

/* Every byte of the binary's code, as PCs and as return addresses. */
static void test_cache_warm_equals_cold(void **state)
{
	struct symbolise_opts o = { .vmlinux = vmlinux,
				    .has_kaslr_offset = true };
	unsigned long long lo = sym_addr(vmlinux, "outer");
	unsigned long long hi = sym_addr(vmlinux, "_start") + 0x10;
	struct probe p = { 0 };
	char d[512];

	(void)state;
	for (unsigned long long a = lo - 0x10; a < hi + 0x30; a++)
		add_addr(&p, a);
	snprintf(d, sizeof(d), "%s/warm", dir);
	check_warm_equals_cold(&p, o, d, vmlinux, (hi - lo) / 2);
	p.flags = SYMBOLISE_ACTIVATION;
	check_warm_equals_cold(&p, o, d, vmlinux, (hi - lo) / 2);
	free_probe(&p);
}

/*
 * SYMBOLISE_BORROW: the same answers as copies (a bare address's function
 * too), from the DWARF and from the index, released with the frames while the symboliser lives (ASan:
 * no borrowed string freed), and again over answers already borrowed.
 */
static void test_borrowed_answers(void **state)
{
	struct symbolise_opts o = { .vmlinux = vmlinux, .quiet = true,
				    .has_kaslr_offset = true };
	unsigned long long lo = sym_addr(vmlinux, "outer");
	unsigned long long hi = sym_addr(vmlinux, "_start") + 0x10;
	struct probe p = { 0 };
	struct ldr_frame *ref;
	char d[512];

	(void)state;
	for (unsigned long long a = lo - 0x10; a < hi + 0x30; a++)
		add_addr(&p, a);
	ref = answers(&p, o, NULL);
	snprintf(d, sizeof(d), "%s/borrow", dir);
	for (int warm = 0; warm < 2; warm++) {
		struct ldr_frame *v = calloc(p.nr, sizeof(*v));
		struct symboliser *s;
		size_t borrowed = 0;

		assert_non_null(v);
		memcpy(v, p.v, p.nr * sizeof(*v));
		o.cache_dir = d;
		s = symboliser_new(&o);
		assert_non_null(s);
		assert_int_equal(symboliser_vmlinux_indexed(s), warm);
		symbolise_frames(s, v, p.nr, SYMBOLISE_BORROW);
		for (size_t i = 0; i < p.nr; i++) {
			assert_same_frame(&ref[i], &v[i]);
			borrowed += v[i].source_borrowed && v[i].func_borrowed;
		}
		assert_true(borrowed > (hi - lo) / 2);
		/* answered again in place: the borrowed answer not freed */
		symbolise_frames(s, v, p.nr,
				 SYMBOLISE_BORROW | SYMBOLISE_OVERWRITE);
		for (size_t i = 0; i < p.nr; i++)
			assert_same_frame(&ref[i], &v[i]);
		free_answers(v, p.nr);
		symboliser_free(s);
		if (!warm) {
			char *id = NULL;
			struct sym_elf_identity elf;
			bool own;

			assert_true(sym_file_identity(vmlinux, &id, &own, &elf));
			wait_index(d, id);
			free(id);
		}
	}
	free_answers(ref, p.nr);
	free_probe(&p);
}

/* The file @path holds @n bytes of @buf. */
static void write_bytes(const char *path, const void *buf, size_t n)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

static void *read_file(const char *path, size_t *n)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long len;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	buf = malloc(len + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, len, f), (size_t)len);
	fclose(f);
	*n = (size_t)len;
	return buf;
}

/* The header's crc of @buf as index-file.c computes it. */
static void fix_crc(unsigned char *buf, size_t n)
{
	struct sym_index_header *h = (void *)buf;
	const size_t at = offsetof(struct sym_index_header, crc);
	uLong crc;

	h->crc = 0;
	crc = crc32(0, buf, at + 4);
	h->crc = (uint32_t)crc32(crc, buf + at + 4, n - at - 4);
}

/*
 * Writes @bad as the cache's index of bin: it must be refused, the
 * answers must be those without a cache, and the file rebuilt as @good.
 */
static void check_refused(const unsigned char *bad, size_t n,
			  const unsigned char *good, size_t good_n,
			  struct probe *p, const struct ldr_frame *ref)
{
	struct symbolise_opts o = { .vmlinux = vmlinux,
				    .has_kaslr_offset = true };
	char *path = index_file(cache, vm_id);
	struct ldr_frame *v;
	unsigned char *now;
	size_t now_n;

	write_bytes(path, bad, n);
	assert_null(sym_index_open(cache, vm_id, &vm_elf));
	v = answers(p, o, cache);
	for (size_t i = 0; i < p->nr; i++)
		assert_same_frame(&ref[i], &v[i]);
	free_answers(v, p->nr);
	wait_index(cache, vm_id);
	now = read_file(path, &now_n);
	assert_int_equal(now_n, good_n);
	assert_memory_equal(now, good, good_n);
	free(now);
	free(path);
}

/* A field of the header or a table entry of @buf, by byte offset. */
#define AT(buf, off, type) (*(type *)((buf) + (off)))

static void test_cache_damaged_refused(void **state)
{
	struct symbolise_opts o = { .vmlinux = vmlinux,
				    .has_kaslr_offset = true };
	unsigned long long size, lo = sym_addr(vmlinux, "outer");
	struct probe p = { .flags = SYMBOLISE_ACTIVATION };
	const struct sym_index_header *h;
	struct ldr_frame *ref;
	unsigned char *good, *bad;
	struct sym_index *ix;
	size_t n, i;
	char *path, *other;

	(void)state;
	ret_off(vmlinux, "outer", "ext", &size);
	for (unsigned long long a = lo; a < lo + size; a++)
		add_addr(&p, a);
	snprintf(cache, sizeof(cache), "%s/cache", dir);
	ref = answers(&p, o, NULL);
	free_answers(answers(&p, o, cache), p.nr);
	wait_index(cache, vm_id);
	path = index_file(cache, vm_id);
	good = read_file(path, &n);
	h = (const void *)good;
	ix = sym_index_open(cache, vm_id, &vm_elf);
	assert_non_null(ix);
	sym_index_close(ix);
	bad = malloc(n + 64);
	assert_non_null(bad);

	/* truncated anywhere, or one byte changed (a sample of them) */
	for (i = 0; i < n; i += 37) {
		check_refused(good, i, good, n, &p, ref);
		memcpy(bad, good, n);
		bad[i] ^= 0x20;
		check_refused(bad, n, good, n, &p, ref);
	}
	/*
	 * another build's index under this build's name: its id differs
	 * from ours in the last digit (a fixed string written over the id
	 * once left it unchanged, when the id began with that string)
	 */
	memcpy(bad, good, n);
	other = (char *)bad + offsetof(struct sym_index_header, build_id);
	other[strlen(other) - 1] = other[strlen(other) - 1] == '0' ? '1' : '0';
	assert_true(strcasecmp(other, vm_id) != 0);
	fix_crc(bad, n);
	check_refused(bad, n, good, n, &p, ref);

	/* a valid CRC over a structure that lies: every check of (2) */
	assert_true(h->table[SYM_IX_SYMS].nr > 0 &&
		    h->table[SYM_IX_INLS].nr > 0 &&
		    h->table[SYM_IX_STARTS].nr > 1);
	for (int k = 0; k < 11; k++) {
		size_t bad_n = n;
		size_t syms = h->table[SYM_IX_SYMS].off;
		size_t inls = h->table[SYM_IX_INLS].off;
		size_t vals = h->table[SYM_IX_VALS].off;
		size_t starts = h->table[SYM_IX_STARTS].off;
		size_t strs = h->table[SYM_IX_STRINGS].off;
		size_t nstr = h->table[SYM_IX_STRINGS].nr;
		struct sym_index_header *bh = (void *)bad;

		memcpy(bad, good, n);
		switch (k) {
		case 0:	/* a table past the end */
			bh->table[SYM_IX_INLS].off = n;
			break;
		case 1:	/* a count that overflows */
			bh->table[SYM_IX_VALS].nr = UINT64_MAX / 4;
			break;
		case 2:	/* a symbol name outside the strings */
			AT(bad, syms, struct sym_index_sym).name = nstr;
			break;
		case 3:	/* by_name pointing past the symbols */
			AT(bad, h->table[SYM_IX_BY_NAME].off, uint32_t) =
				h->table[SYM_IX_SYMS].nr;
			break;
		case 4:	/* an inline chain that loops */
			AT(bad, inls, struct sym_index_inl).next = 0;
			break;
		case 5:	/* a range's chain past the links */
			AT(bad, vals, struct sym_index_val).inl =
				h->table[SYM_IX_INLS].nr;
			break;
		case 6:	/* ranges out of order */
			AT(bad, starts, uint64_t) = ~0ULL;
			break;
		case 7:	/* strings without their final NUL */
			bad[strs + nstr - 1] = 'x';
			break;
		case 8:	/* a misaligned table */
			bh->table[SYM_IX_STRINGS].off += 1;
			break;
		case 9:	/* bytes past the last table, the size saying so */
			memset(bad + n, 0, 64);
			bad_n = n + 64;
			bh->size = bad_n;
			break;
		case 10: /* the index of another binary of this build id */
			bh->elf.crc ^= 1;
			break;
		}
		fix_crc(bad, bad_n);
		check_refused(bad, bad_n, good, n, &p, ref);
	}
	free(bad);
	free(good);
	free(path);
	free_answers(ref, p.nr);
	free_probe(&p);
}

/* No cache directory: nothing written; one that cannot be made: said. */
static void test_cache_none(void **state)
{
	struct symbolise_opts o = { .vmlinux = vmlinux,
				    .has_kaslr_offset = true };
	unsigned long long lo = sym_addr(vmlinux, "outer");
	struct probe p = { 0 };
	char d[512];
	struct stat st;
	char *dflt;

	(void)state;
	add_addr(&p, lo + 1);
	snprintf(d, sizeof(d), "%s/none", dir);
	free_answers(answers(&p, o, NULL), p.nr);
	assert_int_equal(stat(d, &st), -1);
	/* a file where the directory should be: the answers stay */
	write_bytes(d, "x", 1);
	strcat(d, "/sub");
	free_answers(answers(&p, o, d), p.nr);
	assert_int_equal(stat(d, &st), -1);

	setenv("XDG_CACHE_HOME", "relative/is/ignored", 1);
	setenv("HOME", "/home/u", 1);
	dflt = symbolise_cache_dir(NULL);
	assert_string_equal(dflt, "/home/u/.cache/lockdep-tools");
	free(dflt);
	setenv("XDG_CACHE_HOME", "/xdg", 1);
	dflt = symbolise_cache_dir(NULL);
	assert_string_equal(dflt, "/xdg/lockdep-tools");
	free(dflt);
	dflt = symbolise_cache_dir("/given");
	assert_string_equal(dflt, "/given");
	free(dflt);
	unsetenv("XDG_CACHE_HOME");
	unsetenv("HOME");
	assert_null(symbolise_cache_dir(NULL));
	free_probe(&p);
}

/*
 * The cache on the real kernel: addresses all over its code (a prime stride, so every
 * alignment is hit), as return addresses and as PCs.
 */
static void test_cache_real_vmlinux(void **state)
{
	const char *path = real_file("LDT_VMLINUX", "../build/linux/vmlinux");
	struct symbolise_opts o = { .vmlinux = path,
				    .has_kaslr_offset = true };
	unsigned long long lo, hi;
	struct probe p = { 0 };
	char d[512];

	(void)state;
	if (!path)
		skip();
	lo = sym_addr(path, "_stext");
	hi = sym_addr(path, "_etext");
	for (unsigned long long a = lo; a < hi; a += 997)
		add_addr(&p, a);
	snprintf(d, sizeof(d), "%s/real", dir);
	check_warm_equals_cold(&p, o, d, path, p.nr / 2);
	p.flags = SYMBOLISE_ACTIVATION;
	check_warm_equals_cold(&p, o, d, path, p.nr / 2);
	free_probe(&p);
}

/* The cache on the real scenario module: every byte of each function. */
static void test_cache_real_module(void **state)
{
	const char *ko = real_file("LDT_SCENARIO_KO",
				   "../build/linux/lib/test_lockdep_scenarios.ko");
	struct symbolise_opts o = { 0 };
	struct probe p = { 0 };
	char mods[512], copy[600], name[1024];
	unsigned long long size;
	FILE *nm;

	(void)state;
	if (!ko)
		skip();
	snprintf(mods, sizeof(mods), "%s/real-mods", dir);
	snprintf(copy, sizeof(copy), "%s/test_lockdep_scenarios.ko", mods);
	assert_int_equal(run("mkdir -p '%s' && cp '%s' '%s'", mods, ko, copy),
			 0);
	snprintf(name, sizeof(name), "nm -S --defined-only '%s' | "
		 "awk '$3 ~ /^[tT]$/ && $2 != \"\" { print $4, $2 }'", copy);
	nm = popen(name, "r");
	assert_non_null(nm);
	while (fscanf(nm, "%255s %llx", name, &size) == 2)
		for (unsigned long long off = 0; off < size; off++)
			add_func(&p, name, off, "test_lockdep_scenarios");
	pclose(nm);
	assert_true(p.nr > 100);
	o.modules_dir = mods;
	snprintf(name, sizeof(name), "%s/real-mod-cache", dir);
	check_warm_equals_cold(&p, o, name, copy, p.nr / 2);
	free_probe(&p);
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
		cmocka_unit_test(test_cache_warm_equals_cold),
		cmocka_unit_test(test_borrowed_answers),
		cmocka_unit_test(test_cache_damaged_refused),
		cmocka_unit_test(test_cache_none),
		cmocka_unit_test(test_cache_real_vmlinux),
		cmocka_unit_test(test_cache_real_module),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
