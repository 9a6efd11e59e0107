/*
 * owners tree --until: whether the tree watched is in the state asked
 * for (every object ready, or all gone), and the outcome said: how long
 * it took, or what holds the tree up when the deadline passed.
 */
#include "tree_watch_state.h"

#include <stdio.h>
#include <stdlib.h>

#include "clock.h"
#include "output.h"
#include "tree_state.h"

int tree_watch_until_reached(struct tree_watch *tw, uint32_t *first)
{
	const struct owners_object_status *st;
	size_t n_status = 0;

	if (tw->until == OWNERS_UNTIL_GONE)
		return owners_tree_state_gone(first, session_graph(tw->s), &tw->tree);
	st = owners_watch_status(tw->w, &n_status);
	return owners_tree_state_ready(first, session_graph(tw->s), &tw->tree, st, n_status);
}

static const char *until_word(enum owners_until until)
{
	return until == OWNERS_UNTIL_READY ? "ready" : "gone";
}

/* Each object that holds the tree up, and why (up to a screenful, then
 * how many more): four Pending Pods are four lines, not one. */
static void say_not_ready(struct tree_watch *tw, const uint32_t *holders, size_t n)
{
	enum { SHOWN = 10 };
	const struct owners_object_status *st;
	size_t n_status = 0, i;

	st = owners_watch_status(tw->w, &n_status);
	for (i = 0; i < n && i < SHOWN; i++) {
		struct owners_buf name = OWNERS_BUF_INIT, why = OWNERS_BUF_INIT;

		if (!owners_graph_node_name(&name, &session_graph(tw->s)->nodes[holders[i]]) &&
		    !owners_tree_state_not_ready_why(&why, session_graph(tw->s), holders[i], st,
						     n_status))
			fprintf(stderr, "  (%s is not ready: %s)\n", name.ptr, why.ptr);
		owners_buf_clear(&name);
		owners_buf_clear(&why);
	}
	if (n > SHOWN)
		fprintf(stderr, "  (and %zu more not ready)\n", n - SHOWN);
}

static enum exit_code say_outcome(struct tree_watch *tw, int reached, uint32_t first)
{
	struct owners_buf name = OWNERS_BUF_INIT;
	long secs = (long)((owners_clock_ms() - tw->started_ms) / 1000);
	int ready = tw->until == OWNERS_UNTIL_READY;
	uint32_t *holders = NULL;
	size_t n = 0;

	if (reached) {
		fprintf(stderr, "%s after %lds\n", ready ? "every object of the tree is ready" : "the tree is gone",
			secs);
		return EXIT_OK;
	}
	if (ready && (holders = calloc(tw->tree.count + 1, sizeof(*holders)))) {
		const struct owners_object_status *st;
		size_t n_status = 0;

		st = owners_watch_status(tw->w, &n_status);
		n = owners_tree_state_not_ready_holders(holders, session_graph(tw->s), &tw->tree,
							st, n_status);
	}
	if (n > 1)
		owners_buf_addf(&name, "%zu objects are not ready", n);
	else if (first != OWNERS_NO_NODE)
		owners_graph_node_name(&name, &session_graph(tw->s)->nodes[n ? holders[0] : first]);
	error_msg("timed out after %lds waiting for the tree to be %s%s%s", secs, until_word(tw->until),
		  name.len ? ": " : "", name.len ? name.ptr : "");
	/* the objects not ready with nothing below them not ready, and why:
	 * what holds the rest up */
	say_not_ready(tw, holders, n);
	free(holders);
	owners_buf_clear(&name);
	return EXIT_TIMEOUT;
}

enum exit_code tree_watch_outcome(struct tree_watch *tw, int reached)
{
	uint32_t first = OWNERS_NO_NODE;

	if (!reached)
		(void)tree_watch_until_reached(tw, &first);
	return say_outcome(tw, reached, first);
}

