#include <curl/curl.h>
#include <protobuf-c/protobuf-c.h>

#include "json.h"
#include <stdio.h>
#include <yaml.h>

#include "commands.h"
#include "output.h"

int cmd_version(struct owners_cli *cli, struct string_list *args)
{
	const curl_version_info_data *curl = curl_version_info(CURLVERSION_NOW);

	if (args->count) {
		error_msg("'owners version' takes no arguments");
		return EXIT_USAGE;
	}
	printf("owners %s (commit %s)\n", OWNERS_VERSION, OWNERS_GIT_COMMIT);
	printf("libcurl %s (%s)\n", curl->version, curl->ssl_version ? curl->ssl_version : "no TLS");
	printf("yajl %s\n", owners_json_library_version());
	printf("libyaml %s\n", yaml_get_version_string());
	printf("protobuf-c %s\n", protobuf_c_version());
	return EXIT_OK;
}

/* The command: its usage, help, man page text and permissions. */
const struct command version_command = {
	"version", cmd_version, no_opts, "owners version",
	"print the version, the git commit and the library versions", "", "  owners version", 0,
	NULL, 0 };
