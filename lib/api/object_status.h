/*
 * READY and STATUS of an object, read from its full JSON the way kubectl
 * and kubectl-tree present them: pods count ready containers and show
 * their phase (or why they wait), workloads count ready replicas, and
 * anything with a Ready condition shows it.
 *
 * Ownership: the strings in owners_object_status are owned by it; read
 * replaces (and frees) what a zeroed or earlier-filled record held.
 */
#ifndef OWNERS_OBJECT_STATUS_H
#define OWNERS_OBJECT_STATUS_H

#include "json.h"

struct owners_object_status {
	char *ready;  /* "1/1", "True", "-" */
	char *status; /* "Running", "Available", "ContainerCreating", "-" */
};

int owners_object_status_read(struct owners_object_status *out, const char *kind,
			      const struct owners_json_value *object);
void owners_object_status_clear(struct owners_object_status *s);

#endif
