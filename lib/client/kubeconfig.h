/*
 * Loading a kubeconfig the way kubectl does: --kubeconfig, else the
 * KUBECONFIG list (merged: the first file to set a value wins), else
 * ~/.kube/config, else the in-cluster service account; then the context,
 * cluster and user chosen by flags, then flag overrides.
 *
 * Ownership: *out belongs to the caller (owners_rest_config_free()).
 */
#ifndef OWNERS_KUBECONFIG_H
#define OWNERS_KUBECONFIG_H

#include "owners_error.h"
#include "rest_config.h"

/* Flags that change what the kubeconfig says; NULL/-1 means "not given". */
struct owners_kubeconfig_overrides {
	const char *kubeconfig;   /* --kubeconfig: the only file read when set */
	const char *context;
	const char *cluster;
	const char *user;
	const char *namespace_;
	const char *server;
	const char *token;
	const char *certificate_authority; /* a file */
	int insecure_skip_tls_verify;      /* -1 unset, 0, 1 */
	const char *tls_server_name;
	const char *as;
	const char *const *as_groups;
	size_t n_as_groups;
};

/* Where the outside world comes from, so tests can stand in for it. */
struct owners_kubeconfig_env {
	const char *kubeconfig_env;  /* value of KUBECONFIG, or NULL */
	const char *home;            /* value of HOME, or NULL */
	const char *service_host;    /* KUBERNETES_SERVICE_HOST */
	const char *service_port;    /* KUBERNETES_SERVICE_PORT */
	const char *serviceaccount_dir; /* default /var/run/secrets/kubernetes.io/serviceaccount */
};

/* Fills env from the process environment. */
void owners_kubeconfig_env_from_process(struct owners_kubeconfig_env *env);

int owners_kubeconfig_load(struct owners_rest_config **out,
			   const struct owners_kubeconfig_overrides *ov,
			   const struct owners_kubeconfig_env *env, struct owners_error *err);

/* The names of the contexts (for completion), merged like the loader does;
 * *out is a NULL-terminated array the caller frees with
 * owners_strv_free_terminated() (strv.h). */
int owners_kubeconfig_contexts(char ***out, const struct owners_kubeconfig_overrides *ov,
			       const struct owners_kubeconfig_env *env, struct owners_error *err);

#endif
