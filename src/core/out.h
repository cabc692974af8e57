/*
 * The terminal line state: every byte a script prints (p.write, p.ewrite,
 * print, p.printf, p.log) and every line platter adds while it runs (the
 * progress line, warnings, the final error) goes through here, so platter
 * knows whether the line stdout and stderr write to is empty (the last byte
 * was '\n') and keeps three promises by construction:
 *
 *   - the progress line is drawn only on an empty line (progress.c asks
 *     pl_out_line_free) and erased before any other byte is written;
 *   - platter's own lines (pl_out_notice) start on an empty line: one that
 *     arrives mid-line is held until the workload ends that line;
 *   - when stdout and stderr are the same terminal, pipe or file, stderr text
 *     is never put into a partial stdout line (it waits for the newline), and
 *     stdout's buffer is flushed before any stderr byte.
 *
 * Uses stdio for stdout (buffered as before). The line drawn over the empty
 * line (progress.c) registers itself with pl_out_overlay. No Lua.
 */
#ifndef PLATTER_CORE_OUT_H
#define PLATTER_CORE_OUT_H

#include <stddef.h>
#include <stdio.h>

enum pl_stream { PL_STDOUT = 1, PL_STDERR = 2 };

/* A workload's text for stream s, in order; stderr text may wait (see above). */
void pl_out_write(enum pl_stream s, const char *p, size_t n);
/* platter's own stderr text (whole lines): now if the line is empty, else at its end. */
void pl_out_notice(const char *p, size_t n);
/*
 * Before platter's last words (an error, "interrupted") and at exit: write all
 * held text, ending a partial line with '\n' on stderr first, so what follows
 * starts a line. stdout is flushed.
 */
void pl_out_boundary(void);
/*
 * The terminal guard (on in the sandbox): text a script chose that goes to a
 * terminal shows its control characters instead of sending them (cat -v
 * style; tab, newline and carriage return pass). Pipes and files get every
 * byte as it is, unless always: an MPI rank's output goes through mpirun,
 * most often to a terminal, which the rank cannot see.
 */
void pl_out_guard(int on, int always);
/* The guard is on (in the sandbox): a result file sent to a terminal gets it too. */
int pl_out_guarding(void);
/* n bytes of p to f with the guard's rule: every control shown, cat -v style. */
void pl_out_shown(FILE *f, const char *p, size_t n);
/*
 * The control character at p (n > 0 bytes left) that a terminal would act on:
 * C0 but tab, newline and carriage return, DEL, or a C1 control (U+0080..U+009F
 * in UTF-8, or a stray byte 0x80..0x9F). Returns its code point, or 0 for
 * anything else; *len is the length of the character at p (a valid UTF-8
 * sequence, else 1 byte). What the guard shows, and the progress line replaces.
 */
unsigned pl_out_control(const char *p, size_t n, size_t *len);
/* One of platter's last lines on stderr (after pl_out_boundary), printf-style,
   through the guard: an error message can quote text a script chose. */
void pl_out_final(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void pl_out_final_text(const char *p, size_t n);
/* At the end of a process (also a worker's, which skips atexit): write what still waits. */
void pl_out_finish(void);
/*
 * In a forked child (a p.parallel worker): forget the text the parent holds
 * (the parent writes it) and the line state, so the child's own text is
 * written at once; a worker that prints while the parent's line is partial
 * does land in that line, as nothing ties the two processes' writes.
 */
void pl_out_forked(void);
/* Can a line be drawn on stderr now: its line (shared with stdout or not) is empty. */
int pl_out_line_free(void);
/*
 * The line drawn on an empty stderr line (the progress line): clear() erases
 * it before any other byte is written, redraw() draws it again once the line
 * is empty. Either may be NULL.
 */
void pl_out_overlay(void (*clear)(void), void (*redraw)(void));
/* stdout and stderr go to the same terminal, pipe or file. */
int pl_out_shared(void);

#endif
