#include "invocation.h"

#include <stdlib.h>

#include "command_line.h"
#include "output.h"

int owners_cli_invoked(struct owners_cli *cli, int argc, char **argv, char ***copy)
{
	int i;

	*copy = NULL;
	cli->program = output_program_of(argc > 0 ? argv[0] : NULL);
	cli->typed = NULL;
	cli->n_typed = 0;
	if (argc <= 1)
		return 0;
	if (!(*copy = calloc((size_t)argc, sizeof(**copy))))
		return OWNERS_ENOMEM;
	for (i = 1; i < argc; i++)
		(*copy)[i - 1] = argv[i];
	cli->typed = *copy;
	cli->n_typed = argc - 1;
	return 0;
}

int owners_cli_command_line(struct owners_buf *out, const struct owners_cli *cli)
{
	int i, rc = owners_buf_adds(out, cli->program);

	for (i = 0; !rc && i < cli->n_typed; i++)
		if (!(rc = owners_buf_addc(out, ' ')))
			rc = owners_command_line_quote_word(out, cli->typed[i]);
	return rc;
}

int owners_cli_resume_command(struct owners_buf *out, const struct owners_cli *cli,
			      const char *const *uids, size_t n, int resumed)
{
	size_t i;
	int rc = owners_cli_command_line(out, cli);

	/* a resumed run's command carries its roots already */
	for (i = 0; !rc && !resumed && i < n; i++)
		rc = owners_buf_adds(out, i ? "," : " --resume=") || owners_buf_adds(out, uids[i]);
	return rc;
}
