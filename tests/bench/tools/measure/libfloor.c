/*
 * libfloor: the memory any client built on owners' libraries pays before
 * it holds a single object. It links exactly what owners links (libcurl
 * with its TLS stack, libyaml, protobuf-c), initialises libcurl as owners does,
 * makes one authenticated HTTPS request over HTTP/2 to the API server
 * (GET /version: a TLS session, the CA parsed, nghttp2 set up), throws the
 * answer away and exits. Its peak RSS, measured by the benchmark beside
 * `owners graph -A`, is the part of owners' fixed cost that no change to
 * owners itself can remove.
 *
 *	SERVER=https://127.0.0.1:PORT CA_FILE=ca.crt ADMIN_TOKEN=... libfloor
 */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <protobuf-c/protobuf-c.h>
#include <yaml.h>

static size_t discard(char *data, size_t size, size_t n, void *user)
{
	(void)data;
	*(size_t *)user += size * n;
	return size * n;
}

int main(void)
{
	const char *server = getenv("SERVER"), *ca = getenv("CA_FILE"), *token = getenv("ADMIN_TOKEN");
	char url[1024], auth[4096];
	struct curl_slist *headers = NULL;
	size_t got = 0;
	long status = 0;
	CURLcode rc;
	CURL *h;

	if (!server || !ca || !token) {
		fprintf(stderr, "libfloor: set SERVER, CA_FILE and ADMIN_TOKEN\n");
		return 2;
	}
	/* Touch libyaml and protobuf-c so that they are loaded and used, as in owners. */
	if (!protobuf_c_version() || !yaml_get_version_string())
		return 1;
	if (curl_global_init(CURL_GLOBAL_DEFAULT) || !(h = curl_easy_init()))
		return 1;
	snprintf(url, sizeof(url), "%s/version", server);
	snprintf(auth, sizeof(auth), "Authorization: Bearer %s", token);
	headers = curl_slist_append(headers, auth);
	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_CAINFO, ca);
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers);
	curl_easy_setopt(h, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_2TLS);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, discard);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, &got);
	rc = curl_easy_perform(h);
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
	curl_slist_free_all(headers);
	curl_easy_cleanup(h);
	curl_global_cleanup();
	if (rc != CURLE_OK || status != 200 || !got) {
		fprintf(stderr, "libfloor: GET %s: %s, HTTP %ld\n", url, curl_easy_strerror(rc), status);
		return 1;
	}
	return 0;
}
