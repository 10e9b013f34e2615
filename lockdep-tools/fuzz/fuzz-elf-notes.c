// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness of the raw ELF notes parser (src/parse/elf-notes.h),
 * the guest's /sys/kernel/notes and a module's .note.gnu.build-id.
 * Invariants, checked against a walk of the notes written here: a build
 * id found is the descriptor of the first GNU build-id note, in
 * lower-case hex, of 1 to ELF_NOTES_MAX_BUILD_ID bytes; "no such note"
 * only when the notes fill the input exactly; "malformed" names the
 * offset of the note that runs past the end (or of the trailing bytes),
 * a note boundary within the input.
 */
#include <elf.h>
#include <string.h>

#include "fuzz.h"
#include "parse/elf-notes.h"

/* The input's note headers, walked the simple way. */
static void check(const uint8_t *data, size_t size, int ret,
		  const char *hex, size_t bad_off)
{
	size_t off = 0, name, desc, i;
	Elf32_Nhdr nh;
	char want[3];

	while (size - off >= sizeof(nh)) {
		memcpy(&nh, data + off, sizeof(nh));
		name = ((uint64_t)nh.n_namesz + 3) / 4 * 4;
		desc = ((uint64_t)nh.n_descsz + 3) / 4 * 4;
		if ((uint64_t)name + desc > size - off - sizeof(nh)) {
			FUZZ_CHECK(ret == -1 && bad_off == off);
			return;
		}
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp(data + off + sizeof(nh), "GNU", 4) &&
		    nh.n_descsz >= 1 &&
		    nh.n_descsz <= ELF_NOTES_MAX_BUILD_ID) {
			FUZZ_CHECK(ret == 0 && strlen(hex) == 2 * nh.n_descsz);
			for (i = 0; i < nh.n_descsz; i++) {
				snprintf(want, sizeof(want), "%02x",
					 data[off + sizeof(nh) + name + i]);
				FUZZ_CHECK(!memcmp(hex + 2 * i, want, 2));
			}
			return;
		}
		off += sizeof(nh) + name + desc;
	}
	if (off == size)
		FUZZ_CHECK(ret == 1);
	else
		FUZZ_CHECK(ret == -1 && bad_off == off);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char hex[2 * ELF_NOTES_MAX_BUILD_ID + 1];
	size_t bad_off = (size_t)-1;
	int ret;

	memset(hex, 0, sizeof(hex));
	ret = elf_notes_build_id(data, size, hex, &bad_off);
	FUZZ_CHECK(ret >= -1 && ret <= 1);
	FUZZ_CHECK(ret != -1 || bad_off < size);
	check(data, size, ret, hex, bad_off);
	return 0;
}
