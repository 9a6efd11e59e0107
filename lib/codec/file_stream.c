#include "file_stream.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "buf.h"

struct owners_file_reader {
	gzFile gz;
	char *path;
};

int owners_file_reader_open(struct owners_file_reader **out, const char *path, struct owners_error *err)
{
	struct owners_file_reader *r;
	int fd;

	*out = NULL;
	fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : dup(0);
	if (fd < 0)
		return owners_error_set(err, OWNERS_EIO, "%s: %s", path, strerror(errno));
	if (!(r = calloc(1, sizeof(*r))) || !(r->path = strdup(path))) {
		free(r);
		close(fd);
		return owners_error_oom(err);
	}
	/* gzdopen reads a file that is not gzip as it is. */
	if (!(r->gz = gzdopen(fd, "rb"))) {
		close(fd);
		free(r->path);
		free(r);
		return owners_error_oom(err);
	}
	gzbuffer(r->gz, 128 * 1024);
	*out = r;
	return 0;
}

int owners_file_reader_read(struct owners_file_reader *r, char *buf, size_t cap, size_t *got,
			    struct owners_error *err)
{
	int n, zerr;
	const char *why;

	*got = 0;
	if (cap > (1u << 30))
		cap = 1u << 30;
	n = gzread(r->gz, buf, (unsigned)cap);
	why = gzerror(r->gz, &zerr);
	if (n > 0 || (n == 0 && zerr == Z_OK)) {
		*got = (size_t)n;
		return 0;
	}
	if (n == 0 && zerr == Z_BUF_ERROR)
		return owners_error_set(err, OWNERS_EIO, "%s: cut short: the gzip stream ends early", r->path);
	if (zerr == Z_ERRNO)
		return owners_error_set(err, OWNERS_EIO, "%s: %s", r->path, strerror(errno));
	/* zlib names the stream by its descriptor ("<fd:3>: incorrect data
	 * check"): the file is named once, as ours, and the damage as such */
	if (why && why[0] == '<' && strstr(why, ">: "))
		why = strstr(why, ">: ") + 3;
	if (zerr == Z_DATA_ERROR)
		return owners_error_set(err, OWNERS_EIO, "%s: damaged gzip data (%s)", r->path, why ? why : "bad data");
	return owners_error_set(err, OWNERS_EIO, "%s: %s", r->path, why ? why : "cannot read");
}

void owners_file_reader_free(struct owners_file_reader *r)
{
	if (!r)
		return;
	gzclose(r->gz);
	free(r->path);
	free(r);
}

struct owners_file_writer {
	int fd;
	gzFile gz;        /* compressing, else NULL */
	char *path;       /* NULL: stdout */
	char *tmp;
	int failed;
	uint64_t bytes;
	struct owners_buf out;
};

int owners_file_writer_open(struct owners_file_writer **out, const char *path, struct owners_error *err)
{
	struct owners_file_writer *w = calloc(1, sizeof(*w));
	struct owners_buf tmp = OWNERS_BUF_INIT;

	*out = NULL;
	if (!w)
		return owners_error_oom(err);
	w->fd = 1;
	if (strcmp(path, "-")) {
		if (!(w->path = strdup(path)) || owners_buf_addf(&tmp, "%s.%ld.tmp", path, (long)getpid())) {
			free(w->path);
			free(w);
			return owners_error_oom(err);
		}
		w->tmp = owners_buf_detach(&tmp);
		w->fd = open(w->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (w->fd < 0) {
			int e = errno;

			free(w->tmp);
			free(w->path);
			free(w);
			return owners_error_set(err, OWNERS_EIO, "%s: %s", path, strerror(e));
		}
	}
	if (w->path && owners_str_ends_with(w->path, ".gz")) {
		int fd = dup(w->fd);

		if (fd < 0 || !(w->gz = gzdopen(fd, "wb6"))) {
			if (fd >= 0)
				close(fd);
			owners_file_writer_abandon(w);
			return owners_error_oom(err);
		}
	}
	*out = w;
	return 0;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t k = write(fd, p, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

static int flush(struct owners_file_writer *w, struct owners_error *err)
{
	int bad;

	if (!w->out.len)
		return 0;
	bad = w->gz ? gzwrite(w->gz, w->out.ptr, (unsigned)w->out.len) != (int)w->out.len
		    : write_all(w->fd, w->out.ptr, w->out.len);
	w->out.len = 0;
	if (bad) {
		w->failed = 1;
		return owners_error_set(err, OWNERS_EIO, "%s: write error: %s", w->path ? w->path : "stdout",
					strerror(errno ? errno : EIO));
	}
	return 0;
}

int owners_file_writer_write(struct owners_file_writer *w, const char *data, size_t len,
			     struct owners_error *err)
{
	if (w->failed)
		return owners_error_set(err, OWNERS_EIO, "%s: write error", w->path ? w->path : "stdout");
	w->bytes += len;
	if (owners_buf_add(&w->out, data, len))
		return owners_error_oom(err);
	return w->out.len >= 256 * 1024 ? flush(w, err) : 0;
}

uint64_t owners_file_writer_bytes(const struct owners_file_writer *w)
{
	return w->bytes;
}

int owners_file_writer_close(struct owners_file_writer *w, struct owners_error *err)
{
	int rc = w->failed ? owners_error_set(err, OWNERS_EIO, "%s: write error", w->path ? w->path : "stdout")
			   : flush(w, err);

	if (w->gz) {
		if (gzclose(w->gz) != Z_OK && !rc)
			rc = owners_error_set(err, OWNERS_EIO, "%s: write error", w->path);
		w->gz = NULL;
	}
	if (!rc && w->path && (fsync(w->fd) || close(w->fd))) {
		w->fd = -1;
		rc = owners_error_set(err, OWNERS_EIO, "%s: %s", w->path, strerror(errno));
	} else if (w->path) {
		w->fd = -1;
	}
	if (!rc && w->path && rename(w->tmp, w->path))
		rc = owners_error_set(err, OWNERS_EIO, "%s: %s", w->path, strerror(errno));
	if (rc) {
		owners_file_writer_abandon(w);
		return rc;
	}
	owners_buf_clear(&w->out);
	free(w->tmp);
	free(w->path);
	free(w);
	return 0;
}

void owners_file_writer_abandon(struct owners_file_writer *w)
{
	if (!w)
		return;
	if (w->gz)
		gzclose(w->gz);
	if (w->path) {
		if (w->fd >= 0)
			close(w->fd);
		unlink(w->tmp);
	}
	owners_buf_clear(&w->out);
	free(w->tmp);
	free(w->path);
	free(w);
}

uint32_t owners_crc32(const void *data, size_t len)
{
	uLong crc = crc32(0L, Z_NULL, 0);
	const Bytef *p = data;

	/* uInt is 32 bits: a larger buffer is taken in steps */
	while (len) {
		uInt n = len > 0x40000000u ? 0x40000000u : (uInt)len;

		crc = crc32(crc, p, n);
		p += n;
		len -= n;
	}
	return (uint32_t)crc;
}
