/*
 * owners dangling: placeholder until the command lands (issue 4).
 */
#include "commands.h"
#include "output.h"

#define OFF(field) offsetof(struct owners_cli, field)

const struct opt dangling_opts[] = {
	{ NULL, 0, 0, 0, NULL, NULL, NULL, 0, 0 },
};

int cmd_dangling(struct owners_cli *cli, struct string_list *args)
{
	(void)cli;
	(void)args;
	error_msg("'owners dangling' is not implemented yet");
	return EXIT_ERROR;
}
