/*
 * How to reach and authenticate to one API server: what a kubeconfig
 * context (or the in-cluster service account) resolves to, after flags.
 *
 * Ownership: owners_rest_config_free() frees everything inside, including
 * the exec configuration and any cached exec credential.
 */
#ifndef OWNERS_REST_CONFIG_H
#define OWNERS_REST_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

struct owners_exec_config {
	char *api_version;   /* client.authentication.k8s.io/v1 or v1beta1 */
	char *command;
	char **args;
	size_t n_args;
	char **env_names;    /* set only in the child */
	char **env_values;
	size_t n_env;
	char *install_hint;
	int provide_cluster_info;
	char *interactive_mode; /* Never, IfAvailable, Always; NULL = IfAvailable */
	long timeout_ms;     /* a non-interactive run is killed after this; 0 = 60 s */
};

/* What an exec plugin returned; cached until expiry (0 = no expiry). */
struct owners_rest_config_exec_credential {
	char *token;
	struct owners_buf client_cert_data; /* PEM */
	struct owners_buf client_key_data;  /* PEM */
	int64_t expires_at;                 /* unix seconds; 0 when not given */
	int valid;                          /* 0 until a plugin run succeeded */
};

struct owners_rest_config {
	char *server;                 /* "https://127.0.0.1:6443", no trailing slash */
	char *tls_server_name;        /* SNI and certificate name override */
	char *proxy_url;
	int insecure_skip_tls_verify;
	struct owners_buf ca_data;    /* PEM; empty = system trust store */
	struct owners_buf client_cert_data; /* PEM */
	struct owners_buf client_key_data;  /* PEM */
	char *token;                  /* bearer token (inline, flag, or read from token_file) */
	char *token_file;
	char *impersonate_user;
	char **impersonate_groups;
	size_t n_impersonate_groups;
	struct owners_exec_config *exec;    /* NULL without an exec plugin */
	struct owners_rest_config_exec_credential exec_cred;
	char *namespace_;             /* the context's namespace, or "default" */
	char *context_name;           /* NULL for in-cluster */
	char *cluster_name;
	char *user_name;
	int in_cluster;
};

/* An empty configuration (buffers initialised, no exec), for loaders and
 * tests that fill one by hand: 0, or OWNERS_ENOMEM (*out NULL). */
int owners_rest_config_new(struct owners_rest_config **out);
void owners_rest_config_free(struct owners_rest_config *c);
void owners_exec_config_free(struct owners_exec_config *e);
/* Wipes and frees the cached credential; it is then not valid. */
void owners_rest_config_exec_credential_clear(struct owners_rest_config_exec_credential *c);
/* Overwrites len bytes in a way the compiler cannot drop (for secrets). */
void owners_wipe(void *p, size_t len);

#endif
