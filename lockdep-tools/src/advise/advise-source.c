// SPDX-License-Identifier: GPL-2.0
/*
 * Sites, the locking API's variants, and source edits for advice.
 *
 * A site comes from a symbolised frame (parse/report.h: the inline chain
 * innermost first, each entry's file:line inside its own function, the
 * frame's file:line inside the frame's function). The innermost location
 * in a .c file is where the code calls the lock: spin_lock() and its
 * kin are inline functions of include/linux/, so with them inlined the
 * frame's address is inside the header and the call is one level out.
 *
 * Edits replace one call on one line by its variant, or put a line
 * before it (an annotation of the release), never remove a line, so a
 * change is (line, old text, new text: that line, after the added one if
 * any) and the diff is a set of one-line replacements and insertions
 * with three lines of context.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "advise/advise-source.h"
#include "util/open-beneath.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* The calls advice can rewrite, and their variants (NULL: none). */
struct lock_api {
	const char *name;
	const char *nested;	/* with a subclass as the last argument */
	const char *irq, *bh;	/* the lock with irqs / softirqs off */
	const char *unlock;	/* its release */
	const char *allow;	/* an unlock: the annotation said before it */
};

static const struct lock_api apis[] = {
	{ "spin_lock", "spin_lock_nested", "spin_lock_irq", "spin_lock_bh",
	  "spin_unlock", NULL },
	{ "spin_lock_irqsave", "spin_lock_irqsave_nested", NULL, NULL,
	  "spin_unlock_irqrestore", NULL },
	{ "raw_spin_lock", "raw_spin_lock_nested", "raw_spin_lock_irq",
	  "raw_spin_lock_bh", "raw_spin_unlock", NULL },
	{ "raw_spin_lock_irqsave", "raw_spin_lock_irqsave_nested", NULL, NULL,
	  "raw_spin_unlock_irqrestore", NULL },
	{ "read_lock", NULL, "read_lock_irq", "read_lock_bh", "read_unlock",
	  NULL },
	{ "write_lock", "write_lock_nested", "write_lock_irq", "write_lock_bh",
	  "write_unlock", NULL },
	{ "mutex_lock", "mutex_lock_nested", NULL, NULL, "mutex_unlock", NULL },
	{ "mutex_lock_interruptible", "mutex_lock_interruptible_nested", NULL,
	  NULL, "mutex_unlock", NULL },
	{ "mutex_lock_killable", "mutex_lock_killable_nested", NULL, NULL,
	  "mutex_unlock", NULL },
	{ "down_read", "down_read_nested", NULL, NULL, "up_read", NULL },
	{ "down_write", "down_write_nested", NULL, NULL, "up_write", NULL },
	{ "inode_lock", "inode_lock_nested", NULL, NULL, "inode_unlock", NULL },
	{ "inode_lock_shared", "inode_lock_shared_nested", NULL, NULL,
	  "inode_unlock_shared", NULL },
	/*
	 * releases of the locks that have a dep_map of their own, which the
	 * series' lockdep_allow_unordered_unlock(lock) takes: not
	 * inode_unlock(), whose argument is the inode
	 */
#define UNLOCK(name) \
	{ name, NULL, NULL, NULL, NULL, "lockdep_allow_unordered_unlock" }
#define UNLOCKS(name) UNLOCK(name), UNLOCK(name "_irq"), \
	UNLOCK(name "_irqrestore"), UNLOCK(name "_bh")
	UNLOCKS("spin_unlock"), UNLOCKS("raw_spin_unlock"),
	UNLOCKS("read_unlock"), UNLOCKS("write_unlock"),
	UNLOCK("mutex_unlock"), UNLOCK("up_read"), UNLOCK("up_write"),
#undef UNLOCKS
#undef UNLOCK
};

static const struct lock_api *api_named(const char *name)
{
	size_t i;

	for (i = 0; name && i < sizeof(apis) / sizeof(apis[0]); i++)
		if (!strcmp(apis[i].name, name))
			return &apis[i];
	return NULL;
}

