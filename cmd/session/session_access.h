/*
 * The permissions a command asks for before its first change, all at
 * once, and what it says when one is denied.
 */
#ifndef OWNERS_CMD_SESSION_ACCESS_H
#define OWNERS_CMD_SESSION_ACCESS_H

#include <stdint.h>

#include "access_review.h"
#include "output.h"
#include "session.h"

/* Asks for every permission of checks at once (SelfSubjectAccessReview)
 * before a command's first change; each denied one is said with its
 * example object (examples[i], a node of the session's graph), then
 * "nothing was deleted or changed: NEEDED_BY needs ...", EXIT_INCOMPLETE.
 * Takes checks and examples (frees them). */
enum exit_code session_check_access(struct session *s, struct owners_access_check *checks, uint32_t *examples,
				    size_t n, const char *needed_by);

#endif
