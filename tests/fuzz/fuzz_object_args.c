/* libFuzzer target: command-line object arguments (split from the input
 * at newlines) and type names resolved against a fixed resource table. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_types.h"
#include "object_args.h"
#include "type_resolve.h"

static struct owners_resource_table table;

static void add(const char *group, const char *plural, const char *singular, const char *kind,
		const char *shortname)
{
	fake_type_add(&table,
		      &(struct fake_type){ group, "v1", plural, singular, kind, shortname, 1, 1 });
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	owners_resource_table_init(&table);
	add("apps", "deployments", "deployment", "Deployment", "deploy");
	add("", "pods", "pod", "Pod", "po");
	add("a.example.com", "widgets", "widget", "Widget", "wd");
	add("b.example.com", "widgets", "widget", "Widget", NULL);
	add("", "events", "event", "Event", "ev");
	add("events.k8s.io", "events", "event", "Event", "ev");
	owners_resource_table_add_failure(&table, "metrics.k8s.io/v1beta1", "unavailable");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy = malloc(size + 1), *p, *nl;
	const char *args[16];
	size_t n = 0, count = 0, i;
	struct owners_object_arg *out = NULL;
	const struct owners_resource *r;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	copy[size] = '\0';
	for (p = copy; n < 16; p = nl + 1) {
		nl = strchr(p, '\n');
		args[n++] = p;
		if (!nl)
			break;
		*nl = '\0';
	}
	if (!owners_object_args_parse(&out, &count, args, n, size & 1, NULL)) {
		for (i = 0; i < count; i++)
			(void)owners_type_resolve(&r, &table, out[i].type, NULL);
		owners_object_args_free(out, count);
	}
	free(copy);
	return 0;
}
