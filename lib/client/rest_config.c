#include "rest_config.h"
#include "owners_error.h"
#include "strv.h"

#include <stdlib.h>
#include <string.h>

/* A plain memset before free() may be removed as a dead store; a call
 * through a volatile pointer may not. */
static void *(*const volatile wipe_memset)(void *, int, size_t) = memset;

void owners_wipe(void *p, size_t len)
{
	if (p && len)
		wipe_memset(p, 0, len);
}

static void free_secret(char *s)
{
	if (s) {
		owners_wipe(s, strlen(s));
		free(s);
	}
}

static void release_secret(struct owners_buf *b)
{
	/* cap 0: the shared empty string, or a zeroed (calloc'd) buffer. */
	if (b->cap)
		owners_wipe(b->ptr, b->cap);
	owners_buf_clear(b);
}

int owners_rest_config_new(struct owners_rest_config **out)
{
	struct owners_rest_config *c = calloc(1, sizeof(*c));

	*out = NULL;
	if (!c)
		return OWNERS_ENOMEM;
	owners_buf_init(&c->ca_data);
	owners_buf_init(&c->client_cert_data);
	owners_buf_init(&c->client_key_data);
	owners_buf_init(&c->exec_cred.client_cert_data);
	owners_buf_init(&c->exec_cred.client_key_data);
	*out = c;
	return 0;
}

void owners_exec_config_free(struct owners_exec_config *e)
{
	size_t i;

	if (!e)
		return;
	free(e->api_version);
	free(e->command);
	owners_strv_free(e->args, e->n_args);
	owners_strv_free(e->env_names, e->n_env);
	/* Plugins get secrets (client ids, keys) through their env. */
	if (e->env_values)
		for (i = 0; i < e->n_env; i++)
			free_secret(e->env_values[i]);
	free(e->env_values);
	free(e->install_hint);
	free(e->interactive_mode);
	free(e);
}

void owners_rest_config_exec_credential_clear(struct owners_rest_config_exec_credential *c)
{
	if (!c)
		return;
	free_secret(c->token);
	c->token = NULL;
	release_secret(&c->client_cert_data);
	release_secret(&c->client_key_data);
	c->expires_at = 0;
	c->valid = 0;
}

void owners_rest_config_free(struct owners_rest_config *c)
{
	if (!c)
		return;
	free(c->server);
	free(c->tls_server_name);
	free(c->proxy_url);
	owners_buf_clear(&c->ca_data);
	owners_buf_clear(&c->client_cert_data);
	release_secret(&c->client_key_data);
	free_secret(c->token);
	free(c->token_file);
	free(c->impersonate_user);
	owners_strv_free(c->impersonate_groups, c->n_impersonate_groups);
	owners_exec_config_free(c->exec);
	owners_rest_config_exec_credential_clear(&c->exec_cred);
	free(c->namespace_);
	free(c->context_name);
	free(c->cluster_name);
	free(c->user_name);
	free(c);
}
