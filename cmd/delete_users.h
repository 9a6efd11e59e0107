/*
 * owners delete: who outside the cascade uses what it deletes (the live
 * objects that would break), said before anything changes, and
 * --if-unused's refusal when there is any (lib/ops/usage.h decides what
 * counts).
 */
#ifndef OWNERS_CMD_DELETE_USERS_H
#define OWNERS_CMD_DELETE_USERS_H

#include "delete_run.h"

/* Plans the cascade as it stands, reads the relations of the types that
 * may use its members, and says on stderr every user outside it and every
 * type whose objects could not be seen. With --if-unused, any user that
 * does not use it optionally, or any unseen type, refuses the delete:
 * EXIT_IN_USE with nothing changed. EXIT_OK otherwise. */
enum exit_code delete_check_users(struct delete_run *r);

#endif
