/*
 * The kubeconfig loader. Files are parsed with libyaml's document API and
 * kept as parsed documents until the rest config is built: merging is done
 * by looking names up in file order (the first file that defines a name
 * wins, as in kubectl's merge), which also tells which file an item came
 * from, so its relative paths resolve against that file's directory.
 *
 * Resolution works in two steps: the chosen cluster and user are first
 * read as borrowed strings ("raw"), flags are applied to those, and only
 * then are files read and base64 decoded, so a flag that replaces a value
 * also spares reading what it replaces.
 */
#include "kubeconfig.h"
#include "strv.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

#include "base64.h"
#include "grow.h"

#define DEFAULT_SERVICEACCOUNT_DIR "/var/run/secrets/kubernetes.io/serviceaccount"

#define EXEC_V1 "client.authentication.k8s.io/v1"
#define EXEC_V1BETA1 "client.authentication.k8s.io/v1beta1"

/* ---- files ----------------------------------------------------------- */

static int is_set(const char *s)
{
	return s && *s;
}

/* Reads a whole file into out (appending). Returns 0 or -errno. No size
 * cap: kubeconfigs and certificates are small, and a FIFO
 * (KUBECONFIG=<(...)) has no size to check anyway. */
static int read_file(struct owners_buf *out, const char *path)
{
	ssize_t n;
	int fd, e;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		if (owners_buf_grow(out, 8192)) {
			close(fd);
			return -ENOMEM;
		}
		n = read(fd, out->ptr + out->len, out->cap - out->len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			e = errno;
			close(fd);
			return -e;
		}
		if (n == 0)
			break;
		out->len += (size_t)n;
	}
	out->ptr[out->len] = '\0';
	close(fd);
	return 0;
}

