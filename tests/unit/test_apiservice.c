/* An APIService's Available condition: the server's reason a group fails. */
#include <string.h>

#include "apiservice.h"
#include "tap.h"

int main(void)
{
	static const char down[] =
		"{\"metadata\":{\"name\":\"v1beta1.metrics.k8s.io\"},\"status\":{\"conditions\":[{\"type\":"
		"\"Available\",\"status\":\"False\",\"reason\":\"ServiceNotFound\",\"message\":"
		"\"service/metrics-server in \\\"kube-system\\\" is not present\"}]}}";
	static const char up[] = "{\"metadata\":{\"name\":\"v1.apps\"},\"status\":{\"conditions\":[{\"type\":"
				 "\"Available\",\"status\":\"True\",\"reason\":\"Local\"}]}}";
	struct owners_buf b = OWNERS_BUF_INIT;

	is_int(owners_apiservice_unavailable(&b, down, strlen(down)), 1, "an unavailable APIService says so");
	is_str(b.ptr, "APIService v1beta1.metrics.k8s.io is not available: ServiceNotFound: "
		      "service/metrics-server in \"kube-system\" is not present", "in the server's words");
	owners_buf_reset(&b);
	is_int(owners_apiservice_unavailable(&b, up, strlen(up)), 0, "an available one says nothing");
	is_int(b.len, 0, "  and writes nothing");
	is_int(owners_apiservice_unavailable(&b, "{\"status\":{}}", 13), 0, "no conditions: nothing");
	ok(owners_apiservice_unavailable(&b, "nope", 4) < 0, "garbage is an error");
	owners_buf_clear(&b);
	return tap_done();
}
