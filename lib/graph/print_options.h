/*
 * How objects are printed: what every renderer of a table or a document
 * shares, as kubectl's print flags are shared by its commands. One
 * struct, embedded in each renderer's options (owners_render,
 * owners_dangling_render, owners_stuck_render, owners_why_render,
 * owners_collector_render) and filled once by the command layer.
 *
 * Ownership: the strings and arrays are borrowed from the caller.
 */
#ifndef OWNERS_GRAPH_PRINT_OPTIONS_H
#define OWNERS_GRAPH_PRINT_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "command_line.h"

struct owners_scan_warning;

struct owners_print_options {
	int64_t now;                    /* ages are counted to it (unix seconds) */
	int color;                      /* text: ANSI colours */
	int wide;                       /* -o wide: more columns, Kind.group/name */
	int names;                      /* -o name: each object's TYPE/NAME alone */
	int no_headers;                 /* table: no header line */
	int show_labels;                /* table: a LABELS column (the scan kept labels) */
	/* table: one column per label key (kubectl's -L), titled by
	 * owners_graph_label_title() */
	const char *const *label_keys;
	size_t n_label_keys;
	/* text: the program the commands it quotes are spelled with
	 * ("kubectl owners" for the plugin; NULL: OWNERS_PROGRAM); a
	 * document's commands always say owners (its schema) */
	const char *program;
	/* document: what the scan could not see, every type named
	 * (owners_scan_warnings_list()) */
	const struct owners_scan_warning *warnings;
	size_t n_warnings;
};

#endif
