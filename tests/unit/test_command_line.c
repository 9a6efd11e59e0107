/*
 * A printed command kept as words until it is printed
 * (lib/core/command_line.c), and the one 'finalizers remove' command the
 * renders print (lib/ops/finalizer_command.c): spelled with the program
 * the user runs, each word as a shell reads it back.
 */
#include <string.h>

#include "command_line.h"
#include "finalizer_command.h"
#include "tap.h"

static char *spelled(const char *program, const struct owners_command_line *c)
{
	struct owners_buf out = OWNERS_BUF_INIT;

	if (owners_command_line_spell(&out, program, c))
		return strdup("(failed)");
	return owners_buf_detach(&out);
}

static void check(const char *program, const struct owners_command_line *c, const char *want, const char *what)
{
	char *got = spelled(program, c);

	is_str(got, want, "%s", what);
	free(got);
}

static void words(void)
{
	struct owners_command_line c = OWNERS_COMMAND_LINE_INIT;

	check(NULL, &c, "owners", "no words: the program alone");
	ok(!owners_command_line_add(&c, "tree", "deployment/web", (const char *)NULL) &&
		   !owners_command_line_addf(&c, "--uid=%s", "u-1"),
	   "words appended, one made from a format");
	is_int(c.n, 3, "  three words");
	check(NULL, &c, "owners tree deployment/web --uid=u-1", "spelled with owners when no program is given");
	check("kubectl owners", &c, "kubectl owners tree deployment/web --uid=u-1",
	      "spelled with the plugin's program: the words are the same");
	ok(!owners_command_line_add(&c, "-l", "app in (a,b)", "it's", "", (const char *)NULL), "words a shell would split");
	check(NULL, &c, "owners tree deployment/web --uid=u-1 -l 'app in (a,b)' 'it'\\''s' ''",
	      "  each quoted so that a shell reads it back as one word, an empty one too");
	owners_command_line_clear(&c);
	is_int(c.n, 0, "cleared");
	check(NULL, &c, "owners", "  and usable again");
}

static void finalizer_commands(void)
{
	struct owners_command_line c = OWNERS_COMMAND_LINE_INIT;
	struct owners_node n;
	struct owners_node_place where = owners_graph_no_place;

	memset(&n, 0, sizeof(n));
	n.place = &where;
	n.extras = &owners_graph_no_extras;
	where.api_version = "apps/v1";
	where.kind = "Deployment";
	n.name = "web";
	where.namespace_ = "shop";
	owners_graph_node_borrow_uid(&n, "u-web");
	ok(!owners_finalizer_command_of(&c, &n, "example.com/hold"), "the command for a node");
	check(NULL, &c, "owners finalizers remove deployment.apps/web -n shop --finalizer example.com/hold --uid=u-web",
	      "  its name as owners names it, its namespace, the finalizer, its UID");
	owners_command_line_clear(&c);
	where.api_version = "v1";
	where.kind = "Namespace";
	n.name = "old";
	where.namespace_ = "";
	ok(!owners_finalizer_command_of(&c, &n, "kubernetes"), "the command for a cluster-scoped node");
	check("kubectl owners", &c, "kubectl owners finalizers remove namespace/old --finalizer kubernetes --uid=u-web",
	      "  no -n");
	owners_command_line_clear(&c);
	ok(!owners_finalizer_command_start(&c) &&
		   !owners_command_line_add(&c, "configmap/a", "configmap/b", (const char *)NULL) &&
		   !owners_finalizer_command_finish(&c, "ns", "foregroundDeletion", NULL),
	   "a command for several objects, built in steps");
	check(NULL, &c, "owners finalizers remove configmap/a configmap/b -n ns --finalizer foregroundDeletion",
	      "  the objects in order, no --uid");
	owners_command_line_clear(&c);
}

int main(void)
{
	words();
	finalizer_commands();
	return tap_done();
}
