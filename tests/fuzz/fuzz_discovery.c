/* libFuzzer target: discovery documents (aggregated and legacy) into the
 * resource table, then lookups on what was built; the document parses to
 * the same tree whole and a byte at a time. */
#include <stddef.h>
#include <stdint.h>

#include "discovery_parse.h"
#include "json.h"
#include "same_tree.h"
#include "type_resolve.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct owners_json_value *doc = NULL;
	struct owners_resource_table t;
	struct owners_discovery_parse_group_list groups;
	const struct owners_resource *r = NULL;
	size_t i;

	same_tree_whole_and_bytewise((const char *)data, size);
	if (owners_json_parse(&doc, (const char *)data, size, NULL))
		return 0;
	owners_resource_table_init(&t);
	owners_discovery_parse_group_list_init(&groups);
	switch (owners_discovery_parse_detect(doc)) {
	case OWNERS_DISCOVERY_AGGREGATED:
		owners_discovery_parse_aggregated(&t, doc, NULL);
		break;
	case OWNERS_DISCOVERY_API_VERSIONS:
	case OWNERS_DISCOVERY_API_GROUP_LIST:
		owners_discovery_parse_groups(&groups, doc, NULL);
		break;
	default:
		owners_discovery_parse_resource_list(&t, doc, 1, NULL);
		break;
	}
	for (i = 0; i < t.count; i++) {
		(void)owners_resource_by_gvk(&t, t.items[i].api_version, t.items[i].kind);
		(void)owners_type_resolve(&r, &t, t.items[i].resource, NULL);
	}
	owners_discovery_parse_group_list_clear(&groups);
	owners_resource_table_clear(&t);
	owners_json_value_free(doc);
	return 0;
}
