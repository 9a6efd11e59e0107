/*
 * kubectl's -o jsonpath=TEMPLATE and -o custom-columns=SPEC over a JSON
 * document (owners_json_value), the subset kubectl users write:
 *
 *   text outside braces, printed as it is
 *   {.a.b}  {.items[*].name}  {.items[0]}  {.items[-1]}  {.items[1:3]}
 *   {['a b']}  {..name} (every name, at any depth)  {.a.*} (every value)
 *   {.items[?(@.kind=="Pod")].name}  (==, !=, <, <=, >, >= against a
 *     quoted string or a number; [?(@.x)] keeps items that have x)
 *   {range .items[*]}...{end}  with @ the current item inside
 *   {"\n"} {"\t"}  literal text
 *   {$.kind} {@.name}  from the root, from the current item
 *
 * As kubectl get does: a name that none of the values it is looked up in
 * has prints nothing, or with missing keys not allowed
 * (--allow-missing-template-keys=false) is an error ("error executing
 * jsonpath ...: nope is not found"), a name looked up in no values (an
 * empty list) is nothing; several results in one action
 * are joined by spaces, strings print raw, objects and arrays as compact
 * JSON. custom-columns allows missing keys: "<none>".
 *
 * Ownership: the caller owns the output buffer and the document; errors
 * go to err with a message naming the template.
 */
#ifndef OWNERS_JSONPATH_H
#define OWNERS_JSONPATH_H

#include "buf.h"
#include "owners_error.h"
#include "json.h"

/* Appends the template's output for doc. OWNERS_EINVAL for a template that
 * does not parse or is empty, OWNERS_ENOTFOUND for a name not found unless
 * allow_missing (kubectl's --allow-missing-template-keys, its default:
 * a name not found prints nothing) (the output is then partial),
 * OWNERS_ENOMEM. */
int owners_jsonpath_print(struct owners_buf *out, const char *template_, const struct owners_json_value *doc,
			  int allow_missing, struct owners_error *err);

/* kubectl's custom-columns: SPEC is "HEADER:.path,HEADER:.path"; one row
 * per item (items[] of doc, and with nested set, each item's own arrays at
 * that dotted path of keys, depth first: a tree's "owners.dependents"),
 * "<none>" where a path finds nothing; a header line unless no_headers.
 * OWNERS_EINVAL for a bad or empty SPEC. */
int owners_custom_columns_print(struct owners_buf *out, const char *spec, const struct owners_json_value *doc,
				const char *nested, int no_headers, struct owners_error *err);

#endif
