/*
 * PL_HOT marks the functions every I/O passes through. GCC puts them in
 * .text.hot, which the linker lays out together, so a step of a Lua loop or
 * of p.run touches a few pages of platter's code instead of one per source
 * file. That matters because each syscall can empty the TLB (page-table
 * isolation on a CPU without PCID, as on the development VM), and every
 * page touched after it is a page walk (docs/performance.md, W1').
 */
#ifndef PL_HOT_H
#define PL_HOT_H

#if defined(__GNUC__)
#define PL_HOT __attribute__((hot))
#else
#define PL_HOT
#endif

#endif
