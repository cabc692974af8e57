/*
 * The progress line on stderr (see progress.h). Uses clock, stats and out (the
 * line state: it is drawn only on an empty line).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "clock.h"
#include "out.h"
#include "progress.h"

#define MAX_FRAMES 16
#define FIRST_NS 1000000000ull /* a line only for phases longer than 1 s */
#define EVERY_NS 500000000ull  /* then rewritten twice a second */
/* PLATTER_PROGRESS_MS=N (tests): first report after N ms and every N ms, even under --sim */
#define POLL_MIN_NS 20000000ull /* countdown batches aim at one clock read per 20..200 ms */
#define POLL_MAX_NS 200000000ull
#define BATCH_MAX 65536u

uint64_t pl_progress_due = UINT64_MAX;
uint32_t pl_progress_countdown;

struct frame {
    const void *key;
    const struct pl_stats *st;
    uint64_t t0;
    int hidden;           /* the workload shows its own live output */
    char unit;            /* 0: the stats' IOPS and MB/s; 'B' or 'c': pl_progress_count's */
    uint64_t done, total; /* pl_progress_count's figures */
    const struct pl_series *series; /* its time series (pl_progress_series), or NULL */
    char name[64];
};

static struct frame frames[MAX_FRAMES];
static int nframes;
static int enabled;
static pid_t owner;     /* forked workers inherit the state but stay silent */
static int shown;       /* the line is on the screen */
static char text[512];  /* the innermost frame's latest line, for a redraw */
static size_t text_len; /* 0 = nothing to redraw */
static uint64_t first_ns = FIRST_NS, every_ns = EVERY_NS;
static unsigned width = 80;
static uint64_t last_t, last_ops, last_bytes, last_done; /* for the current rate */
static uint64_t last_poll;
static uint32_t batch = 1;

static void put(const char *s, size_t n)
{
    while (n > 0) {
        ssize_t w = write(2, s, n);
        if (w <= 0)
            return;
        s += w;
        n -= (size_t)w;
    }
}

void pl_progress_clear(void)
{
    if (shown && getpid() == owner)
        put("\r\033[K", 4);
    shown = 0;
}