static int read_error(struct owners_error *err, int rc, const char *what, const char *path,
		      const char *of)
{
	if (rc == -ENOMEM)
		return owners_error_oom(err);
	return owners_error_set(err, OWNERS_EIO, "cannot read %s '%s'%s%s: %s", what, path,
				of ? " of " : "", of ? of : "", strerror(-rc));
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* Tokens and namespaces in files usually end with a newline that is not
 * part of the value (kubectl trims them too). */
static void trim(struct owners_buf *b)
{
	size_t start = 0;

	while (b->len && is_space(b->ptr[b->len - 1]))
		owners_buf_truncate(b, b->len - 1);
	while (start < b->len && is_space(b->ptr[start]))
		start++;
	if (start) {
		memmove(b->ptr, b->ptr + start, b->len - start);
		owners_buf_truncate(b, b->len - start);
	}
}

/* dir/p, or p itself when it is absolute or there is no dir. */
static char *path_join(const char *dir, const char *p)
{
	struct owners_buf b = OWNERS_BUF_INIT;

	if (p[0] == '/' || !dir)
		return owners_strdup(p);
	/* "./bin/plugin" reads better as "<dir>/bin/plugin". */
	while (p[0] == '.' && p[1] == '/') {
		p += 2;
		while (*p == '/')
			p++;
	}
	if (owners_buf_adds(&b, dir) || owners_buf_addc(&b, '/') || owners_buf_adds(&b, p)) {
		owners_buf_clear(&b);
		return NULL;
	}
	return owners_buf_detach(&b);
}

/* The absolute directory of path, as kubectl resolves relative references
 * (filepath.Abs(filepath.Dir(path))). Falls back to the relative directory
 * when the working directory cannot be named (it was removed). */
static char *abs_dir(const char *path)
{
	struct owners_buf b = OWNERS_BUF_INIT;
	const char *slash = strrchr(path, '/');
	size_t size = 256, cap = 0;
	char *cwd = NULL;
	int rc = 0;

	if (path[0] == '/')
		return owners_strndup(path, slash == path ? 1 : (size_t)(slash - path));
	for (;;) {
		if (OWNERS_GROW(cwd, cap, size))
			goto oom;
		if (getcwd(cwd, cap))
			break;
		if (errno != ERANGE) {
			free(cwd);
			cwd = NULL;
			break;
		}
		size *= 2;
	}
	if (cwd)
		rc = owners_buf_adds(&b, cwd);
	else
		rc = owners_buf_addc(&b, '.');
	if (!rc && slash) {
		if (!(cwd && !strcmp(cwd, "/")))
			rc = owners_buf_addc(&b, '/');
		if (!rc)
			rc = owners_buf_add(&b, path, (size_t)(slash - path));
	}
	free(cwd);
	cwd = NULL;
	if (rc)
		goto oom;
	return owners_buf_detach(&b);
oom:
	free(cwd);
	owners_buf_clear(&b);
	return NULL;
}

/* ---- parsed files ---------------------------------------------------- */

enum kc_kind { KC_CLUSTER, KC_USER, KC_CONTEXT, KC_KINDS };

static const char *const list_key[KC_KINDS] = { "clusters", "users", "contexts" };
static const char *const body_key[KC_KINDS] = { "cluster", "user", "context" };
static const char *const kind_name[KC_KINDS] = { "cluster", "user", "context" };

struct kc_file {
	char *path;
	char *dir;                     /* absolute, for relative references */
	yaml_document_t doc;
	int loaded;                    /* doc needs yaml_document_delete() */
	yaml_node_t *lists[KC_KINDS];  /* sequences, or NULL */
	const char *current_context;   /* borrowed from doc, or NULL */
};

struct kc_set {
	struct kc_file *files;
	size_t n, cap;
};

static void set_clear(struct kc_set *set)
{
	size_t i;

	for (i = 0; i < set->n; i++) {
		free(set->files[i].path);
		free(set->files[i].dir);
		if (set->files[i].loaded)
			yaml_document_delete(&set->files[i].doc);
	}
	free(set->files);
	memset(set, 0, sizeof(*set));
}

/* Who a field belongs to, for messages: "'token' of user 'bob'". */
struct where {
	struct kc_file *f;
	const char *kind; /* NULL at the top level */
	const char *name;
};

static yaml_node_t *node_at(struct kc_file *f, int index)
{
	return yaml_document_get_node(&f->doc, index);
}

static const char *scalar(const yaml_node_t *n)
{
	return (const char *)n->data.scalar.value;
}

static unsigned long line_of(const yaml_node_t *n)
{
	return (unsigned long)n->start_mark.line + 1;
}

/* Absent, `key:`, `~` and `null` all mean "not set", as in YAML 1.1. */
static int is_null(const yaml_node_t *n)
{
	const char *v;

	if (!n)
		return 1;
	if (n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return 0;
	v = scalar(n);
	return !*v || !strcmp(v, "~") || !strcmp(v, "null") || !strcmp(v, "Null") ||
	       !strcmp(v, "NULL");
}

static const char *type_name(const yaml_node_t *n)
{
	switch (n->type) {
	case YAML_SCALAR_NODE:
		return "a scalar";
	case YAML_SEQUENCE_NODE:
		return "a list";
	case YAML_MAPPING_NODE:
		return "a mapping";
	default:
		return "empty";
	}
}

static int type_error(struct owners_error *err, const struct where *w, const char *field,
		      const yaml_node_t *n, const char *want)
{
	if (w->kind)
		return owners_error_set(err, OWNERS_ECONFIG,
					"invalid kubeconfig '%s': '%s' of %s '%s' must be %s, not %s (line %lu)",
					w->f->path, field, w->kind, w->name, want, type_name(n),
					line_of(n));
	return owners_error_set(err, OWNERS_ECONFIG,
				"invalid kubeconfig '%s': '%s' must be %s, not %s (line %lu)",
				w->f->path, field, want, type_name(n), line_of(n));
}

static yaml_node_t *map_get(struct kc_file *f, yaml_node_t *map, const char *key)
{
	yaml_node_pair_t *p;
	yaml_node_t *k;

	if (!map)
		return NULL;
	for (p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		k = node_at(f, p->key);
		if (k && k->type == YAML_SCALAR_NODE && !strcmp(scalar(k), key))
			return node_at(f, p->value);
	}
	return NULL;
}

/* A scalar as a string (numbers too: `namespace: 123` is a name). */
static int node_string(const char **out, const struct where *w, const char *field,
		       yaml_node_t *n, struct owners_error *err)
{
	*out = NULL;
	if (is_null(n))
		return 0;
	if (n->type != YAML_SCALAR_NODE)
		return type_error(err, w, field, n, "a string");
	/* A "\0" escape would silently cut a path or a token short. */
	if (strlen(scalar(n)) != n->data.scalar.length)
		return owners_error_set(err, OWNERS_ECONFIG,
					"invalid kubeconfig '%s': '%s' contains a NUL byte (line %lu)",
					w->f->path, field, line_of(n));
	*out = scalar(n);
	return 0;
}

static int get_string(const char **out, const struct where *w, yaml_node_t *map,
		      const char *key, struct owners_error *err)
{
	return node_string(out, w, key, map_get(w->f, map, key), err);
}

/* Leaves *out alone when the key is absent, so it keeps its default. */
static int get_bool(int *out, const struct where *w, yaml_node_t *map, const char *key,
		    struct owners_error *err)
{
	static const char *const yes[] = { "true", "True", "TRUE", "yes", "Yes", "YES",
					   "on", "On", "ON", NULL };
	static const char *const no[] = { "false", "False", "FALSE", "no", "No", "NO",
					  "off", "Off", "OFF", NULL };
	yaml_node_t *n = map_get(w->f, map, key);
	size_t i;

	if (is_null(n))
		return 0;
	/* A quoted "true" is a string, which kubectl rejects as well. */
	if (n->type == YAML_SCALAR_NODE && n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE) {
		for (i = 0; yes[i]; i++)
			if (!strcmp(scalar(n), yes[i])) {
				*out = 1;
				return 0;
			}
		for (i = 0; no[i]; i++)
			if (!strcmp(scalar(n), no[i])) {
				*out = 0;
				return 0;
			}
	}
	return type_error(err, w, key, n, "true or false");
}

static int get_node(yaml_node_t **out, const struct where *w, yaml_node_t *map, const char *key,
		    yaml_node_type_t type, struct owners_error *err)
{
	yaml_node_t *n = map_get(w->f, map, key);

	*out = NULL;
	if (is_null(n))
		return 0;
	if (n->type != type)
		return type_error(err, w, key, n,
				  type == YAML_MAPPING_NODE ? "a mapping" : "a list");
	*out = n;
	return 0;
}

/* The name of a list item, or NULL when it has none (kubectl accepts such
 * items; nothing can refer to them). Items were checked by index_file(). */
static const char *item_name(struct kc_file *f, yaml_node_t *item)
{
	yaml_node_t *n = map_get(f, item, "name");

	return is_null(n) || !*scalar(n) ? NULL : scalar(n);
}

/* Checks the shape of the top level, so the lookups below can trust it:
 * each list is a sequence of mappings with a string name and a mapping
 * body; names are unique within a file (kubectl refuses duplicates). */
static int index_file(struct kc_file *f, struct owners_error *err)
{
	struct where w = { f, NULL, NULL };
	yaml_node_t *root = yaml_document_get_root_node(&f->doc), *item, *body, *other;
	yaml_node_item_t *it, *jt;
	const char *name;
	int k, rc;

	if (!root || is_null(root))
		return 0; /* an empty file is an empty configuration */
	if (root->type != YAML_MAPPING_NODE)
		return owners_error_set(err, OWNERS_ECONFIG,
					"invalid kubeconfig '%s': the top level must be a mapping, not %s (line %lu)",
					f->path, type_name(root), line_of(root));
	rc = get_string(&f->current_context, &w, root, "current-context", err);
	for (k = 0; !rc && k < KC_KINDS; k++) {
		rc = get_node(&f->lists[k], &w, root, list_key[k], YAML_SEQUENCE_NODE, err);
		if (rc || !f->lists[k])
			continue;
		for (it = f->lists[k]->data.sequence.items.start;
		     !rc && it < f->lists[k]->data.sequence.items.top; it++) {
			item = node_at(f, *it);
			if (!item || item->type != YAML_MAPPING_NODE)
				return owners_error_set(err, OWNERS_ECONFIG,
							"invalid kubeconfig '%s': '%s' entries must be mappings, not %s (line %lu)",
							f->path, list_key[k],
							item ? type_name(item) : "empty",
							item ? line_of(item) : 0);
			rc = get_string(&name, &w, item, "name", err);
			if (rc || !is_set(name))
				continue;
			w.kind = kind_name[k];
			w.name = name;
			rc = get_node(&body, &w, item, body_key[k], YAML_MAPPING_NODE, err);
			w.kind = NULL;
			for (jt = f->lists[k]->data.sequence.items.start; !rc && jt < it; jt++) {
				other = node_at(f, *jt);
				if (item_name(f, other) && !strcmp(item_name(f, other), name))
					return owners_error_set(err, OWNERS_ECONFIG,
								"invalid kubeconfig '%s': duplicate %s name '%s' (line %lu)",
								f->path, kind_name[k], name,
								line_of(item));
			}
		}
	}
	return rc;
}

static int parse_error(struct owners_error *err, const char *path, yaml_parser_t *parser)
{
	const char *problem = parser->problem ? parser->problem : "invalid YAML";

	switch (parser->error) {
	case YAML_NO_ERROR:
		/* Failed without saying why: libyaml 0.2.5's composer does
		 * that when copying a default tag fails (yaml_strdup() in
		 * yaml_parser_load_scalar/_sequence/_mapping): out of memory,
		 * not a syntax error at line 1. */
	case YAML_MEMORY_ERROR:
		return owners_error_oom(err);
	case YAML_READER_ERROR:
		/* Encoding errors have a byte offset, not a position. */
		return owners_error_set(err, OWNERS_ECONFIG,
					"cannot parse kubeconfig '%s': %s at byte %zu", path, problem,
					parser->problem_offset);
	default:
		if (parser->context)
			return owners_error_set(err, OWNERS_ECONFIG,
						"cannot parse kubeconfig '%s': %s %s at line %lu", path,
						parser->context, problem,
						(unsigned long)parser->problem_mark.line + 1);
		return owners_error_set(err, OWNERS_ECONFIG,
					"cannot parse kubeconfig '%s': %s at line %lu", path, problem,
					(unsigned long)parser->problem_mark.line + 1);
	}
}

/* Parses one file into the set. A missing file is skipped unless
 * must_exist (the --kubeconfig file), like kubectl's KUBECONFIG list. */
static int load_file(struct kc_set *set, const char *path, int must_exist,
		     struct owners_error *err)
{
	struct owners_buf data = OWNERS_BUF_INIT;
	yaml_parser_t parser;
	int parser_ready = 0, rc;
	struct kc_file *f;

	rc = read_file(&data, path);
	if (rc == -ENOENT && !must_exist) {
		rc = 0;
		goto out;
	}
	if (rc) {
		rc = read_error(err, rc, "kubeconfig", path, NULL);
		goto out;
	}
	if (OWNERS_GROW(set->files, set->cap, set->n + 1))
		goto oom;
	/* Counted now, so set_clear() cleans up whatever is built below. */
	f = &set->files[set->n++];
	memset(f, 0, sizeof(*f));
	f->path = owners_strdup(path);
	f->dir = abs_dir(path);
	if (!f->path || !f->dir)
		goto oom;
	if (!yaml_parser_initialize(&parser))
		goto oom;
	parser_ready = 1;
	yaml_parser_set_input_string(&parser, (const unsigned char *)data.ptr, data.len);
	/* Only the first document counts, as for kubectl. */
	if (!yaml_parser_load(&parser, &f->doc)) {
		rc = parse_error(err, path, &parser);
		goto out;
	}
	f->loaded = 1;
	rc = index_file(f, err);
	goto out;
oom:
	rc = owners_error_oom(err);
out:
	if (parser_ready)
		yaml_parser_delete(&parser);
	owners_buf_clear(&data);
	return rc;
}

static const struct owners_kubeconfig_overrides no_overrides = {
	.insecure_skip_tls_verify = -1,
};

/* No overrides means none; no environment means this process's. */
static void with_defaults(const struct owners_kubeconfig_overrides **ov,
			  const struct owners_kubeconfig_env **env,
			  struct owners_kubeconfig_env *process_env)
{
	if (!*ov)
		*ov = &no_overrides;
	if (!*env) {
		owners_kubeconfig_env_from_process(process_env);
		*env = process_env;
	}
}

/* kubectl's precedence: --kubeconfig alone, else every KUBECONFIG entry,
 * else ~/.kube/config. */
static int load_set(struct kc_set *set, const struct owners_kubeconfig_overrides *ov,
		    const struct owners_kubeconfig_env *env, struct owners_error *err)
{
	struct owners_buf path = OWNERS_BUF_INIT;
	const char *p, *colon;
	int rc = 0;

	if (is_set(ov->kubeconfig))
		return load_file(set, ov->kubeconfig, 1, err);
	if (is_set(env->kubeconfig_env)) {
		for (p = env->kubeconfig_env; !rc; p = colon + 1) {
			colon = strchr(p, ':');
			if (!colon)
				colon = p + strlen(p);
			if (colon > p) {
				owners_buf_reset(&path);
				if (owners_buf_add(&path, p, (size_t)(colon - p)))
					rc = owners_error_oom(err);
				else
					rc = load_file(set, path.ptr, 0, err);
			}
			if (!*colon)
				break;
		}
	} else if (is_set(env->home)) {
		if (owners_buf_addf(&path, "%s/.kube/config", env->home))
			rc = owners_error_oom(err);
		else
			rc = load_file(set, path.ptr, 0, err);
	}
	owners_buf_clear(&path);
	return rc;
}

static int set_is_empty(const struct kc_set *set)
{
	size_t i;
	int k;

	for (i = 0; i < set->n; i++) {
		if (is_set(set->files[i].current_context))
			return 0;
		for (k = 0; k < KC_KINDS; k++)
			if (set->files[i].lists[k] &&
			    set->files[i].lists[k]->data.sequence.items.top >
				    set->files[i].lists[k]->data.sequence.items.start)
				return 0;
	}
	return 1;
}

struct named {
	struct kc_file *f;
	yaml_node_t *body; /* the mapping under cluster:/user:/context:, or NULL */
	const char *name;
};

/* The first file that defines the name wins, as in kubectl's merge. */
static int find_named(struct named *out, struct kc_set *set, enum kc_kind k, const char *name)
{
	yaml_node_item_t *it;
	yaml_node_t *item;
	const char *n;
	size_t i;

	for (i = 0; i < set->n; i++) {
		struct kc_file *f = &set->files[i];

		if (!f->lists[k])
			continue;
		for (it = f->lists[k]->data.sequence.items.start;
		     it < f->lists[k]->data.sequence.items.top; it++) {
			item = node_at(f, *it);
			n = item_name(f, item);
			if (n && !strcmp(n, name)) {
				out->f = f;
				out->name = n;
				/* index_file() checked it is a mapping or null. */
				out->body = map_get(f, item, body_key[k]);
				if (is_null(out->body))
					out->body = NULL;
				return 1;
			}
		}
	}
	return 0;
}

static const char *current_context(const struct kc_set *set)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		if (is_set(set->files[i].current_context))
			return set->files[i].current_context;
	return NULL;
}

/* ---- raw cluster and user -------------------------------------------- */

/* Borrowed strings (from the documents, the flags or the environment). */
struct raw_cluster {
	const char *label;            /* "cluster 'prod'", for messages */
	const char *server;
	const char *ca_file;
	const char *ca_file_base;     /* directory for a relative ca_file */
	int ca_file_optional;         /* in-cluster: a missing ca.crt is fine */
	const char *ca_data;          /* base64 */
	int insecure;
	const char *tls_server_name;
	const char *proxy_url;
};

struct raw_user {
	const char *label;            /* "user 'bob'" */
	const char *base;             /* directory for relative paths */
	struct where w;               /* for exec fields; w.f NULL without a file */
	const char *token;
	const char *token_file;
	const char *cert_file;
	const char *cert_data;
	const char *key_file;
	const char *key_data;
	const char *as;
	yaml_node_t *as_groups;       /* a sequence from the file, or NULL */
	const char *const *flag_groups; /* --as-group, replaces as_groups */
	size_t n_flag_groups;
	yaml_node_t *exec;
};

static int read_cluster(struct raw_cluster *rc, const struct named *cl,
			struct owners_error *err)
{
	struct where w = { cl->f, "cluster", cl->name };
	int rv;

	rc->ca_file_base = cl->f->dir;
	if ((rv = get_string(&rc->server, &w, cl->body, "server", err)) ||
	    (rv = get_string(&rc->ca_file, &w, cl->body, "certificate-authority", err)) ||
	    (rv = get_string(&rc->ca_data, &w, cl->body, "certificate-authority-data", err)) ||
	    (rv = get_bool(&rc->insecure, &w, cl->body, "insecure-skip-tls-verify", err)) ||
	    (rv = get_string(&rc->tls_server_name, &w, cl->body, "tls-server-name", err)) ||
	    (rv = get_string(&rc->proxy_url, &w, cl->body, "proxy-url", err)))
		return rv;
	return 0;
}

static int read_user(struct raw_user *ru, const struct named *u, struct owners_error *err)
{
	const char *username, *password;
	yaml_node_t *provider;
	const char *provider_name = NULL;
	int rv;

	ru->w.f = u->f;
	ru->w.kind = "user";
	ru->w.name = u->name;
	ru->base = u->f->dir;
	if ((rv = get_string(&ru->token, &ru->w, u->body, "token", err)) ||
	    (rv = get_string(&ru->token_file, &ru->w, u->body, "tokenFile", err)) ||
	    (rv = get_string(&ru->cert_file, &ru->w, u->body, "client-certificate", err)) ||
	    (rv = get_string(&ru->cert_data, &ru->w, u->body, "client-certificate-data", err)) ||
	    (rv = get_string(&ru->key_file, &ru->w, u->body, "client-key", err)) ||
	    (rv = get_string(&ru->key_data, &ru->w, u->body, "client-key-data", err)) ||
	    (rv = get_string(&ru->as, &ru->w, u->body, "as", err)) ||
	    (rv = get_node(&ru->as_groups, &ru->w, u->body, "as-groups", YAML_SEQUENCE_NODE,
			   err)) ||
	    (rv = get_node(&ru->exec, &ru->w, u->body, "exec", YAML_MAPPING_NODE, err)) ||
	    (rv = get_node(&provider, &ru->w, u->body, "auth-provider", YAML_MAPPING_NODE,
			   err)) ||
	    (rv = get_string(&username, &ru->w, u->body, "username", err)) ||
	    (rv = get_string(&password, &ru->w, u->body, "password", err)))
		return rv;
	if (provider) {
		/* The legacy in-tree gcp/azure/oidc providers are gone from
		 * kubectl too; their replacements are exec plugins. */
		rv = get_string(&provider_name, &ru->w, provider, "name", err);
		if (rv)
			return rv;
		return owners_error_set(err, OWNERS_ECONFIG,
					"user '%s' uses auth-provider '%s', which is not supported: use an exec credential plugin (e.g. gke-gcloud-auth-plugin, kubelogin)",
					u->name, provider_name ? provider_name : "");
	}
	if (is_set(username) || is_set(password))
		return owners_error_set(err, OWNERS_ECONFIG,
					"user '%s' uses username/password authentication, which kube-apiserver removed in 1.19 and owners does not support",
					u->name);
	return 0;
}

/* Flags win over the file, with kubectl's rules for the TLS trio. */
static int apply_overrides(struct raw_cluster *rc, struct raw_user *ru,
			   const struct owners_kubeconfig_overrides *ov, struct owners_error *err)
{
	int insecure_flag = ov->insecure_skip_tls_verify == 1;

	if (is_set(ov->server)) {
		rc->server = ov->server;
		/* A new server makes the kubeconfig's certificate name moot
		 * (client-go: "setting a --server will effectively clear the
		 * KUBECONFIG value of tls-server-name"). */
		rc->tls_server_name = ov->tls_server_name;
	} else if (is_set(ov->tls_server_name)) {
		rc->tls_server_name = ov->tls_server_name;
	}
	if (insecure_flag && is_set(ov->certificate_authority))
		return owners_error_set(err, OWNERS_EINVAL,
					"--insecure-skip-tls-verify and --certificate-authority cannot be used together");
	/* Either flag replaces the whole trust setting of the file, otherwise
	 * a kubeconfig CA would clash with --insecure-skip-tls-verify, or
	 * its CA data would win over --certificate-authority. */
	if (insecure_flag || is_set(ov->certificate_authority)) {
		rc->insecure = insecure_flag;
		rc->ca_file = is_set(ov->certificate_authority) ? ov->certificate_authority : NULL;
		rc->ca_file_base = NULL; /* relative to the working directory */
		rc->ca_file_optional = 0;
		rc->ca_data = NULL;
	} else if (ov->insecure_skip_tls_verify == 0) {
		rc->insecure = 0;
	}
	if (is_set(ov->token)) {
		/* Both a token and a client certificate may be sent; only the
		 * token source changes. */
		ru->token = ov->token;
		ru->token_file = NULL;
	}
	if (is_set(ov->as))
		ru->as = ov->as;
	if (ov->n_as_groups) {
		ru->flag_groups = ov->as_groups;
		ru->n_flag_groups = ov->n_as_groups;
	}
	return 0;
}

/* ---- building the rest config ----------------------------------------- */

static int set_str(char **dst, const char *s, struct owners_error *err)
{
	free(*dst);
	*dst = NULL;
	if (!s)
		return 0;
	*dst = owners_strdup(s);
	return *dst ? 0 : owners_error_oom(err);
}

static int decode_field(struct owners_buf *out, const char *b64, const char *field,
			const char *label, struct owners_error *err)
{
	int rc = owners_base64_decode(out, b64, strlen(b64));

	if (rc == OWNERS_ENOMEM)
		return owners_error_oom(err);
	if (rc)
		return owners_error_set(err, OWNERS_ECONFIG, "invalid base64 in '%s' of %s", field,
					label);
	return 0;
}

/* A file a kubeconfig field names, and what the messages say of it. */
struct field_file {
	const char *base;  /* the directory a relative file is in (NULL: as it is) */
	const char *file;
	const char *field; /* "client-certificate" */
	const char *label; /* whose field: "user 'admin' of ~/.kube/config" */
	int optional;      /* a missing file is no error (and reads as empty) */
};

static int read_field(struct owners_buf *out, const struct field_file *f, struct owners_error *err)
{
	char *path = path_join(f->base, f->file);
	int rc;

	if (!path)
		return owners_error_oom(err);
	rc = read_file(out, path);
	if (rc == -ENOENT && f->optional)
		rc = 0;
	else if (rc)
		rc = read_error(err, rc, f->field, path, f->label);
	free(path);
	return rc;
}

static int build_cluster(struct owners_rest_config *cfg, const struct raw_cluster *rc,
			 struct owners_error *err)
{
	struct owners_buf server = OWNERS_BUF_INIT;
	const char *p;
	int rv = 0;

	if (is_set(rc->ca_file) && is_set(rc->ca_data))
		return owners_error_set(err, OWNERS_ECONFIG,
					"%s sets both certificate-authority and certificate-authority-data",
					rc->label);
	if (rc->insecure && (is_set(rc->ca_file) || is_set(rc->ca_data)))
		return owners_error_set(err, OWNERS_ECONFIG,
					"%s sets both insecure-skip-tls-verify and a certificate authority",
					rc->label);
	if (is_set(rc->proxy_url) && strncmp(rc->proxy_url, "http://", 7) &&
	    strncmp(rc->proxy_url, "https://", 8) && strncmp(rc->proxy_url, "socks5://", 9))
		return owners_error_set(err, OWNERS_ECONFIG,
					"invalid proxy-url '%s' of %s: the scheme must be http, https or socks5",
					rc->proxy_url, rc->label);
	if (!is_set(rc->server))
		return owners_error_set(err, OWNERS_ECONFIG, "%s has no server", rc->label);
	/* Without a scheme kubectl guesses http:// unless TLS is configured;
	 * we always take https:// so a token never goes out in clear text by
	 * accident. */
	if (!strstr(rc->server, "://"))
		rv = owners_buf_adds(&server, "https://");
	if (!rv)
		rv = owners_buf_adds(&server, rc->server);
	if (rv) {
		owners_buf_clear(&server);
		return owners_error_oom(err);
	}
	/* Paths are appended to it ("/api/v1/..."). */
	while (server.len && server.ptr[server.len - 1] == '/')
		owners_buf_truncate(&server, server.len - 1);
	/* "https:/x/y://" has its only "://" at the end, gone with the
	 * trailing slashes: then there is no host at all. */
	p = strstr(server.ptr, "://");
	if (!p || !p[3]) {
		owners_buf_clear(&server);
		return owners_error_set(err, OWNERS_ECONFIG, "invalid server '%s' of %s",
					rc->server, rc->label);
	}
	cfg->server = owners_buf_detach(&server);
	if (!cfg->server)
		return owners_error_oom(err);

	if (is_set(rc->ca_data))
		rv = decode_field(&cfg->ca_data, rc->ca_data, "certificate-authority-data",
				  rc->label, err);
	else if (is_set(rc->ca_file))
		rv = read_field(&cfg->ca_data,
				&(const struct field_file){ rc->ca_file_base, rc->ca_file,
							    "certificate-authority", rc->label,
							    rc->ca_file_optional },
				err);
	if (rv)
		return rv;
	cfg->insecure_skip_tls_verify = rc->insecure;
	if (is_set(rc->tls_server_name) &&
	    (rv = set_str(&cfg->tls_server_name, rc->tls_server_name, err)))
		return rv;
	if (is_set(rc->proxy_url) && (rv = set_str(&cfg->proxy_url, rc->proxy_url, err)))
		return rv;
	return 0;
}

/* exec.args: every entry a string (null is ""). */
static int build_exec_args(struct owners_exec_config *e, const struct where *w,
			   const yaml_node_t *args, struct owners_error *err)
{
	size_t n = (size_t)(args->data.sequence.items.top - args->data.sequence.items.start);
	yaml_node_item_t *it;
	const char *s;
	int rc;

	e->args = calloc(n ? n : 1, sizeof(*e->args));
	if (!e->args)
		return owners_error_oom(err);
	for (it = args->data.sequence.items.start; it < args->data.sequence.items.top; it++) {
		if ((rc = node_string(&s, w, "exec.args", node_at(w->f, *it), err)))
			return rc;
		if (!(e->args[e->n_args++] = owners_strdup(s ? s : "")))
			return owners_error_oom(err);
	}
	return 0;
}

/* exec.env: a list of {name, value}, every name set and without '='
 * (it becomes NAME=VALUE in the plugin's environment). */
static int build_exec_env(struct owners_exec_config *e, const struct raw_user *ru,
			  const yaml_node_t *env, struct owners_error *err)
{
	const struct where *w = &ru->w;
	size_t n = (size_t)(env->data.sequence.items.top - env->data.sequence.items.start);
	const char *name, *value;
	yaml_node_item_t *it;
	yaml_node_t *item;
	int rc;

	e->env_names = calloc(n ? n : 1, sizeof(*e->env_names));
	e->env_values = calloc(n ? n : 1, sizeof(*e->env_values));
	if (!e->env_names || !e->env_values)
		return owners_error_oom(err);
	for (it = env->data.sequence.items.start; it < env->data.sequence.items.top; it++) {
		item = node_at(w->f, *it);
		if (item->type != YAML_MAPPING_NODE)
			return type_error(err, w, "exec.env", item,
					  "a list of {name, value} mappings");
		if ((rc = node_string(&name, w, "exec.env.name", map_get(w->f, item, "name"),
				      err)) ||
		    (rc = node_string(&value, w, "exec.env.value", map_get(w->f, item, "value"),
				      err)))
			return rc;
		if (!is_set(name) || strchr(name, '='))
			return owners_error_set(
				err, OWNERS_ECONFIG,
				"exec plugin of %s has an invalid env name '%s' (line %lu)",
				ru->label, name ? name : "", line_of(item));
		e->env_names[e->n_env] = owners_strdup(name);
		e->env_values[e->n_env] = owners_strdup(value ? value : "");
		e->n_env++;
		if (!e->env_names[e->n_env - 1] || !e->env_values[e->n_env - 1])
			return owners_error_oom(err);
	}
	return 0;
}

/* What the exec plugin must have, and may have, as kubectl checks it. */
static int check_exec(const struct raw_user *ru, const char *api_version, const char *command,
		      const char *mode, struct owners_error *err)
{
	if (!is_set(command))
		return owners_error_set(err, OWNERS_ECONFIG, "exec plugin of %s has no command",
					ru->label);
	if (!is_set(api_version))
		return owners_error_set(err, OWNERS_ECONFIG, "exec plugin of %s has no apiVersion",
					ru->label);
	/* v1alpha1 was removed from client-go in 1.24. */
	if (strcmp(api_version, EXEC_V1) && strcmp(api_version, EXEC_V1BETA1))
		return owners_error_set(err, OWNERS_ECONFIG,
					"exec plugin of %s has unsupported apiVersion '%s' (want '%s' or '%s')",
					ru->label, api_version, EXEC_V1, EXEC_V1BETA1);
	/* kubectl insists on it for v1; a missing one here just means the
	 * default, IfAvailable. */
	if (is_set(mode) && strcmp(mode, "Never") && strcmp(mode, "IfAvailable") &&
	    strcmp(mode, "Always"))
		return owners_error_set(err, OWNERS_ECONFIG,
					"exec plugin of %s has invalid interactiveMode '%s' (want Never, IfAvailable or Always)",
					ru->label, mode);
	return 0;
}

static int build_exec(struct owners_exec_config **out, const struct raw_user *ru,
		      struct owners_error *err)
{
	const struct where *w = &ru->w;
	struct owners_exec_config *e = NULL;
	const char *api_version, *command, *hint, *mode;
	yaml_node_t *args, *env;
	int rc;

	*out = NULL;
	if ((rc = get_string(&api_version, w, ru->exec, "apiVersion", err)) ||
	    (rc = get_string(&command, w, ru->exec, "command", err)) ||
	    (rc = get_string(&hint, w, ru->exec, "installHint", err)) ||
	    (rc = get_string(&mode, w, ru->exec, "interactiveMode", err)) ||
	    (rc = get_node(&args, w, ru->exec, "args", YAML_SEQUENCE_NODE, err)) ||
	    (rc = get_node(&env, w, ru->exec, "env", YAML_SEQUENCE_NODE, err)) ||
	    (rc = check_exec(ru, api_version, command, mode, err)))
		return rc;

	e = calloc(1, sizeof(*e));
	if (!e)
		goto oom;
	if ((rc = get_bool(&e->provide_cluster_info, w, ru->exec, "provideClusterInfo", err)))
		goto fail;
	e->api_version = owners_strdup(api_version);
	/* kubectl resolves a command with a slash against the kubeconfig's
	 * directory; a bare name is looked up in PATH. */
	e->command = strchr(command, '/') ? path_join(ru->base, command) : owners_strdup(command);
	if (!e->api_version || !e->command)
		goto oom;
	if ((is_set(hint) && !(e->install_hint = owners_strdup(hint))) ||
	    (is_set(mode) && !(e->interactive_mode = owners_strdup(mode))))
		goto oom;
	if ((args && (rc = build_exec_args(e, w, args, err))) ||
	    (env && (rc = build_exec_env(e, ru, env, err))))
		goto fail;
	*out = e;
	return 0;
oom:
	rc = owners_error_oom(err);
fail:
	owners_exec_config_free(e);
	return rc;
}

/* A client certificate comes with its key, each from a file or inline, never both. */
static int check_client_cert(const struct raw_user *ru, struct owners_error *err)
{
	if (is_set(ru->cert_file) && is_set(ru->cert_data))
		return owners_error_set(err, OWNERS_ECONFIG,
					"%s sets both client-certificate and client-certificate-data",
					ru->label);
	if (is_set(ru->key_file) && is_set(ru->key_data))
		return owners_error_set(err, OWNERS_ECONFIG,
					"%s sets both client-key and client-key-data", ru->label);
	if ((is_set(ru->cert_file) || is_set(ru->cert_data)) !=
	    (is_set(ru->key_file) || is_set(ru->key_data)))
		return owners_error_set(err, OWNERS_ECONFIG,
					"%s has a client certificate without a key, or a key without a certificate",
					ru->label);
	return 0;
}

static int build_token(struct owners_rest_config *cfg, const struct raw_user *ru,
		       struct owners_error *err)
{
	struct owners_buf token = OWNERS_BUF_INIT;
	int rc = 0;

	if (is_set(ru->token))
		return set_str(&cfg->token, ru->token, err);
	if (!is_set(ru->token_file))
		return 0;
	cfg->token_file = path_join(ru->base, ru->token_file);
	if (!cfg->token_file)
		return owners_error_oom(err);
	rc = read_field(&token,
			&(const struct field_file){ NULL, cfg->token_file, "tokenFile", ru->label, 0 },
			err);
	if (!rc) {
		trim(&token);
		if (token.len && !(cfg->token = owners_strdup(token.ptr)))
			rc = owners_error_oom(err);
	}
	owners_wipe(token.ptr, token.len);
	owners_buf_clear(&token);
	return rc;
}

static int build_client_cert(struct owners_rest_config *cfg, const struct raw_user *ru,
			     struct owners_error *err)
{
	int rc = 0;

	if (is_set(ru->cert_data))
		rc = decode_field(&cfg->client_cert_data, ru->cert_data, "client-certificate-data",
				  ru->label, err);
	else if (is_set(ru->cert_file))
		rc = read_field(&cfg->client_cert_data,
				&(const struct field_file){ ru->base, ru->cert_file,
							    "client-certificate", ru->label, 0 },
				err);
	if (rc)
		return rc;
	if (is_set(ru->key_data))
		rc = decode_field(&cfg->client_key_data, ru->key_data, "client-key-data",
				  ru->label, err);
	else if (is_set(ru->key_file))
		rc = read_field(&cfg->client_key_data,
				&(const struct field_file){ ru->base, ru->key_file, "client-key",
							    ru->label, 0 },
				err);
	return rc;
}

/* The groups to impersonate: --as-group's when given, else the kubeconfig's as-groups. */
static int build_impersonate_groups(struct owners_rest_config *cfg, const struct raw_user *ru,
				    struct owners_error *err)
{
	yaml_node_item_t *it;
	const char *s;
	size_t n, i;
	int rc;

	if (ru->n_flag_groups) {
		cfg->impersonate_groups = calloc(ru->n_flag_groups, sizeof(char *));
		if (!cfg->impersonate_groups)
			return owners_error_oom(err);
		for (i = 0; i < ru->n_flag_groups; i++) {
			cfg->impersonate_groups[i] = owners_strdup(ru->flag_groups[i]);
			if (!cfg->impersonate_groups[i])
				return owners_error_oom(err);
			cfg->n_impersonate_groups++;
		}
		return 0;
	}
	if (!ru->as_groups)
		return 0;
	n = (size_t)(ru->as_groups->data.sequence.items.top -
		     ru->as_groups->data.sequence.items.start);
	cfg->impersonate_groups = calloc(n ? n : 1, sizeof(char *));
	if (!cfg->impersonate_groups)
		return owners_error_oom(err);
	for (it = ru->as_groups->data.sequence.items.start;
	     it < ru->as_groups->data.sequence.items.top; it++) {
		if ((rc = node_string(&s, &ru->w, "as-groups", node_at(ru->w.f, *it), err)))
			return rc;
		if (!is_set(s))
			continue;
		cfg->impersonate_groups[cfg->n_impersonate_groups] = owners_strdup(s);
		if (!cfg->impersonate_groups[cfg->n_impersonate_groups])
			return owners_error_oom(err);
		cfg->n_impersonate_groups++;
	}
	return 0;
}

static int build_user(struct owners_rest_config *cfg, const struct raw_user *ru,
		      struct owners_error *err)
{
	int rc;

	if ((rc = check_client_cert(ru, err)) || (rc = build_token(cfg, ru, err)) ||
	    (rc = build_client_cert(cfg, ru, err)))
		return rc;
	if (is_set(ru->as) && (rc = set_str(&cfg->impersonate_user, ru->as, err)))
		return rc;
	if ((rc = build_impersonate_groups(cfg, ru, err)))
		return rc;
	if (cfg->n_impersonate_groups && !cfg->impersonate_user)
		return owners_error_set(err, OWNERS_ECONFIG,
					"%s requests impersonated groups without impersonating a user (set 'as' or --as)",
					ru->label);
	if (ru->exec)
		return build_exec(&cfg->exec, ru, err);
	return 0;
}

static int build(struct owners_rest_config *cfg, struct raw_cluster *rc, struct raw_user *ru,
		 const struct owners_kubeconfig_overrides *ov, struct owners_error *err)
{
	int rv = apply_overrides(rc, ru, ov, err);

	if (!rv)
		rv = build_cluster(cfg, rc, err);
	if (!rv)
		rv = build_user(cfg, ru, err);
	return rv;
}

/* ---- the kubeconfig path --------------------------------------------- */

static int resolve(struct owners_rest_config *cfg, struct kc_set *set,
		   const struct owners_kubeconfig_overrides *ov, struct owners_error *err)
{
	struct owners_buf cluster_label = OWNERS_BUF_INIT, user_label = OWNERS_BUF_INIT;
	struct named ctx = { 0 }, cl = { 0 }, user = { 0 };
	struct raw_cluster rc = { 0 };
	struct raw_user ru = { 0 };
	const char *ctx_name, *cluster_name = NULL, *user_name = NULL, *ns = NULL;
	struct where w;
	int rv = 0;

	ctx_name = is_set(ov->context) ? ov->context : current_context(set);
	if (is_set(ctx_name)) {
		if (!find_named(&ctx, set, KC_CONTEXT, ctx_name)) {
			rv = owners_error_set(err, OWNERS_ECONFIG,
					      "context '%s' not found in kubeconfig", ctx_name);
			goto out;
		}
		w.f = ctx.f;
		w.kind = "context";
		w.name = ctx.name;
		if ((rv = get_string(&cluster_name, &w, ctx.body, "cluster", err)) ||
		    (rv = get_string(&user_name, &w, ctx.body, "user", err)) ||
		    (rv = get_string(&ns, &w, ctx.body, "namespace", err)))
			goto out;
	}
	if (is_set(ov->cluster))
		cluster_name = ov->cluster;
	if (is_set(ov->user))
		user_name = ov->user;
	if (is_set(ov->namespace_))
		ns = ov->namespace_;

	if (is_set(cluster_name)) {
		if (!find_named(&cl, set, KC_CLUSTER, cluster_name)) {
			rv = owners_error_set(err, OWNERS_ECONFIG,
					      "cluster '%s' not found in kubeconfig", cluster_name);
			goto out;
		}
		if (owners_buf_addf(&cluster_label, "cluster '%s'", cluster_name))
			goto oom;
		if ((rv = read_cluster(&rc, &cl, err)))
			goto out;
	} else if (owners_buf_adds(&cluster_label, "the cluster given by --server")) {
		goto oom;
	}
	rc.label = cluster_label.ptr;
	if (!is_set(rc.server) && !is_set(ov->server)) {
		if (is_set(cluster_name))
			rv = owners_error_set(err, OWNERS_ECONFIG, "cluster '%s' has no server",
					      cluster_name);
		else if (is_set(ctx_name))
			rv = owners_error_set(err, OWNERS_ECONFIG, "context '%s' has no cluster",
					      ctx_name);
		else
			rv = owners_error_set(err, OWNERS_ECONFIG,
					      "no current context in kubeconfig: set current-context or use --context");
		goto out;
	}

	if (is_set(user_name)) {
		if (!find_named(&user, set, KC_USER, user_name)) {
			rv = owners_error_set(err, OWNERS_ECONFIG, "user '%s' not found in kubeconfig",
					      user_name);
			goto out;
		}
		if (owners_buf_addf(&user_label, "user '%s'", user_name))
			goto oom;
		if ((rv = read_user(&ru, &user, err)))
			goto out;
	} else if (owners_buf_adds(&user_label, "the command line")) {
		goto oom;
	}
	ru.label = user_label.ptr;

	if ((rv = build(cfg, &rc, &ru, ov, err)))
		goto out;
	if ((rv = set_str(&cfg->namespace_, is_set(ns) ? ns : "default", err)) ||
	    (rv = set_str(&cfg->context_name, is_set(ctx_name) ? ctx_name : NULL, err)) ||
	    (rv = set_str(&cfg->cluster_name, is_set(cluster_name) ? cluster_name : NULL, err)) ||
	    (rv = set_str(&cfg->user_name, is_set(user_name) ? user_name : NULL, err)))
		goto out;
	goto out;
oom:
	rv = owners_error_oom(err);
out:
	owners_buf_clear(&cluster_label);
	owners_buf_clear(&user_label);
	return rv;
}

/* ---- in-cluster ------------------------------------------------------- */

static const char *sa_dir(const struct owners_kubeconfig_env *env)
{
	return is_set(env->serviceaccount_dir) ? env->serviceaccount_dir
					       : DEFAULT_SERVICEACCOUNT_DIR;
}

/* client-go's inClusterClientConfig.Possible(): both variables and a token
 * file. */
static int in_cluster_possible(const struct owners_kubeconfig_env *env)
{
	struct owners_buf path = OWNERS_BUF_INIT;
	struct stat st;
	int possible = 0;

	if (!is_set(env->service_host) || !is_set(env->service_port))
		return 0;
	if (!owners_buf_addf(&path, "%s/token", sa_dir(env)))
		possible = !stat(path.ptr, &st) && !S_ISDIR(st.st_mode);
	owners_buf_clear(&path);
	return possible;
}

static int load_in_cluster(struct owners_rest_config *cfg,
			   const struct owners_kubeconfig_env *env,
			   const struct owners_kubeconfig_overrides *ov, struct owners_error *err)
{
	struct owners_buf server = OWNERS_BUF_INIT, token_file = OWNERS_BUF_INIT;
	struct owners_buf ca_file = OWNERS_BUF_INIT, ns_file = OWNERS_BUF_INIT;
	struct owners_buf ns = OWNERS_BUF_INIT;
	struct raw_cluster rc = { 0 };
	struct raw_user ru = { 0 };
	int rv;

	/* net.JoinHostPort: an IPv6 address needs brackets. */
	if (strchr(env->service_host, ':'))
		rv = owners_buf_addf(&server, "https://[%s]:%s", env->service_host,
				     env->service_port);
	else
		rv = owners_buf_addf(&server, "https://%s:%s", env->service_host,
				     env->service_port);
	if (rv || owners_buf_addf(&token_file, "%s/token", sa_dir(env)) ||
	    owners_buf_addf(&ca_file, "%s/ca.crt", sa_dir(env)) ||
	    owners_buf_addf(&ns_file, "%s/namespace", sa_dir(env)))
		goto oom;
	rc.label = "the in-cluster configuration";
	rc.server = server.ptr;
	rc.ca_file = ca_file.ptr;
	/* client-go only logs a missing ca.crt and goes on with the system
	 * roots; TLS is still verified. */
	rc.ca_file_optional = 1;
	ru.label = "the in-cluster service account";
	ru.token_file = token_file.ptr;
	if ((rv = build(cfg, &rc, &ru, ov, err)))
		goto out;

	if (is_set(ov->namespace_)) {
		rv = set_str(&cfg->namespace_, ov->namespace_, err);
	} else {
		/* The namespace file is optional: "default" without it. */
		rv = read_file(&ns, ns_file.ptr);
		if (rv == -ENOMEM)
			goto oom;
		if (!rv)
			trim(&ns);
		rv = set_str(&cfg->namespace_, !rv && ns.len ? ns.ptr : "default", err);
	}
	cfg->in_cluster = 1;
	goto out;
oom:
	rv = owners_error_oom(err);
out:
	owners_buf_clear(&server);
	owners_buf_clear(&token_file);
	owners_buf_clear(&ca_file);
	owners_buf_clear(&ns_file);
	owners_buf_clear(&ns);
	return rv;
}

/* ---- public ------------------------------------------------------------ */

void owners_kubeconfig_env_from_process(struct owners_kubeconfig_env *env)
{
	memset(env, 0, sizeof(*env));
	env->kubeconfig_env = getenv("KUBECONFIG");
	env->home = getenv("HOME");
	env->service_host = getenv("KUBERNETES_SERVICE_HOST");
	env->service_port = getenv("KUBERNETES_SERVICE_PORT");
	env->serviceaccount_dir = DEFAULT_SERVICEACCOUNT_DIR;
}

int owners_kubeconfig_load(struct owners_rest_config **out,
			   const struct owners_kubeconfig_overrides *ov,
			   const struct owners_kubeconfig_env *env, struct owners_error *err)
{
	struct owners_kubeconfig_env process_env;
	struct owners_rest_config *cfg = NULL;
	struct kc_set set = { 0 };
	int rc;

	*out = NULL;
	with_defaults(&ov, &env, &process_env);
	rc = load_set(&set, ov, env, err);
	if (rc)
		goto out;
	if (owners_rest_config_new(&cfg)) {
		rc = owners_error_oom(err);
		goto out;
	}
	/* As in client-go's DeferredLoadingClientConfig: an empty merged
	 * config falls back to the service account, unless flags alone
	 * describe the server or name something to look up. */
	if (set_is_empty(&set) && !is_set(ov->context) && !is_set(ov->cluster) &&
	    !is_set(ov->user) && !is_set(ov->server)) {
		if (in_cluster_possible(env))
			rc = load_in_cluster(cfg, env, ov, err);
		else if (is_set(ov->kubeconfig))
			rc = owners_error_set(err, OWNERS_ECONFIG,
					      "no configuration found in kubeconfig '%s'",
					      ov->kubeconfig);
		else if (is_set(env->kubeconfig_env))
			/* KUBECONFIG was set: its files are missing (client-go
			 * skips those) or empty; say which, not to set it */
			rc = owners_error_set(err, OWNERS_ECONFIG,
					      "no configuration found: KUBECONFIG is '%s', and no file it names "
					      "exists or holds a cluster",
					      env->kubeconfig_env);
		else
			rc = owners_error_set(err, OWNERS_ECONFIG,
					      "no configuration found: set --kubeconfig or KUBECONFIG, or create ~/.kube/config");
	} else {
		rc = resolve(cfg, &set, ov, err);
	}
out:
	set_clear(&set);
	if (rc)
		owners_rest_config_free(cfg);
	else
		*out = cfg;
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int owners_kubeconfig_contexts(char ***out, const struct owners_kubeconfig_overrides *ov,
			       const struct owners_kubeconfig_env *env, struct owners_error *err)
{
	struct owners_kubeconfig_env process_env;
	struct kc_set set = { 0 };
	char **names = NULL;
	size_t n = 0, cap = 0, i, j;
	yaml_node_item_t *it;
	const char *name;
	int rc;

	*out = NULL;
	with_defaults(&ov, &env, &process_env);
	rc = load_set(&set, ov, env, err);
	if (rc)
		goto out;
	names = calloc(cap = 1, sizeof(*names));
	if (!names)
		goto oom;
	for (i = 0; i < set.n; i++) {
		yaml_node_t *list = set.files[i].lists[KC_CONTEXT];

		if (!list)
			continue;
		for (it = list->data.sequence.items.start; it < list->data.sequence.items.top; it++) {
			name = item_name(&set.files[i], node_at(&set.files[i], *it));
			if (!name)
				continue;
			for (j = 0; j < n && strcmp(names[j], name); j++)
				;
			if (j < n)
				continue; /* an earlier file has it */
			/* room for the NULL that ends the list too */
			if (OWNERS_GROW(names, cap, n + 2))
				goto oom;
			names[n] = owners_strdup(name);
			if (!names[n])
				goto oom;
			names[++n] = NULL;
		}
	}
	/* kubectl config get-contexts sorts them too. */
	qsort(names, n, sizeof(*names), cmp_str);
	*out = names;
	names = NULL;
	goto out;
oom:
	rc = owners_error_oom(err);
out:
	owners_strv_free_terminated(names);
	set_clear(&set);
	return rc;
}
