/*
 * The sections of owners-delete(1) that --help leaves out (delete_man.c):
 * what delete's row names as its man_sections.
 */
#ifndef OWNERS_CMD_DELETE_MAN_H
#define OWNERS_CMD_DELETE_MAN_H

#include "commands.h"

extern const struct man_section delete_man_sections[];

#endif
