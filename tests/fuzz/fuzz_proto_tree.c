/* libFuzzer target: a whole object in protobuf read by the schemas READY
 * and STATUS are read with (lib/codec/proto_tree.c with
 * lib/api/object_status_proto.c), then its status read as tree reads it:
 * what a status list in protobuf hands over, from any server. */
#include <stddef.h>
#include <stdint.h>

#include "object_status.h"
#include "object_status_proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const kinds[][2] = {
	{ "", "Pod" }, { "apps", "Deployment" }, { "apps", "ReplicaSet" }, { "apps", "StatefulSet" },
	{ "apps", "DaemonSet" }, { "batch", "Job" }, { "batch", "CronJob" }, { "", "Service" },
	{ "", "Namespace" }, { "", "PersistentVolumeClaim" }, { "", "Node" },
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct owners_json_value *v = NULL;
	struct owners_object_status st = { 0 };
	size_t k;

	if (!size)
		return 0;
	/* The first byte picks the kind; the rest is the object. */
	k = data[0] % (sizeof(kinds) / sizeof(kinds[0]));
	if (owners_proto_tree(&v, owners_object_status_proto_schema(kinds[k][0], kinds[k][1]),
			      (const char *)data + 1, size - 1))
		return 0;
	owners_object_status_read(&st, kinds[k][1], v);
	owners_object_status_clear(&st);
	owners_json_value_free(v);
	return 0;
}