static const char *variant(const struct lock_api *api, enum adv_edit edit)
{
	switch (edit) {
	case ADV_EDIT_NESTED:
		return api->nested;
	case ADV_EDIT_IRQ:
		return api->irq;
	case ADV_EDIT_BH:
		return api->bh;
	case ADV_EDIT_ALLOW_UNORDERED:
		return api->allow;
	}
	return NULL;
}

static bool is_header(const char *file)
{
	size_t n = file ? strlen(file) : 0;

	return n >= 2 && !strcmp(file + n - 2, ".h");
}

static bool site_from_frame(const struct ldr_frame *f, struct adv_site *s)
{
	size_t k;

	s->callee = NULL;
	for (k = 0; k < f->nr_inl; k++) {
		if (f->inl[k].file && !is_header(f->inl[k].file)) {
			s->file = f->inl[k].file;
			s->line = f->inl[k].line;
			s->function = f->inl[k].func;
			return s->line != 0;
		}
		s->callee = f->inl[k].func;
	}
	if (!f->file || !f->line || is_header(f->file))
		return false;
	s->file = f->file;
	s->line = f->line;
	s->function = f->func;
	return true;
}

bool adv_site_of_frames(const struct ldr_frames *f, struct adv_site *s)
{
	const struct ldr_frame *fr = f ? report_pick_frame(f) : NULL;

	if (!fr || !site_from_frame(fr, s))
		return false;
	/* a log's own "spin_lock include/linux/spinlock.h:351 [inline]" frame */
	if (!s->callee && fr > f->v && fr[-1].inlined && api_named(fr[-1].func))
		s->callee = fr[-1].func;
	return true;
}

/* ---- source files ---- */

struct source {
	char *path;		/* relative to the source directory */
	char **lines;		/* without their newline */
	size_t nr, alloc;
	bool last_has_newline;
};

static void source_release(struct source *src)
{
	size_t i;

	for (i = 0; i < src->nr; i++)
		free(src->lines[i]);
	free(src->lines);
	free(src->path);
	memset(src, 0, sizeof(*src));
}

/*
 * A source file bigger than this is refused: the largest .c file of
 * Linux 6.1 is 1.7 MiB (a site is never in a header), and a frame may
 * name anything (a device, /proc/self/pagemap through a link) to make
 * the tool read without end.
 */
#define SOURCE_MAX_BYTES (16u << 20)

/*
 * Open @rel beneath @dir: the names come from a report, which is
 * untrusted, so none may lead out of the tree (util/open-beneath.h).
 */
static int source_open(const char *dir, const char *rel, const char **refused)
{
	int dirfd, fd, err;

	*refused = NULL;
	dirfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return -1;
	fd = open_beneath(dirfd, rel, refused);
	err = errno;
	close(dirfd);
	errno = err;
	return fd;
}

/*
 * @rel with no empty, "." or ".." component, as git apply wants a
 * patch's paths ("invalid path" else): drivers/x/../y/z.c, the shape of
 * some drivers' DWARF names, is drivers/y/z.c. NULL when a ".." climbs
 * above the start, or nothing is left.
 */
static char *plain_path(const char *rel, bool *had_dotdot)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = rel, *end;
	size_t len;

	*had_dotdot = false;
	for (; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, '/');
		len = (size_t)(end - p);
		if (!len || (len == 1 && *p == '.'))
			continue;
		if (len == 2 && p[0] == '.' && p[1] == '.') {
			char *slash;

			*had_dotdot = true;
			if (!sb.len) {
				strbuf_release(&sb);
				return NULL;
			}
			/* the last component goes: buf holds no NUL here */
			slash = strrchr(sb.buf, '/');
			sb.len = slash ? (size_t)(slash - sb.buf) : 0;
			sb.buf[sb.len] = '\0';
			continue;
		}
		if (sb.len)
			strbuf_addch(&sb, '/');
		strbuf_add(&sb, p, len);
	}
	if (!sb.len) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb, NULL);
}

