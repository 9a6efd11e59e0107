/*
 * owners dangling --related: the uses that do not resolve (a Pod naming a
 * missing ConfigMap, a binding of a missing Role...), each with what it
 * breaks (lib/ops/broken_uses.h), over the objects dangling selects.
 */
#ifndef OWNERS_CMD_DANGLING_RELATED_H
#define OWNERS_CMD_DANGLING_RELATED_H

#include "run.h"

/* The report; with exit_code (--exit-code), exit 1 when it lists
 * anything. */
enum exit_code dangling_related(struct cmd_run *run, int exit_code);

#endif
