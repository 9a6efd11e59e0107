/*
 * owners tree's own flags (its row's struct: cmd/tree.c parses them,
 * cmd/tree_watch.c follows them).
 */
#ifndef OWNERS_CMD_TREE_OPTIONS_H
#define OWNERS_CMD_TREE_OPTIONS_H

#include "options.h"

struct tree_options {
	int up;
	int related;            /* --related: uses beside ownership */
	long depth;             /* -1: no limit */
	int watch;              /* --watch */
	enum owners_until until; /* --until=ready|gone (watches too) */
	long timeout_ms;        /* with --until */
};

#endif