static bool same_file(int a, int b)
{
	struct stat sa, sb;

	return !fstat(a, &sa) && !fstat(b, &sb) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

/*
 * Open @rel beneath @dir by its plain path (*@plain, for the patch).
 * A ".." after a symbolic link climbs from where the link leads, not
 * from where the name says: the plain path must name the file the name
 * itself resolves to, or the patch would edit another file.
 */
static int source_open_plain(const char *dir, const char *rel, char **plain,
			     const char **refused)
{
	bool dotdot;
	int fd, as_named;

	*plain = plain_path(rel, &dotdot);
	if (!*plain) {
		*refused = "it leads outside the directory";
		return -1;
	}
	fd = source_open(dir, *plain, refused);
	if (fd < 0 || !dotdot)
		goto out;
	as_named = source_open(dir, rel, refused);
	if (as_named < 0 || !same_file(fd, as_named)) {
		if (!*refused)
			*refused = "a \"..\" in its name does not lead where its plain path does (a symbolic link, or a directory missing)";
		close(fd);
		fd = -1;
	}
	if (as_named >= 0)
		close(as_named);
out:
	if (fd < 0) {
		free(*plain);
		*plain = NULL;
	}
	return fd;
}

static int source_load(struct source *src, const char *dir, const char *rel,
		       const char **refused)
{
	struct strbuf line = STRBUF_INIT;
	size_t bytes = 0;
	struct stat st;
	char *plain;
	FILE *in;
	int c, fd;

	memset(src, 0, sizeof(*src));
	fd = source_open_plain(dir, rel, &plain, refused);
	if (fd < 0)
		return -1;
	src->path = plain;
	/* a regular file says its size: refuse a large one unread (the
	 * count below still bounds one that grows while it is read) */
	if (fstat(fd, &st) || st.st_size > (off_t)SOURCE_MAX_BYTES) {
		*refused = "it is over 16 MiB";
		close(fd);
		source_release(src);
		return -1;
	}
	in = fdopen(fd, "r");
	if (!in) {
		close(fd);
		source_release(src);
		return -1;
	}
	src->last_has_newline = true;
	while ((c = getc(in)) != EOF) {
		if (++bytes > SOURCE_MAX_BYTES) {
			*refused = "it is over 16 MiB";
			strbuf_release(&line);
			fclose(in);
			source_release(src);
			return -1;
		}
		if (!c) {
			/* a line is a C string: a patch would lose the rest */
			*refused = "it holds a NUL byte";
			strbuf_release(&line);
			fclose(in);
			source_release(src);
			return -1;
		}
		if (c != '\n') {
			strbuf_addch(&line, c);
			continue;
		}
		ALLOC_GROW(src->lines, src->nr + 1, src->alloc);
		src->lines[src->nr++] = strbuf_detach(&line, NULL);
	}
	if (line.len) {
		ALLOC_GROW(src->lines, src->nr + 1, src->alloc);
		src->lines[src->nr++] = strbuf_detach(&line, NULL);
		src->last_has_newline = false;
	}
	strbuf_release(&line);
	fclose(in);
	return 0;
}

/*
 * Load @file as the tree under @dir has it: the name itself when
 * relative, else its longest tail that names a file there (DWARF names
 * of an out of tree build, or of a tree built elsewhere, are absolute).
 * When none loads, *@refused says why the first refused name was.
 */
static int source_find(struct source *src, const char *dir, const char *file,
		       const char **refused)
{
	const char *p = file, *why;

	*refused = NULL;
	while (*p == '/')
		p++;
	if (!strncmp(p, "./", 2))
		p += 2;
	if (file[0] != '/') {
		if (!source_load(src, dir, p, &why))
			return 0;
		*refused = why;
	}
	for (; p && *p; p = strchr(p, '/'), p = p ? p + 1 : NULL) {
		if (!source_load(src, dir, p, &why))
			return 0;
		if (!*refused)
			*refused = why;
	}
	return -1;
}

/* ---- calls on a line ---- */

static bool is_ident(int c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

/* A call of @name on @text: [*start, *end) spans "name(args)". */
static bool find_call(const char *text, const char *name, size_t *start,
		      size_t *end, size_t *args)
{
	size_t n = strlen(name), depth;
	const char *p = text, *q;

	while ((p = strstr(p, name))) {
		q = p + n;
		if ((p == text || !is_ident((unsigned char)p[-1])) && *q == '(') {
			*args = (size_t)(q + 1 - text);
			for (depth = 0; *q; q++) {
				if (*q == '(')
					depth++;
				else if (*q == ')' && --depth == 0)
					break;
			}
			if (!*q)
				return false;
			*start = (size_t)(p - text);
			*end = (size_t)(q + 1 - text);
			return true;
		}
		p = q;
	}
	return false;
}

/* The first call on @text of an API entry that has @edit's variant. */
static const struct lock_api *call_on_line(const char *text,
					   const char *prefer,
					   enum adv_edit edit, size_t *start,
					   size_t *end, size_t *args)
{
	const struct lock_api *best = NULL, *api = api_named(prefer);
	size_t i, s, e, a;

	if (api && variant(api, edit) && find_call(text, api->name, start, end, args))
		return api;
	for (i = 0; i < sizeof(apis) / sizeof(apis[0]); i++) {
		if (!variant(&apis[i], edit) ||
		    !find_call(text, apis[i].name, &s, &e, &a))
			continue;
		if (!best || s < *start) {
			best = &apis[i];
			*start = s;
			*end = e;
			*args = a;
		}
	}
	return best;
}

static char *call_text(const char *name, const char *args, size_t nargs,
		       const char *extra)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s(", name);
	strbuf_add(&sb, args, nargs);
	if (extra)
		strbuf_addf(&sb, ", %s", extra);
	strbuf_addch(&sb, ')');
	return strbuf_detach(&sb, NULL);
}

static char *replace(const char *text, size_t start, size_t end,
		     const char *with)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_add(&sb, text, start);
	strbuf_addstr(&sb, with);
	strbuf_addstr(&sb, text + end);
	return strbuf_detach(&sb, NULL);
}

static struct adv_change *new_change(struct advice *a, const struct adv_site *s,
				     unsigned int line, const char *why)
{
	struct adv_change *c = advice_add_change(a);

	c->file = xstrdup(s->file);
	c->line = line;
	c->function = s->function ? xstrdup(s->function) : NULL;
	c->why = xstrdup(why);
	return c;
}

/* The lock of a release's arguments (the first), as written there. */
static char *lock_arg(const char *args, size_t n)
{
	size_t i, depth = 0, start = 0;

	for (i = 0; i < n; i++) {
		if (args[i] == '(' || args[i] == '[')
			depth++;
		else if ((args[i] == ')' || args[i] == ']') && depth)
			depth--;
		else if (args[i] == ',' && !depth)
			break;
	}
	while (start < i && (args[start] == ' ' || args[start] == '\t'))
		start++;
	while (i > start && (args[i - 1] == ' ' || args[i - 1] == '\t'))
		i--;
	return xstrndup(args + start, i - start);
}

/*
 * A line may go before line @line (1-based) holding a call at @start:
 * the call begins its line, and the line above ends a statement, a
 * block or a label, or is blank, only a comment or a directive. Else it
 * may be the body of an if, else or loop without braces, where a line
 * put before would take the release out of it.
 */
static bool can_insert_before(const struct source *src, size_t line,
			      size_t start)
{
	const char *text = src->lines[line - 1], *prev, *end;
	size_t i;

	for (i = 0; i < start; i++)
		if (text[i] != ' ' && text[i] != '\t')
			return false;
	if (line < 2)
		return true;
	prev = src->lines[line - 2];
	prev += strspn(prev, " \t");
	end = prev + strlen(prev);
	while (end > prev && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	if (end == prev || *prev == '#' || !strncmp(prev, "//", 2) ||
	    !strncmp(prev, "/*", 2) || !strcmp(prev, "*") ||
	    !strncmp(prev, "* ", 2) || !strncmp(prev, "*/", 2))
		return true;
	return end[-1] == ';' || end[-1] == '{' || end[-1] == '}' ||
	       end[-1] == ':';
}

/* @c, the release at @text's [start, end), annotated on a line before. */
static void annotate_release(struct adv_change *c, const char *text,
			     size_t start, size_t end, size_t args)
{
	char *lock = lock_arg(text + args, end - args - 1);
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "lockdep_allow_unordered_unlock(%s); %s", lock,
		    c->current);
	c->proposed = strbuf_detach(&sb, NULL);
	/* same indentation, then the line as it is */
	strbuf_add(&sb, text, start);
	strbuf_addf(&sb, "lockdep_allow_unordered_unlock(%s);\n%s", lock, text);
	c->new_text = strbuf_detach(&sb, NULL);
	free(lock);
}

/* The release of @args by @unlock after @from, in the same function. */
static size_t find_unlock(const struct source *src, size_t from,
			  const char *unlock, const char *args, size_t nargs,
			  size_t *start, size_t *end)
{
	size_t i, a;

	for (i = from; i < src->nr && src->lines[i][0] != '}'; i++)
		if (find_call(src->lines[i], unlock, start, end, &a) &&
		    *end - a - 1 == nargs && !strncmp(src->lines[i] + a, args, nargs))
			return i + 1;
	return 0;
}

/* Without the source: the change in words, at the site. */
static bool edit_in_words(struct advice *a, const struct adv_site *s,
			  enum adv_edit edit, const char *subclass,
			  const char *why)
{
	const struct lock_api *api = api_named(s->callee);
	const char *name = api ? api->name : "the lock call";
	struct adv_change *c = new_change(a, s, s->line, why);
	struct strbuf sb = STRBUF_INIT;

	c->current = xstrdup(api ? api->name : name);
	switch (edit) {
	case ADV_EDIT_NESTED:
		strbuf_addf(&sb, "%s(..., %s)",
			    api && api->nested ? api->nested : "its _nested() variant",
			    subclass);
		break;
	case ADV_EDIT_IRQ:
	case ADV_EDIT_BH:
		if (api && variant(api, edit))
			strbuf_addf(&sb, "%s(...), and %s%s() at its release",
				    variant(api, edit), api->unlock,
				    edit == ADV_EDIT_IRQ ? "_irq" : "_bh");
		else
			strbuf_addstr(&sb, edit == ADV_EDIT_IRQ ?
				      "the _irq (or _irqsave) variant of the lock and its unlock" :
				      "the _bh variant of the lock and its unlock");
		break;
	case ADV_EDIT_ALLOW_UNORDERED:
		strbuf_addf(&sb, "lockdep_allow_unordered_unlock() on the lock released, on a line of its own before %s%s",
			    name, api ? "()" : "");
		break;
	}
	c->proposed = strbuf_detach(&sb, NULL);
	return true;
}

bool adv_edit_site(struct advice *a, const char *source_dir,
		   const struct adv_site *s, enum adv_edit edit,
		   const char *subclass, const char *why)
{
	const struct lock_api *api;
	struct source src;
	struct adv_change *c;
	size_t start, end, args, ustart, uend, uline;
	char *call, *old;
	const char *text, *refused = NULL;

	if (!source_dir || source_find(&src, source_dir, s->file, &refused)) {
		if (refused)
			advice_reason(a, "refused the frame at %s:%u%s%s: under %s, %s; the change is given in words",
				      s->file, s->line, s->function ? " in " : "",
				      s->function ? s->function : "", source_dir,
				      refused);
		else if (source_dir)
			advice_reason(a, "%s is not under %s: the change is given in words",
				      s->file, source_dir);
		return edit_in_words(a, s, edit, subclass, why);
	}
	text = s->line <= src.nr ? src.lines[s->line - 1] : "";
	api = call_on_line(text, s->callee, edit, &start, &end, &args);
	if (!api) {
		advice_reason(a, "%s:%u does not call a lock function that has the needed variant",
			      s->file, s->line);
		source_release(&src);
		return edit_in_words(a, s, edit, subclass, why);
	}
	if (edit == ADV_EDIT_ALLOW_UNORDERED &&
	    !can_insert_before(&src, s->line, start)) {
		advice_reason(a, "%s:%u: the release may be the body of an if, else or loop without braces, or share its line: a line put before it could change what runs",
			      s->file, s->line);
		source_release(&src);
		return edit_in_words(a, s, edit, subclass, why);
	}
	c = new_change(a, s, s->line, why);
	c->path = xstrdup(src.path);
	c->current = xstrndup(text + start, end - start);
	c->old_text = xstrdup(text);
	if (edit == ADV_EDIT_ALLOW_UNORDERED) {
		annotate_release(c, text, start, end, args);
		source_release(&src);
		return true;
	}
	call = call_text(variant(api, edit), text + args, end - args - 1,
			 edit == ADV_EDIT_NESTED ? subclass : NULL);
	c->proposed = call;
	c->new_text = replace(text, start, end, call);
	if (edit == ADV_EDIT_IRQ || edit == ADV_EDIT_BH) {
		uline = find_unlock(&src, s->line, api->unlock, text + args,
				    end - args - 1, &ustart, &uend);
		if (!uline) {
			advice_reason(a, "no %s() of the same lock follows %s:%u in %s",
				      api->unlock, s->file, s->line,
				      s->function ? s->function : "its function");
			free(c->path);
			c->path = NULL;
		} else {
			struct strbuf name = STRBUF_INIT;

			old = src.lines[uline - 1];
			strbuf_addf(&name, "%s%s", api->unlock,
				    edit == ADV_EDIT_IRQ ? "_irq" : "_bh");
			c = new_change(a, s, uline, "its release, to match");
			c->path = xstrdup(src.path);
			c->current = xstrndup(old + ustart, uend - ustart);
			c->proposed = call_text(name.buf, text + args,
						end - args - 1, NULL);
			c->old_text = xstrdup(old);
			c->new_text = replace(old, ustart, uend, c->proposed);
			strbuf_release(&name);
		}
	}
	source_release(&src);
	return true;
}

/* ---- the diff ---- */

static int by_line(const void *x, const void *y)
{
	const struct adv_change *a = *(const struct adv_change *const *)x;
	const struct adv_change *b = *(const struct adv_change *const *)y;

	return (a->line > b->line) - (a->line < b->line);
}

static const struct adv_change *changed(struct adv_change **v, size_t n,
				       size_t line)
{
	size_t m;

	for (m = 0; m < n; m++)
		if (v[m]->line == line)
			return v[m];
	return NULL;
}

static void diff_line(struct strbuf *out, const struct source *src,
		      size_t line, char mark, const char *text)
{
	strbuf_addf(out, "%c%s\n", mark, text);
	if (line == src->nr && !src->last_has_newline)
		strbuf_addstr(out, "\\ No newline at end of file\n");
}

/*
 * The lines @c puts before its line, or 0: such a change's new text is
 * those lines, each with its newline, then the line as it is.
 */
static size_t lines_added(const struct adv_change *c)
{
	const char *p;
	size_t n = 0;

	for (p = c->new_text; (p = strchr(p, '\n')); p++)
		n++;
	return n;
}

/* The lines @c adds as "+" lines, and its own line as context. */
static void diff_insertion(struct strbuf *out, const struct source *src,
			   const struct adv_change *c)
{
	const char *p, *nl;

	for (p = c->new_text; (nl = strchr(p, '\n')); p = nl + 1)
		strbuf_addf(out, "+%.*s\n", (int)(nl - p), p);
	diff_line(out, src, c->line, ' ', src->lines[c->line - 1]);
}

/* A change of line @line of @v that replaces it (not one that adds). */
static const struct adv_change *replaced(struct adv_change **v, size_t n,
					size_t line)
{
	const struct adv_change *c = changed(v, n, line);

	return c && !lines_added(c) ? c : NULL;
}

/* One file's hunks; @v sorted by line, all of one path. */
static int diff_file(struct strbuf *out, const char *dir,
		     struct adv_change **v, size_t n)
{
	struct source src;
	size_t i, j, from, to, k, m, run, added = 0, more;
	const char *refused;

	if (source_load(&src, dir, v[0]->path, &refused))
		return -1;
	for (i = 0; i < n; i++)
		if (v[i]->line > src.nr ||
		    strcmp(src.lines[v[i]->line - 1], v[i]->old_text) ||
		    (i && v[i]->line == v[i - 1]->line)) {
			source_release(&src);
			return -1;
		}
	strbuf_addf(out, "diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n",
		    src.path, src.path, src.path, src.path);
	for (i = 0; i < n; i = j) {
		/* changes within 6 lines of each other share a hunk */
		for (j = i + 1; j < n && v[j]->line - v[j - 1]->line <= 6; j++)
			;
		from = v[i]->line > 3 ? v[i]->line - 3 : 1;
		to = v[j - 1]->line + 3 <= src.nr ? v[j - 1]->line + 3 : src.nr;
		for (more = 0, m = i; m < j; m++)
			more += lines_added(v[m]);
		strbuf_addf(out, "@@ -%zu,%zu +%zu,%zu @@\n", from, to - from + 1,
			    from + added, to - from + 1 + more);
		added += more;
		for (k = from; k <= to; k = run) {
			const struct adv_change *c = changed(v + i, j - i, k);

			if (c && lines_added(c)) {
				diff_insertion(out, &src, c);
				run = k + 1;
				continue;
			}
			/* a run of replaced lines: its old lines, then its new */
			for (run = k; run <= to && replaced(v + i, j - i, run); run++)
				diff_line(out, &src, run, '-', src.lines[run - 1]);
			for (m = k; m < run; m++)
				diff_line(out, &src, m, '+', changed(v + i, j - i, m)->new_text);
			if (run == k) {
				diff_line(out, &src, k, ' ', src.lines[k - 1]);
				run = k + 1;
			}
		}
	}
	source_release(&src);
	return 0;
}

char *adv_make_patch(struct advice *a, const char *source_dir)
{
	struct strbuf out = STRBUF_INIT;
	struct adv_change **v;
	size_t i, j, n;
	bool *done;

	if (!a->nr_changes)
		return NULL;
	for (i = 0; i < a->nr_changes; i++)
		if (!a->changes[i].path) {
			a->no_patch = xstrdup("a change could not be located in the source");
			return NULL;
		}
	v = xcalloc(a->nr_changes, sizeof(*v));
	done = xcalloc(a->nr_changes, sizeof(*done));
	for (i = 0; i < a->nr_changes; i++) {
		if (done[i])
			continue;
		for (n = 0, j = i; j < a->nr_changes; j++)
			if (!done[j] && !strcmp(a->changes[j].path, a->changes[i].path)) {
				v[n++] = &a->changes[j];
				done[j] = true;
			}
		qsort(v, n, sizeof(*v), by_line);
		if (diff_file(&out, source_dir, v, n)) {
			a->no_patch = xstrdup("two changes fall on one line, or the source changed while it was read");
			strbuf_release(&out);
			break;
		}
	}
	free(v);
	free(done);
	return out.len ? strbuf_detach(&out, NULL) : NULL;
}
