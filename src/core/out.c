/*
 * The terminal line state (see out.h): a partial-line flag per stream, the
 * stream that wrote last, and a queue of stderr text waiting for a line to
 * end. Uses stdio and progress.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "out.h"

struct held {
    struct held *next;
    int notice; /* platter's own line: waits for an empty line */
    size_t len;
    char text[];
};

static int inited, shared;
static int partial[3]; /* [PL_STDOUT], [PL_STDERR]: the stream's last byte was not '\n' */
static int last;       /* the stream that wrote last, 0 = none yet */
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
    atexit(at_exit);
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
        fwrite(p, 1, n, stdout);
    } else {
        fflush(stdout);
        fwrite(p, 1, n, stderr);
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
