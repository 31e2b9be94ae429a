/*
 * hashcount: a QEMU TCG plugin (plugin API version 1, QEMU 7.2) for
 * `cargo xtask m4 hashshare`.
 *
 * Counts every executed guest instruction, and separately those whose
 * address lies in one of the ranges listed in a file (the hash functions
 * of the firmware), with one inline 64-bit add per instruction (exact, no
 * per-block approximation). Whenever the first instruction of the marker
 * function executes, it appends "mark <total> <hashed>" to the output
 * file; "end <total> <hashed>" at exit.
 *
 * Arguments (-plugin hashcount.so,ranges=FILE,mark=0xADDR,out=FILE):
 *   ranges  file of "START END" lines, hexadecimal, END exclusive
 *           (empty file: nothing counts as hashing)
 *   mark    address of the marker function (bit 0, the Thumb bit, ignored)
 *   out     file the mark lines go to
 *
 * Only the handful of API functions used here are declared below; the
 * declarations follow the public plugin API of QEMU 7.2
 * (include/qemu/qemu-plugin.h) and are written for this file.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the plugin API subset (QEMU_PLUGIN_VERSION 1) ---- */
#define HC_EXPORT __attribute__((visibility("default")))

typedef uint64_t qemu_plugin_id_t;
struct qemu_info_t; /* read by nothing here: kept opaque */
struct qemu_plugin_tb;
struct qemu_plugin_insn;

enum qemu_plugin_cb_flags {
    QEMU_PLUGIN_CB_NO_REGS,
    QEMU_PLUGIN_CB_R_REGS,
    QEMU_PLUGIN_CB_RW_REGS,
};

enum qemu_plugin_op {
    QEMU_PLUGIN_INLINE_ADD_U64,
};

typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
                                               struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index,
                                            void *userdata);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
                                           qemu_plugin_vcpu_tb_trans_cb_t cb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
                                                 size_t idx);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *insn,
                                                enum qemu_plugin_op op,
                                                void *ptr, uint64_t imm);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
                                            qemu_plugin_vcpu_udata_cb_t cb,
                                            enum qemu_plugin_cb_flags flags,
                                            void *userdata);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
                                    qemu_plugin_udata_cb_t cb, void *userdata);

HC_EXPORT int qemu_plugin_version = 1;

/* ---- state ---- */
struct range {
    uint64_t start, end;
};

static struct range *ranges;
static size_t n_ranges;
static uint64_t mark_addr = UINT64_MAX;
static FILE *out;
/* Single vCPU (mps2-an386); the inline adds update these directly. */
static uint64_t total, hashed;

static int cmp_range(const void *a, const void *b)
{
    const struct range *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

/* Is `pc` in a range? Binary search over the sorted, disjoint ranges. */
static int in_ranges(uint64_t pc)
{
    size_t lo = 0, hi = n_ranges;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (pc < ranges[mid].start) {
            hi = mid;
        } else if (pc >= ranges[mid].end) {
            lo = mid + 1;
        } else {
            return 1;
        }
    }
    return 0;
}

static int load_ranges(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "hashcount: cannot open ranges file %s\n", path);
        return -1;
    }
    size_t cap = 0;
    uint64_t s, e;
    int r;
    while ((r = fscanf(f, "%" SCNx64 " %" SCNx64, &s, &e)) == 2) {
        if (e <= s) {
            fprintf(stderr, "hashcount: empty range %" PRIx64 "\n", s);
            fclose(f);
            return -1;
        }
        if (n_ranges == cap) {
            cap = cap ? 2 * cap : 64;
            ranges = realloc(ranges, cap * sizeof *ranges);
            if (!ranges) {
                fclose(f);
                return -1;
            }
        }
        ranges[n_ranges].start = s & ~(uint64_t)1;
        ranges[n_ranges].end = e;
        n_ranges++;
    }
    fclose(f);
    if (r != EOF) {
        fprintf(stderr, "hashcount: bad line in %s\n", path);
        return -1;
    }
    qsort(ranges, n_ranges, sizeof *ranges, cmp_range);
    for (size_t i = 1; i < n_ranges; i++) {
        if (ranges[i].start < ranges[i - 1].end) {
            fprintf(stderr, "hashcount: overlapping ranges at %" PRIx64 "\n",
                    ranges[i].start);
            return -1;
        }
    }
    return 0;
}

static void on_mark(unsigned int vcpu, void *udata)
{
    (void)vcpu;
    (void)udata;
    fprintf(out, "mark %" PRIu64 " %" PRIu64 "\n", total, hashed);
    fflush(out);
}

static void on_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
    size_t n = qemu_plugin_tb_n_insns(tb);
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        uint64_t pc = qemu_plugin_insn_vaddr(insn);
        if (pc == mark_addr) {
            qemu_plugin_register_vcpu_insn_exec_cb(insn, on_mark,
                                                   QEMU_PLUGIN_CB_NO_REGS, NULL);
        }
        qemu_plugin_register_vcpu_insn_exec_inline(
            insn, QEMU_PLUGIN_INLINE_ADD_U64, &total, 1);
        if (in_ranges(pc)) {
            qemu_plugin_register_vcpu_insn_exec_inline(
                insn, QEMU_PLUGIN_INLINE_ADD_U64, &hashed, 1);
        }
    }
}

static void on_atexit(qemu_plugin_id_t id, void *udata)
{
    (void)id;
    (void)udata;
    if (out) {
        fprintf(out, "end %" PRIu64 " %" PRIu64 "\n", total, hashed);
        fclose(out);
        out = NULL;
    }
}

HC_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
                                  const struct qemu_info_t *info, int argc,
                                  char **argv)
{
    (void)info;
    const char *ranges_path = NULL, *out_path = NULL;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "ranges=", 7) == 0) {
            ranges_path = a + 7;
        } else if (strncmp(a, "out=", 4) == 0) {
            out_path = a + 4;
        } else if (strncmp(a, "mark=", 5) == 0) {
            char *end;
            mark_addr = strtoull(a + 5, &end, 16) & ~(uint64_t)1;
            if (*end != '\0') {
                fprintf(stderr, "hashcount: bad mark address %s\n", a + 5);
                return -1;
            }
        } else {
            fprintf(stderr, "hashcount: unknown argument %s\n", a);
            return -1;
        }
    }
    if (!ranges_path || !out_path || mark_addr == UINT64_MAX) {
        fprintf(stderr, "hashcount: needs ranges=FILE,mark=ADDR,out=FILE\n");
        return -1;
    }
    if (load_ranges(ranges_path) != 0) {
        return -1;
    }
    out = fopen(out_path, "w");
    if (!out) {
        fprintf(stderr, "hashcount: cannot write %s\n", out_path);
        return -1;
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_trans);
    qemu_plugin_register_atexit_cb(id, on_atexit, NULL);
    return 0;
}
