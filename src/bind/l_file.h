/*
 * The "platter.file" userdata (l_file.c), which p.run also takes: its
 * metatable's name.
 */
#ifndef PLATTER_BIND_L_FILE_H
#define PLATTER_BIND_L_FILE_H

#include "compat.h"

#define PL_FILE_MT "platter.file"

/* Forget the buffered files closed so far (an outermost phase starts); the
   cache watch reads the list with core._closed_files(). */
void pl_closed_reset(lua_State *L);

#endif
