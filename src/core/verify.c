/*
 * Verified blocks: the header of verify.h, filled before a write and checked
 * after a read. The checksums come from libraries: ISA-L's crc32_iscsi (the
 * Castagnoli CRC, hardware-accelerated where the CPU has it) and libcrypto's
 * EVP digests, both loaded on first use (lazylib.h). Uses rng.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "lazylib.h"
#include "rng.h"
#include "verify.h"

static const char *const kind_names[] = {"none", "crc32c", "md5", "sha256"};

enum pl_vfy_kind pl_vfy_kind_of(const char *name)
{
    for (int k = PL_VFY_CRC32C; name && k <= PL_VFY_SHA256; k++)
        if (strcmp(name, kind_names[k]) == 0)
            return (enum pl_vfy_kind)k;
    return PL_VFY_NONE;
}

const char *pl_vfy_name(enum pl_vfy_kind k)
{
    return (unsigned)k <= PL_VFY_SHA256 ? kind_names[k] : "?";
}

size_t pl_vfy_sum_len(enum pl_vfy_kind k)
{
    switch (k) {
    case PL_VFY_CRC32C: return 4;
    case PL_VFY_MD5: return 16;
    case PL_VFY_SHA256: return 32;
    default: return 0;
    }
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get64(const uint8_t *p)
{
    return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

int pl_vfy_load(enum pl_vfy_kind k, char *why, size_t len)
{
    const char *e = NULL;
    if (k == PL_VFY_CRC32C && !pl_libisal(&e))
        snprintf(why, len, "verify: crc32c needs " PL_LIBISAL_SONAME ": %s", e);
    else if ((k == PL_VFY_MD5 || k == PL_VFY_SHA256) && !pl_libcrypto(&e))
        snprintf(why, len, "verify: %s needs " PL_LIBCRYPTO_SONAME ": %s", pl_vfy_name(k), e);
    return e ? -1 : 0;
}

/* crc32_iscsi takes an int length: feed it in pieces below 2 GiB */
static uint32_t crc_part(const struct pl_libisal *isal, uint32_t crc, const uint8_t *p, size_t n)
{
    while (n) {
        size_t m = n > (1u << 30) ? (1u << 30) : n;
        crc = isal->crc32_iscsi((unsigned char *)p, (int)m, crc);
        p += m;
        n -= m;
    }
    return crc;
}

int pl_vfy_sum(enum pl_vfy_kind k, const void *a, size_t alen, const void *b, size_t blen,
               uint8_t out[32])
{
    if (k == PL_VFY_CRC32C) {
        const struct pl_libisal *isal = pl_libisal(NULL);
        if (!isal)
            return -1;
        /* the raw register starts at all ones and is inverted at the end (crc32c) */
        uint32_t crc = crc_part(isal, 0xffffffffu, a, alen);
        crc = crc_part(isal, crc, b, blen);
        put32(out, ~crc);
        return 0;
    }
    const struct pl_libcrypto *ssl =
        k == PL_VFY_MD5 || k == PL_VFY_SHA256 ? pl_libcrypto(NULL) : NULL;
    if (!ssl)
        return -1;
    const EVP_MD *md = k == PL_VFY_MD5 ? ssl->EVP_md5() : ssl->EVP_sha256();
    EVP_MD_CTX *c = ssl->EVP_MD_CTX_new();
    unsigned n = 0;
    int ok = c && ssl->EVP_DigestInit_ex(c, md, NULL) && ssl->EVP_DigestUpdate(c, a, alen) &&
             ssl->EVP_DigestUpdate(c, b, blen) && ssl->EVP_DigestFinal_ex(c, out, &n);
    ssl->EVP_MD_CTX_free(c);
    return ok && n == pl_vfy_sum_len(k) ? 0 : -1;
}

int pl_vfy_fill(enum pl_vfy_kind k, void *buf, uint64_t len, uint64_t off, uint64_t seed)
{
    uint8_t *h = buf;
    if (len < PL_VFY_HDR || len > UINT32_MAX || !pl_vfy_sum_len(k))
        return -1;
    struct pl_rng g;
    pl_rng_seed(&g, seed);
    uint8_t *p = h + PL_VFY_HDR;
    uint64_t n = len - PL_VFY_HDR;
    for (; n >= 8; n -= 8, p += 8)
        put64(p, pl_rng_next(&g));
    if (n) {
        uint8_t last[8];
        put64(last, pl_rng_next(&g));
        memcpy(p, last, n);
    }
    memset(h, 0, PL_VFY_HDR);
    put32(h, PL_VFY_MAGIC);
    h[4] = (uint8_t)k;
    put32(h + 8, (uint32_t)len);
    put64(h + 16, off);
    put64(h + 24, seed);
    return pl_vfy_sum(k, h, 32, h + PL_VFY_HDR, len - PL_VFY_HDR, h + 32);
}

static void hex(char *out, const uint8_t *p, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[p[i] >> 4];
        out[2 * i + 1] = digits[p[i] & 15];
    }
    out[2 * n] = '\0';
}

static int bad(struct pl_vfy_fail *f, uint64_t off, const char *what, uint64_t want, uint64_t got)
{
    f->off = off;
    f->what = what;
    snprintf(f->expected, sizeof f->expected, "%" PRIu64, want);
    snprintf(f->got, sizeof f->got, "%" PRIu64, got);
    return -1;
}

int pl_vfy_check(enum pl_vfy_kind k, const void *buf, uint64_t len, uint64_t off,
                 struct pl_vfy_fail *f)
{
    const uint8_t *base = buf;
    size_t sl = pl_vfy_sum_len(k);
    for (uint64_t pos = 0; pos < len;) {
        const uint8_t *h = base + pos;
        uint64_t at = off + pos, left = len - pos;
        if (left < PL_VFY_HDR)
            return bad(f, at, "length", PL_VFY_HDR, left);
        uint32_t magic = get32(h);
        if (magic != PL_VFY_MAGIC) {
            bad(f, at, "magic", 0, 0);
            snprintf(f->expected, sizeof f->expected, "0x%08x", PL_VFY_MAGIC);
            snprintf(f->got, sizeof f->got, "0x%08x", magic);
            return -1;
        }
        if (h[4] != (uint8_t)k) {
            f->off = at;
            f->what = "kind";
            snprintf(f->expected, sizeof f->expected, "%s", pl_vfy_name(k));
            snprintf(f->got, sizeof f->got, "%s", pl_vfy_name((enum pl_vfy_kind)h[4]));
            return -1;
        }
        uint64_t blen = get32(h + 8);
        if (blen < PL_VFY_HDR || blen > left)
            return bad(f, at, "length", left < UINT32_MAX ? left : UINT32_MAX, blen);
        if (get64(h + 16) != at)
            return bad(f, at, "offset", at, get64(h + 16));
        uint8_t sum[32];
        if (pl_vfy_sum(k, h, 32, h + PL_VFY_HDR, blen - PL_VFY_HDR, sum) < 0)
            return bad(f, at, "checksum library", 0, 1);
        if (memcmp(sum, h + 32, sl) != 0) {
            f->off = at;
            f->what = pl_vfy_name(k);
            if (k == PL_VFY_CRC32C) { /* as a number, as crc32c values are written */
                snprintf(f->expected, sizeof f->expected, "0x%08x", get32(h + 32));
                snprintf(f->got, sizeof f->got, "0x%08x", get32(sum));
            } else {
                hex(f->expected, h + 32, sl); /* what the header says */
                hex(f->got, sum, sl);         /* what the block's bytes sum to */
            }
            return -1;
        }
        pos += blen;
    }
    return 0;
}
