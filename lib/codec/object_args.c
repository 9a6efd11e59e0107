#include "object_args.h"

#include <stdlib.h>
#include <string.h>

void owners_object_args_free(struct owners_object_arg *a, size_t n)
{
	size_t i;

	if (!a)
		return;
	for (i = 0; i < n; i++) {
		free(a[i].type);
		free(a[i].name);
	}
	free(a);
}

static int push(struct owners_object_arg *a, size_t *n, const char *type, size_t type_len,
		const char *name)
{
	a[*n].type = owners_strndup(type, type_len);
	a[*n].name = name ? owners_strdup(name) : NULL;
	if (!a[*n].type || (name && !a[*n].name)) {
		free(a[*n].type);
		free(a[*n].name);
		return OWNERS_ENOMEM;
	}
	(*n)++;
	return 0;
}

int owners_object_args_parse(struct owners_object_arg **out, size_t *n_out,
			     const char *const *args, size_t n_args, enum owners_type_alone type_alone,
			     struct owners_error *err)
{
	struct owners_object_arg *a = NULL;
	size_t n = 0, i, slashed = 0, cap;
	int rc = 0;

	*out = NULL;
	*n_out = 0;
	if (!n_args)
		return owners_error_set(err, OWNERS_EINVAL,
					"you must specify the type of resource and a name, e.g. deployment/web");
	for (i = 0; i < n_args; i++) {
		if (!*args[i])
			return owners_error_set(err, OWNERS_EINVAL, "empty argument");
		if (strchr(args[i], '/'))
			slashed++;
	}
	if (slashed && slashed != n_args)
		return owners_error_set(err, OWNERS_EINVAL,
					"there is no need to specify a resource type as a separate argument "
					"when passing arguments in resource/name form (e.g. 'deployment/web' "
					"instead of 'deployment deployment/web')");
	/* TYPE,TYPE expands to one entry per type */
	cap = n_args;
	if (!slashed)
		for (const char *p = args[0]; *p; p++)
			cap += *p == ',';
	a = calloc(cap + 1, sizeof(*a));
	if (!a)
		return owners_error_oom(err);
	if (slashed) {
		for (i = 0; !rc && i < n_args; i++) {
			const char *slash = strchr(args[i], '/');

			if (slash == args[i] || !slash[1] || strchr(slash + 1, '/')) {
				rc = owners_error_set(err, OWNERS_EINVAL,
						      "arguments in resource/name form must have a single "
						      "resource and name: '%s'", args[i]);
				break;
			}
			if (push(a, &n, args[i], (size_t)(slash - args[i]), slash + 1))
				rc = owners_error_oom(err);
		}
	} else {
		const char *p = args[0];

		if (n_args == 1 && type_alone != OWNERS_TYPE_ALONE_ALLOWED) {
			rc = owners_error_set(err, OWNERS_EINVAL, "you must specify a name%s for type '%s'",
					      type_alone == OWNERS_TYPE_ALONE_WITH_SELECTOR ? " (or a selector with -l, or --all)"
											    : "",
					      args[0]);
			goto out;
		}
		if (strchr(args[0], ',') && n_args > 1) {
			rc = owners_error_set(err, OWNERS_EINVAL,
					      "several types ('%s') cannot be combined with names", args[0]);
			goto out;
		}
		while (!rc) {
			const char *comma = strchr(p, ',');
			size_t len = comma ? (size_t)(comma - p) : strlen(p);

			if (!len) {
				rc = owners_error_set(err, OWNERS_EINVAL, "empty type in '%s'", args[0]);
				break;
			}
			if (n_args == 1)
				rc = push(a, &n, p, len, NULL) ? owners_error_oom(err) : 0;
			else
				for (i = 1; !rc && i < n_args; i++)
					if (push(a, &n, p, len, args[i]))
						rc = owners_error_oom(err);
			if (!comma)
				break;
			p = comma + 1;
		}
	}
out:
	if (rc) {
		owners_object_args_free(a, n);
		return rc;
	}
	*out = a;
	*n_out = n;
	return 0;
}
