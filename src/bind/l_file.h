/*
 * The "platter.file" userdata (l_file.c), which p.run also takes: its
 * metatable's name.
 */
#ifndef PLATTER_BIND_L_FILE_H
#define PLATTER_BIND_L_FILE_H

#define PL_FILE_MT "platter.file"

#endif
