/*
 * PL_HOT marks the functions every I/O passes through. GCC puts them in
 * .text.hot, which the linker lays out together, so a step of a Lua loop or
 * of p.run runs through a few pages of platter's code instead of one or two
 * per source file. What a step touches after its syscall tends to be cold
 * (on the development VM, page-table isolation without PCID on top of the
 * kernel's own work), so it costs more than its instruction count says
 * (docs/performance.md, W1').
 */
#ifndef PL_HOT_H
#define PL_HOT_H

#if defined(__GNUC__)
#define PL_HOT __attribute__((hot))
#else
#define PL_HOT
#endif

#endif
