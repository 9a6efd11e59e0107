/*
 * The sections of owners-gc(1) that --help leaves out (gc_man.c): what
 * gc's row names as its man_sections.
 */
#ifndef OWNERS_CMD_GC_MAN_H
#define OWNERS_CMD_GC_MAN_H

#include "commands.h"

extern const struct man_section gc_man_sections[];

#endif
