/*
 * The 'owners finalizers remove' command owners prints where a finalizer
 * holds an object (delete's plan, finalizers, why, a deadlock's way out):
 * made here, as words (lib/core/command_line.h), and spelled by whoever
 * prints it, with the program the user runs.
 */
#ifndef OWNERS_FINALIZER_COMMAND_H
#define OWNERS_FINALIZER_COMMAND_H

#include "command_line.h"
#include "graph.h"

/* Starts c: "finalizers remove"; the objects (TYPE/NAME words) follow.
 * 0, or OWNERS_ENOMEM. */
int owners_finalizer_command_start(struct owners_command_line *c);
/* Ends c: "[-n NS] --finalizer F [--uid=UID]". ns "" or NULL: none. uid
 * (one object): run after that object went, the command says already
 * done instead of touching another of its name; NULL: none. 0, or
 * OWNERS_ENOMEM. */
int owners_finalizer_command_finish(struct owners_command_line *c, const char *ns, const char *finalizer,
				    const char *uid);
/* The whole command for node n: its name as owners_graph_node_name()
 * spells it, its namespace, its UID. */
int owners_finalizer_command_of(struct owners_command_line *c, const struct owners_node *n, const char *finalizer);

#endif
