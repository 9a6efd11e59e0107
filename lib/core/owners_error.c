#include "owners_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int owners_error_set(struct owners_error *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (!err || err->code)
		return code;
	err->code = code;
	owners_buf_reset(&err->msg);
	va_start(ap, fmt);
	/* If even the message cannot be stored, the code alone still tells. */
	if (owners_buf_vaddf(&err->msg, fmt, ap))
		owners_buf_clear(&err->msg);
	va_end(ap);
	return code;
}

int owners_error_oom(struct owners_error *err)
{
	return owners_error_set(err, OWNERS_ENOMEM, "out of memory");
}

void owners_error_prefix(struct owners_error *err, const char *fmt, ...)
{
	struct owners_buf b = OWNERS_BUF_INIT;
	va_list ap;
	int rc;

	if (!err || !err->code)
		return;
	va_start(ap, fmt);
	rc = owners_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	if (!rc && !owners_buf_adds(&b, ": ") && !owners_buf_add(&b, err->msg.ptr, err->msg.len)) {
		owners_buf_clear(&err->msg);
		err->msg = b;
		return;
	}
	owners_buf_clear(&b);
}

void owners_error_clear(struct owners_error *err)
{
	if (!err)
		return;
	err->code = 0;
	owners_buf_clear(&err->msg);
}

const char *owners_errcode_name(int code)
{
	switch (code) {
	case OWNERS_OK: return "ok";
	case OWNERS_ENOMEM: return "out of memory";
	case OWNERS_EINVAL: return "invalid argument";
	case OWNERS_ECONFIG: return "invalid configuration";
	case OWNERS_ENET: return "cannot reach the server";
	case OWNERS_ETLS: return "TLS failure";
	case OWNERS_EAUTH: return "unauthorized";
	case OWNERS_EFORBIDDEN: return "forbidden";
	case OWNERS_ENOTFOUND: return "not found";
	case OWNERS_ECONFLICT: return "conflict";
	case OWNERS_EPROTO: return "malformed response";
	case OWNERS_EAMBIGUOUS: return "ambiguous";
	case OWNERS_ETIMEOUT: return "timed out";
	case OWNERS_EGONE: return "expired";
	case OWNERS_ESERVER: return "server error";
	case OWNERS_EEXEC: return "credential plugin failed";
	case OWNERS_EIO: return "i/o error";
	case OWNERS_ESTOP: return "stopped";
	}
	return "unknown error";
}

const char *owners_error_message(const struct owners_error *err)
{
	if (err->msg.len)
		return err->msg.ptr;
	return owners_errcode_name(err->code);
}

static owners_oom_fatal_fn oom_fatal;

void owners_set_oom_fatal(owners_oom_fatal_fn fn)
{
	oom_fatal = fn;
}

void owners_oom_fatal(void)
{
	if (oom_fatal)
		oom_fatal();
	abort(); /* a handler that returned, or none */
}
