/*
 * What the user typed as a TYPE -> a resource from discovery, like kubectl.
 *
 * Accepted, case-insensitively: the plural ("deployments"), the singular
 * ("deployment"), a short name ("deploy"), or the kind ("Deployment"),
 * optionally followed by ".group" ("deployments.apps", "widgets.example.com")
 * or ".version.group" ("deployment.v1.apps"). As in kubectl, a name with
 * two or more dots is first read as name.version.group, then, failing
 * that, as name.group ("widgets.example.com" is never version "example"
 * of group "com" unless such a group is served).
 *
 * Which resource:
 *  - Names are tried in three rounds, and the first round that matches
 *    anything decides: (1) plural or singular, (2) short names, (3) kind.
 *    So a short name or kind of one type can never hide another type's
 *    real name (a CRD with short name "pods" does not capture "pods").
 *  - Within a group, without an explicit version, the group's preferred
 *    version is used; when the name is only served in other versions,
 *    the first of those in discovery order (the server's preference).
 *  - Matches in several groups: the core group ("") wins when it is among
 *    them, as in kubectl ("events" is core v1 events, not events.k8s.io);
 *    otherwise it is OWNERS_EAMBIGUOUS, naming the candidates:
 *    "the server has several types named 'widgets': widgets.a.example.com,
 *    widgets.b.example.com".
 *  - Nothing: OWNERS_ENOTFOUND "the server doesn't have a resource type
 *    'foo'" (kubectl's words); but when the typed name names a group (or
 *    group/version) whose discovery failed, OWNERS_ESERVER "cannot resolve
 *    'foo.metrics.k8s.io': discovery of metrics.k8s.io/v1beta1 failed: REASON"
 *    (the reason recorded with the failure), because the type may well
 *    exist.
 *  - An empty name is OWNERS_EINVAL.
 *
 * Ownership: *out is borrowed from the table.
 */
#ifndef OWNERS_TYPE_RESOLVE_H
#define OWNERS_TYPE_RESOLVE_H

#include "owners_error.h"
#include "resource.h"

int owners_type_resolve(const struct owners_resource **out, const struct owners_resource_table *t,
			const char *typed, struct owners_error *err);

/*
 * A category, as kubectl expands one ("all": pods, services, deployments,
 * ...; whatever discovery says): every resource whose discovery lists the
 * category typed (case-insensitively), one per group and resource (the
 * group's preferred version, else the first served), in discovery order.
 * A TYPE that names a resource is that resource, never a category of the
 * same name: callers try owners_type_resolve() first.
 *
 * *out (*n entries, NULL and 0 when no type has the category) is the
 * caller's to free(); the resources in it are borrowed from t. Returns 0
 * or OWNERS_ENOMEM.
 */
int owners_type_category(const struct owners_resource ***out, size_t *n, const struct owners_resource_table *t,
			 const char *typed);

/* What a TYPE typed means, one type or several: the resource it names
 * (owners_type_resolve()), else the types of the category it names, else
 * owners_type_resolve()'s error. *out (*n entries) is the caller's to
 * free(), the resources borrowed from t; *category says the word was a
 * category. 0, or an error code with err set. */
int owners_type_expand(const struct owners_resource ***out, size_t *n, int *category,
		       const struct owners_resource_table *t, const char *typed, struct owners_error *err);

#endif