void pl_progress_init(int on)
{
    static int registered;
    enabled = on;
    owner = getpid();
    pl_out_overlay(pl_progress_clear, pl_progress_redraw);
    if (!on)
        return;
    const char *ms = getenv("PLATTER_PROGRESS_MS");
    if (ms && atoi(ms) > 0)
        first_ns = every_ns = (uint64_t)atoi(ms) * 1000000ull;
    struct winsize ws;
    if (ioctl(2, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
        width = ws.ws_col;
    if (!registered++)
        atexit(pl_progress_clear);
}

/* Start the rate and the schedule afresh for the innermost frame. */
static void restart(uint64_t now, uint64_t due)
{
    const struct frame *f = &frames[nframes - 1];
    last_t = now;
    last_ops = f->st ? f->st->ops : 0;
    last_bytes = f->st ? f->st->bytes : 0;
    last_done = f->done;
    last_poll = now;
    batch = 1;
    text_len = 0;
    if (f->hidden) {
        pl_progress_countdown = 0;
        pl_progress_due = UINT64_MAX;
        return;
    }
    pl_progress_countdown = f->st ? 1 : 0;
    pl_progress_due = due;
}

void pl_progress_begin(const void *key, const char *name, const struct pl_stats *st, int hide)
{
    if (!enabled || nframes == MAX_FRAMES)
        return;
    uint64_t now = pl_clock_ns();
    pl_progress_clear();
    struct frame *f = &frames[nframes++];
    f->key = key;
    f->st = st;
    f->t0 = now;
    f->hidden = hide || (nframes > 1 && f[-1].hidden);
    f->unit = 0;
    f->done = f->total = 0;
    f->series = NULL;
    snprintf(f->name, sizeof f->name, "%s", name ? name : "");
    /* the line goes to a terminal: a control character in a script's phase name
       would command it, and would break the line's width: each byte of one shows
       as '?' */
    for (size_t i = 0, n = strlen(f->name), len; i < n; i += len)
        if (pl_out_control(f->name + i, n - i, &len))
            memset(f->name + i, '?', len);
    restart(now, now + first_ns);
}

void pl_progress_series(const void *key, const struct pl_series *sr)
{
    for (int i = nframes; i > 0; i--) {
        if (frames[i - 1].key == key) {
            frames[i - 1].series = sr;
            return;
        }
    }
}

void pl_progress_end(const void *key)
{
    if (!enabled)
        return;
    int i = nframes;
    while (i > 0 && frames[i - 1].key != key)
        i--;
    if (i == 0)
        return;
    nframes = i - 1;
    pl_progress_clear();
    if (nframes == 0) {
        pl_progress_due = UINT64_MAX;
        pl_progress_countdown = 0;
        return;
    }
    uint64_t now = pl_clock_ns(), first = frames[nframes - 1].t0 + first_ns;
    restart(now, first > now + every_ns / 2 ? first : now + every_ns / 2);
}

void pl_progress_poll(void)
{
    if (!enabled || nframes == 0 || !frames[nframes - 1].st) {
        pl_progress_countdown = 0;
        return;
    }
    uint64_t now = pl_clock_ns();
    if (now - last_poll < POLL_MIN_NS && batch < BATCH_MAX)
        batch *= 2;
    else if (now - last_poll > POLL_MAX_NS && batch > 1)
        batch /= 2;
    last_poll = now;
    pl_progress_countdown = batch;
    if (now >= pl_progress_due)
        pl_progress_report(now, NULL, -1);
}

static void seconds(char *buf, size_t n, double s)
{
    if (s < 60)
        snprintf(buf, n, "%.1f s", s);
    else if (s < 3600)
        snprintf(buf, n, "%dm%02ds", (int)(s / 60), (int)s % 60);
    else
        snprintf(buf, n, "%dh%02dm", (int)(s / 3600), (int)(s / 60) % 60);
}

/* A duration of whole ns as its shortest exact unit: "100 ms", "1 s", "250 us". */
static void duration(char *buf, size_t n, uint64_t ns)
{
    if (ns % 1000000000ull == 0)
        snprintf(buf, n, "%llu s", (unsigned long long)(ns / 1000000000ull));
    else if (ns % 1000000ull == 0)
        snprintf(buf, n, "%llu ms", (unsigned long long)(ns / 1000000ull));
    else if (ns % 1000ull == 0)
        snprintf(buf, n, "%llu us", (unsigned long long)(ns / 1000ull));
    else
        snprintf(buf, n, "%llu ns", (unsigned long long)ns);
}

/* A latency in ns, as the line shows it, to about 3 digits: "412 us", "1.25 ms", "34.1 ms". */
static void latency(char *buf, size_t n, uint64_t ns)
{
    if (ns < 1000)
        snprintf(buf, n, "%llu ns", (unsigned long long)ns);
    else if (ns < 1000000)
        snprintf(buf, n, "%.0f us", (double)ns / 1e3);
    else if (ns < 10000000)
        snprintf(buf, n, "%.2f ms", (double)ns / 1e6);
    else if (ns < 100000000)
        snprintf(buf, n, "%.1f ms", (double)ns / 1e6);
    else if (ns < 1000000000)
        snprintf(buf, n, "%.0f ms", (double)ns / 1e6);
    else
        snprintf(buf, n, "%.2f s", (double)ns / 1e9);
}

/*
 * The last closed interval of the innermost time series among the frames: its
 * MB/s and p99 (the open interval is still filling; the last one of the run
 * closes only at its end). 0 chars when there is none yet.
 */
static size_t last_interval(char *line, size_t n)
{
    const struct pl_series *sr = NULL;
    for (int i = nframes; i > 0 && !sr; i--)
        sr = frames[i - 1].series;
    if (!sr || sr->n == 0 || !sr->pts)
        return 0;
    const struct pl_series_point *pt = &sr->pts[sr->n - 1];
    uint64_t start = sr->n > 1 ? sr->pts[sr->n - 2].t_ns : 0;
    uint64_t len = pt->t_ns > start ? pt->t_ns - start : sr->interval_ns;
    char iv[32], p99[32];
    duration(iv, sizeof iv, sr->interval_ns);
    latency(p99, sizeof p99, pt->p99);
    double mbps = (double)pt->bytes / ((double)len / 1e9) / 1e6;
    if (pt->ops)
        return (size_t)snprintf(line, n, "; last %s: %.1f MB/s, p99 %s", iv, mbps, p99);
    return (size_t)snprintf(line, n, "; last %s: no I/O", iv);
}

void pl_progress_report(uint64_t now, const struct pl_stats *st, double frac)
{
    if (!enabled || nframes == 0 || getpid() != owner) {
        pl_progress_due = UINT64_MAX;
        pl_progress_countdown = 0;
        return;
    }
    const struct frame *f = &frames[nframes - 1];
    if (f->hidden) {
        pl_progress_due = UINT64_MAX;
        pl_progress_countdown = 0;
        return;
    }
    const char *name = f->name;
    if (nframes > 1 && strcmp(name, "run") == 0)
        name = frames[nframes - 2].name; /* an unnamed p.run inside a phase */
    if (!st)
        st = f->st;
    char head[160], rates[96] = "", eta[48] = "", iv[96], el[32];
    seconds(el, sizeof el, (double)(now - f->t0) / 1e9);
    if (f->unit && f->total)
        frac = f->done >= f->total ? 1 : (double)f->done / (double)f->total;
    if (frac >= 0)
        snprintf(head, sizeof head, "%s: %3.0f%%, %s", name, frac * 100, el);
    else
        snprintf(head, sizeof head, "%s: %s", name, el);
    double dt = (double)(now - last_t) / 1e9;
    if (f->unit) {
        if (dt > 0 && f->unit == 'c')
            snprintf(rates, sizeof rates, ", %.0f chars/s", (double)(f->done - last_done) / dt);
        else if (dt > 0)
            snprintf(rates, sizeof rates, ", %.1f MB/s", (double)(f->done - last_done) / dt / 1e6);
        last_done = f->done;
    } else if (st) {
        if (dt > 0)
            snprintf(rates, sizeof rates, ", %.0f IOPS, %.1f MB/s",
                     (double)(st->ops - last_ops) / dt,
                     (double)(st->bytes - last_bytes) / dt / 1e6);
        last_ops = st->ops;
        last_bytes = st->bytes;
    }
    if (frac > 0.001 && frac < 1) {
        char left[32];
        seconds(left, sizeof left, (double)(now - f->t0) / 1e9 * (1 - frac) / frac);
        snprintf(eta, sizeof eta, ", ETA %s", left);
    }
    size_t ivn = last_interval(iv, sizeof iv);
    if (ivn >= sizeof iv)
        ivn = 0;
    /* too wide with the last interval: it stands for the rates since the previous report */
    char line[512];
    int n = snprintf(line, sizeof line, "%s%s%s%s", head, rates, eta, ivn ? iv : "");
    if (ivn && n > (int)width - 1)
        n = snprintf(line, sizeof line, "%s%s%s", head, eta, iv);
    if (n < 0)
        n = 0;
    if ((size_t)n >= sizeof line)
        n = sizeof line - 1;
    if ((size_t)n > width - 1)
        n = (int)width - 1; /* a wrapped line could not be erased with \r */
    memcpy(text, line, (size_t)n);
    text_len = (size_t)n;
    last_t = now;
    pl_progress_due = now + every_ns;
    pl_progress_redraw();
}

void pl_progress_count(char unit, uint64_t done, uint64_t total)
{
    if (!enabled || nframes == 0)
        return;
    struct frame *f = &frames[nframes - 1];
    if (!f->unit)
        last_done = 0;
    f->unit = unit;
    f->done = done;
    f->total = total;
    if (f->hidden)
        return;
    uint64_t now = pl_clock_ns();
    if (now >= pl_progress_due)
        pl_progress_report(now, NULL, -1);
}

void pl_progress_add(char unit, uint64_t n)
{
    if (!enabled || nframes == 0)
        return;
    const struct frame *f = &frames[nframes - 1];
    int same = f->unit == unit;
    pl_progress_count(unit, (same ? f->done : 0) + n, same ? f->total : 0);
}

void pl_progress_redraw(void)
{
    if (!enabled || nframes == 0 || text_len == 0 || getpid() != owner || !pl_out_line_free())
        return;
    put("\r", 1);
    put(text, text_len);
    put("\033[K", 3);
    shown = 1;
}
