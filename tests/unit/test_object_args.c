/* Object arguments as kubectl reads them. */
#include "object_args.h"
#include "tap.h"

static int parse(const char *const *args, size_t n, int type_only, struct owners_object_arg **out,
		 size_t *count, struct owners_error *err)
{
	owners_error_clear(err);
	return owners_object_args_parse(out, count, args, n, type_only, err);
}

int main(void)
{
	struct owners_error err = OWNERS_ERROR_INIT;
	struct owners_object_arg *a = NULL;
	size_t n = 0;

	{
		const char *args[] = { "deployment/web", "pod/web-1" };
		ok(parse(args, 2, 0, &a, &n, &err) == 0, "TYPE/NAME TYPE/NAME");
		ok(n == 2 && !strcmp(a[0].type, "deployment") && !strcmp(a[0].name, "web") &&
		   !strcmp(a[1].type, "pod") && !strcmp(a[1].name, "web-1"), "both split at the slash");
		owners_object_args_free(a, n);
	}
	{
		const char *args[] = { "deploy", "web", "api" };
		ok(parse(args, 3, 0, &a, &n, &err) == 0, "TYPE NAME NAME");
		ok(n == 2 && !strcmp(a[1].type, "deploy") && !strcmp(a[1].name, "api"), "type applies to each name");
		owners_object_args_free(a, n);
	}
	{
		const char *args[] = { "deployments.apps,statefulsets" };
		ok(parse(args, 1, 1, &a, &n, &err) == 0, "TYPE,TYPE with a selector");
		ok(n == 2 && !a[0].name && !strcmp(a[1].type, "statefulsets"), "each type, no name");
		owners_object_args_free(a, n);
	}
	{
		const char *args[] = { "deploy" };
		ok(parse(args, 1, 0, &a, &n, &err) == OWNERS_EINVAL, "bare TYPE without selector is a usage error");
		ok(strstr(owners_error_message(&err), "must specify a name") != NULL, "message says what is missing");
	}
	{
		const char *args[] = { "deploy", "deploy/web" };
		ok(parse(args, 2, 0, &a, &n, &err) == OWNERS_EINVAL, "mixed forms rejected");
	}
	{
		const char *args[] = { "deploy/web/x" };
		ok(parse(args, 1, 0, &a, &n, &err) == OWNERS_EINVAL, "two slashes rejected");
	}
	{
		const char *args[] = { "/web" };
		ok(parse(args, 1, 0, &a, &n, &err) == OWNERS_EINVAL, "empty type rejected");
	}
	{
		const char *args[] = { "deploy/" };
		ok(parse(args, 1, 0, &a, &n, &err) == OWNERS_EINVAL, "empty name rejected");
	}
	ok(parse(NULL, 0, 0, &a, &n, &err) == OWNERS_EINVAL, "no arguments is a usage error");
	{
		const char *args[] = { "a,,b" };
		ok(parse(args, 1, 1, &a, &n, &err) == OWNERS_EINVAL, "empty type in a list rejected");
	}
	owners_error_clear(&err);
	return tap_done();
}
