/*
 * A file of YAML documents, as kubectl and oc write them: one (kubectl
 * get -o yaml, a must-gather file), or several separated by "---". Read
 * with libyaml's event parser, streaming, into a dump tree builder
 * (snapshot_dump_tree.h): the file is never held whole.
 *
 * Scalars are typed as sigs.k8s.io/yaml reads what kubectl writes: quoted
 * ones are strings; a plain one is null ("", "~", null), a boolean
 * (true/false), a number when it is written as JSON writes numbers, else a
 * string. Aliases are refused (kubectl never writes them, and following
 * them is how a small file becomes a huge tree), as are keys that are not
 * scalars.
 *
 * Ownership: nothing is kept; f, name and t are borrowed.
 */
#ifndef OWNERS_SNAPSHOT_DUMP_YAML_H
#define OWNERS_SNAPSHOT_DUMP_YAML_H

#include <stdio.h>

#include "owners_error.h"
#include "snapshot_dump_tree.h"

/* Reads f to its end. 0; OWNERS_EPROTO with "NAME: line N: ..."; OWNERS_EIO;
 * OWNERS_ENOMEM; or the builder's sink's code. *documents (may be NULL):
 * how many were read. */
int owners_snapshot_dump_yaml_read(size_t *documents, FILE *f, const char *name,
				   struct owners_snapshot_dump_tree *t, struct owners_error *err);

#endif
