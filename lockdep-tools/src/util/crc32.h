/* SPDX-License-Identifier: GPL-2.0 */
/*
 * zlib's crc32_z(), the same values, faster on x86-64 CPUs with
 * PCLMULQDQ: the symbol index's whole-file CRC was the largest single
 * cost of opening it (64 M instructions for 16 MB through zlib 1.2.13,
 * which has no carry-less multiply path; zlib-ng is not in Debian 12).
 */
#ifndef UTIL_CRC32_H
#define UTIL_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* crc32_z(@crc, @buf, @len): the CRC-32 of gzip and PNG. */
uint32_t crc32_fast(uint32_t crc, const void *buf, size_t len);

#endif
