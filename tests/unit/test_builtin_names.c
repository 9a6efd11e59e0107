/* kubectl's short names and categories of the built-in types
 * (lib/api/builtin_names.c), which a dump's types carry. */
#include <string.h>

#include "builtin_names.h"
#include "tap.h"

static size_t count(const char *const *v)
{
	size_t n = 0;

	while (v[n])
		n++;
	return n;
}

int main(void)
{
	struct owners_builtin_names n;

	n = owners_builtin_names_of("", "configmaps");
	ok(count(n.short_names) == 1 && !strcmp(n.short_names[0], "cm") && !count(n.categories),
	   "configmaps: cm, in no category");
	n = owners_builtin_names_of("apps", "deployments");
	ok(count(n.short_names) == 1 && !strcmp(n.short_names[0], "deploy") && count(n.categories) == 1 &&
		   !strcmp(n.categories[0], "all"),
	   "apps deployments: deploy, in all");
	n = owners_builtin_names_of("batch", "jobs");
	ok(!count(n.short_names) && count(n.categories) == 1, "batch jobs: no short name, in all");
	n = owners_builtin_names_of("apiextensions.k8s.io", "customresourcedefinitions");
	ok(count(n.short_names) == 2 && !strcmp(n.short_names[1], "crds"), "crds: crd and crds");
	n = owners_builtin_names_of("", "deployments");
	ok(!count(n.short_names) && !count(n.categories), "the group counts: core 'deployments' is no built-in");
	n = owners_builtin_names_of("example.com", "widgets");
	ok(n.short_names && n.categories && !count(n.short_names) && !count(n.categories),
	   "a custom type: empty lists, never NULL");
	return tap_done();
}
