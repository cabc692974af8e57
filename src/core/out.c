/*
 * The terminal line state (see out.h): a partial-line flag per stream, the
 * stream that wrote last, and a queue of stderr text waiting for a line to
 * end. Uses stdio and progress.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "out.h"

struct held {
    struct held *next;
    int notice; /* platter's own line: waits for an empty line */
    size_t len;
    char text[];
};

static int inited, shared;
static int guard_on, tty[3]; /* pl_out_guard; [PL_STDOUT], [PL_STDERR]: a terminal */
static int partial[3];       /* [PL_STDOUT], [PL_STDERR]: the stream's last byte was not '\n' */
static int last;             /* the stream that wrote last, 0 = none yet */
static struct held *head, **tail = &head;

static void at_exit(void)
{
    pl_out_finish();
}

static void init(void)
{
    if (inited)
        return;
    inited = 1;
    struct stat a, b;
    shared = fstat(1, &a) == 0 && fstat(2, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
    tty[PL_STDOUT] = isatty(1);
    tty[PL_STDERR] = isatty(2);
    atexit(at_exit);
}

void pl_out_guard(int on, int always)
{
    init();
    guard_on = on;
    if (on && always)
        tty[PL_STDOUT] = tty[PL_STDERR] = 1;
}

/*
 * Text bound for a terminal under the guard, with every control that could
 * reach the terminal shown instead, as cat -v shows it: C0 controls but tab,
 * newline and carriage return (dd's and fio's progress lines draw with '\r')
 * as ^X, DEL as ^?, and the C1 controls (U+0080..U+009F in UTF-8, or a stray
 * byte 0x80..0x9F) as M-^X. So a script cannot set the clipboard (OSC 52) or
 * the title, move the cursor over earlier output or send the terminal queries
 * whose answers arrive as typed input. Bytes of valid UTF-8 pass unchanged.
 */
unsigned pl_out_control(const char *p, size_t n, size_t *len)
{
    const unsigned char *u = (const unsigned char *)p;
    unsigned c = u[0], cp = c;
    *len = 1;
    if (c >= 0x80) { /* a valid UTF-8 sequence: its length and code point */
        size_t want = c >= 0xc2 && c <= 0xdf   ? 2
                      : c >= 0xe0 && c <= 0xef ? 3
                      : c >= 0xf0 && c <= 0xf4 ? 4
                                               : 0;
        size_t k = 1;
        while (want && k < want && k < n && (u[k] & 0xc0) == 0x80)
            k++;
        if (want && k == want) {
            *len = want;
            /* only a 2-byte sequence can be a C1 control; a longer one is never one */
            cp = want == 2 ? ((c & 0x1fu) << 6) | (u[1] & 0x3fu) : 0x100;
        }
    }
    int ctl = (cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') || cp == 0x7f ||
              (cp >= 0x80 && cp <= 0x9f);
    return ctl ? cp : 0;
}

int pl_out_guarding(void)
{
    return guard_on;
}

void pl_out_shown(FILE *f, const char *p, size_t n)
{
    size_t from = 0, len;
    for (size_t i = 0; i < n; i += len) {
        unsigned cp = pl_out_control(p + i, n - i, &len);
        if (!cp)
            continue;
        fwrite(p + from, 1, i - from, f);
        if (cp >= 0x80)
            fputs("M-", f);
        fputc('^', f);
        fputc((cp & 0x7f) == 0x7f ? '?' : (int)((cp & 0x7f) + 64), f);
        from = i + len;
    }
    fwrite(p + from, 1, n - from, f);
}

static void emit(enum pl_stream s, const char *p, size_t n)
{
    FILE *f = s == PL_STDOUT ? stdout : stderr;
    if (guard_on && tty[s])
        pl_out_shown(f, p, n);
    else
        fwrite(p, 1, n, f);
}

void pl_out_final_text(const char *p, size_t n)
{
    init();
    emit(PL_STDERR, p, n);
    fflush(stderr);
}

void pl_out_final(const char *fmt, ...)
{
    char *p;
    va_list ap;
    va_start(ap, fmt);
    int n = vasprintf(&p, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    pl_out_final_text(p, (size_t)n);
    free(p);
}

int pl_out_shared(void)
{
    init();
    return shared;
}

/* The line stderr's next byte lands on holds text. */
static int busy(void)
{
    return shared ? last && partial[last] : partial[PL_STDERR];
}

/* stderr text now would land inside a partial stdout line. */
static int err_blocked(void)
{
    return shared && last == PL_STDOUT && partial[PL_STDOUT];
}

static void (*overlay_clear)(void), (*overlay_redraw)(void);

void pl_out_overlay(void (*clear)(void), void (*redraw)(void))
{
    overlay_clear = clear;
    overlay_redraw = redraw;
}

static void put(enum pl_stream s, const char *p, size_t n)
{
    if ((s == PL_STDERR || shared) && overlay_clear)
        overlay_clear();
    if (s == PL_STDOUT) {
        emit(s, p, n);
    } else {
        fflush(stdout);
        emit(s, p, n);
        fflush(stderr);
    }
    partial[s] = p[n - 1] != '\n';
    last = s;
}

/* Write what waits and may go now; redraw the progress line on an empty line. */
static void release(void)
{
    while (head && !(head->notice ? busy() : err_blocked())) {
        struct held *h = head;
        head = h->next;
        if (!head)
            tail = &head;
        put(PL_STDERR, h->text, h->len);
        free(h);
    }
    if (!head && !busy() && overlay_redraw)
        overlay_redraw();
}

static void hold(int notice, const char *p, size_t n)
{
    struct held *h = malloc(sizeof *h + n);
    if (!h) { /* no memory for the queue: better a split line than a lost one */
        put(PL_STDERR, p, n);
        return;
    }
    h->next = NULL;
    h->notice = notice;
    h->len = n;
    memcpy(h->text, p, n);
    *tail = h;
    tail = &h->next;
}

/* A workload's own stderr text waits in the queue (not only platter's notices). */
static int text_held(void)
{
    for (struct held *h = head; h; h = h->next)
        if (!h->notice)
            return 1;
    return 0;
}

void pl_out_write(enum pl_stream s, const char *p, size_t n)
{
    if (n == 0)
        return;
    init();
    /* a notice waits for the end of the line, which this text may bring: it does
       not wait behind the notice */
    if (s == PL_STDERR && (text_held() || err_blocked())) {
        hold(0, p, n);
        return;
    }
    put(s, p, n);
    release();
}

void pl_out_notice(const char *p, size_t n)
{
    if (n == 0)
        return;
    init();
    if (head || busy()) {
        hold(1, p, n);
        return;
    }
    put(PL_STDERR, p, n);
    release();
}

int pl_out_line_free(void)
{
    init();
    return !head && !busy();
}

void pl_out_boundary(void)
{
    init();
    fflush(stdout);
    while (head) {
        if (head->notice ? busy() : err_blocked())
            put(PL_STDERR, "\n", 1);
        release();
    }
    if (busy())
        put(PL_STDERR, "\n", 1);
    fflush(stdout);
}

void pl_out_finish(void)
{
    if (head)
        pl_out_boundary();
}

void pl_out_forked(void)
{
    while (head) {
        struct held *h = head;
        head = h->next;
        free(h);
    }
    tail = &head;
    partial[PL_STDOUT] = partial[PL_STDERR] = 0; /* its own text goes straight out: it */
    last = 0;                                    /* cannot wait for the parent's lines */
}
