// SPDX-License-Identifier: GPL-2.0
/* DWARF sections and the sizes of forms' values; see dwarf-read.h. */
#include <dwarf.h>
#include <gelf.h>
#include <string.h>

#include "symbolise/dwarf-read.h"

long dwarf_fixed_len(const struct dwarf_unit_sizes *u, uint64_t form)
{
	switch (form) {
	case DW_FORM_flag_present:
	case DW_FORM_implicit_const:
		return 0;
	case DW_FORM_data1:
	case DW_FORM_ref1:
	case DW_FORM_flag:
	case DW_FORM_strx1:
	case DW_FORM_addrx1:
		return 1;
	case DW_FORM_data2:
	case DW_FORM_ref2:
	case DW_FORM_strx2:
	case DW_FORM_addrx2:
		return 2;
	case DW_FORM_strx3:
	case DW_FORM_addrx3:
		return 3;
	case DW_FORM_data4:
	case DW_FORM_ref4:
	case DW_FORM_strx4:
	case DW_FORM_addrx4:
	case DW_FORM_ref_sup4:
		return 4;
	case DW_FORM_data8:
	case DW_FORM_ref8:
	case DW_FORM_ref_sig8:
	case DW_FORM_ref_sup8:
		return 8;
	case DW_FORM_data16:
		return 16;
	case DW_FORM_addr:
		return u->addr_size;
	case DW_FORM_ref_addr:
		return u->version == 2 ? u->addr_size : u->offset_size;
	case DW_FORM_strp:
	case DW_FORM_line_strp:
	case DW_FORM_sec_offset:
	case DW_FORM_strp_sup:
	case DW_FORM_GNU_ref_alt:
	case DW_FORM_GNU_strp_alt:
		return u->offset_size;
	default:
		return -1;
	}
}

bool dwarf_skip_value(const struct dwarf_unit_sizes *u,
		      struct dwarf_cursor *c, uint64_t form)
{
	long n = dwarf_fixed_len(u, form);

	if (n >= 0) {
		dwarf_skip(c, (uint64_t)n);
		return !c->bad;
	}
	switch (form) {
	case DW_FORM_udata:
	case DW_FORM_sdata:
	case DW_FORM_ref_udata:
	case DW_FORM_strx:
	case DW_FORM_addrx:
	case DW_FORM_loclistx:
	case DW_FORM_rnglistx:
	case DW_FORM_GNU_addr_index:
	case DW_FORM_GNU_str_index:
		dwarf_get_uleb(c);
		break;
	case DW_FORM_string: {
		const unsigned char *nul = c->bad ? NULL :
			memchr(c->p, '\0', (size_t)(c->end - c->p));

		if (nul)
			c->p = nul + 1;
		else
			c->bad = true;
		break;
	}
	case DW_FORM_block1:
		dwarf_skip(c, dwarf_get_u(c, 1));
		break;
	case DW_FORM_block2:
		dwarf_skip(c, dwarf_get_u(c, 2));
		break;
	case DW_FORM_block4:
		dwarf_skip(c, dwarf_get_u(c, 4));
		break;
	case DW_FORM_block:
	case DW_FORM_exprloc:
		dwarf_skip(c, dwarf_get_uleb(c));
		break;
	case DW_FORM_indirect:
		form = dwarf_get_uleb(c);
		/* an indirect form naming itself is no form */
		if (!c->bad && form != DW_FORM_indirect)
			return dwarf_skip_value(u, c, form);
		c->bad = true;
		break;
	default:
		c->bad = true;
	}
	return !c->bad;
}

bool dwarf_read_udata(struct dwarf_cursor *c, uint64_t form, uint64_t *v)
{
	switch (form) {
	case DW_FORM_data1:
		*v = dwarf_get_u(c, 1);
		break;
	case DW_FORM_data2:
		*v = dwarf_get_u(c, 2);
		break;
	case DW_FORM_data4:
		*v = dwarf_get_u(c, 4);
		break;
	case DW_FORM_data8:
		*v = dwarf_get_u(c, 8);
		break;
	case DW_FORM_udata:
	case DW_FORM_rnglistx:
	case DW_FORM_loclistx:
	case DW_FORM_addrx:
	case DW_FORM_GNU_addr_index:
		*v = dwarf_get_uleb(c);
		break;
	case DW_FORM_sdata:
		*v = (uint64_t)dwarf_get_sleb(c);
		break;
	case DW_FORM_addrx1:
	case DW_FORM_addrx2:
	case DW_FORM_addrx3:
	case DW_FORM_addrx4: {
		size_t n = (size_t)(form - DW_FORM_addrx1 + 1);

		/* libdw wants a byte more than the value's */
		*v = dwarf_need(c, n + 1) ? dwarf_get_u(c, n) : 0;
		break;
	}
	default:
		return false;
	}
	return !c->bad;
}

static bool is_section(const char *name, const char *want)
{
	/* ".zdebug_info": compressed the GNU way, inflated by libdw */
	return !strcmp(name, want) ||
	       (name[0] == '.' && name[1] == 'z' && !strcmp(name + 2, want + 1));
}

bool dwarf_sections_find(Dwarf *dw, struct dwarf_sections *s)
{
	const struct {
		const char *name;
		const unsigned char **p;
		size_t *size;
	} want[] = {
		{ ".debug_info", &s->info, &s->info_size },
		{ ".debug_abbrev", &s->abbrev, &s->abbrev_size },
		{ ".debug_line", &s->line, &s->line_size },
		{ ".debug_line_str", &s->line_str, &s->line_str_size },
		{ ".debug_str", &s->str, &s->str_size },
		{ ".debug_ranges", &s->ranges, &s->ranges_size },
		{ ".debug_rnglists", &s->rnglists, &s->rnglists_size },
	};
	Elf *elf = dwarf_getelf(dw);
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	size_t shstrndx;

	memset(s, 0, sizeof(*s));
	if (!elf || !gelf_getehdr(elf, &eh) || elf_getshdrstrndx(elf, &shstrndx))
		return false;
	s->swap = eh.e_ident[EI_DATA] !=
		  (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB :
							       ELFDATA2MSB);
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *data;

		/* still SHF_COMPRESSED: libdw did not inflate it */
		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS ||
		    (sh.sh_flags & SHF_COMPRESSED))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		data = name ? elf_getdata(scn, NULL) : NULL;
		if (!data || !data->d_buf)
			continue;
		for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
			if (is_section(name, want[i].name)) {
				*want[i].p = data->d_buf;
				*want[i].size = data->d_size;
			}
	}
	if (!s->info || !s->abbrev)
		memset(s, 0, sizeof(*s));
	return s->info != NULL;
}

static bool string_in(const unsigned char *sec, size_t size,
		      const unsigned char *p)
{
	return sec && p >= sec && p < sec + size &&
	       memchr(p, '\0', (size_t)(sec + size - p));
}

const char *dwarf_string_inside(const struct dwarf_sections *s,
				const char *str)
{
	const unsigned char *p = (const unsigned char *)str;

	if (p && (string_in(s->str, s->str_size, p) ||
		  string_in(s->line_str, s->line_str_size, p) ||
		  string_in(s->info, s->info_size, p)))
		return str;
	return NULL;
}
