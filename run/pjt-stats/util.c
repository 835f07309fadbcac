/* Small helpers: errors, allocation, atomic output files. */
#include "pjt-stats.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void die_input(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_BAD_INPUT);
}

void die_system(const char *fmt, ...)
{
	va_list ap;

	fputs("pjt-stats: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, ": %s\n", strerror(errno));
	exit(1);
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		die_system("out of memory");
	return p;
}

void *xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);

	if (!p)
		die_system("out of memory");
	return p;
}

void *xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);

	if (!p)
		die_system("out of memory");
	return p;
}

char *xstrdup(const char *s)
{
	return strcpy(xmalloc(strlen(s) + 1), s);
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	int len;
	char *s;

	va_start(ap, fmt);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	s = xmalloc(len + 1);
	va_start(ap, fmt);
	vsnprintf(s, len + 1, fmt, ap);
	va_end(ap);
	return s;
}

char *read_whole_file(const char *path, size_t *length)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 4096, len = 0, got;
	char *buf;

	if (!f)
		return NULL;
	buf = xmalloc(cap);
	while ((got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += got;
		if (cap - len - 1 == 0)
			buf = xrealloc(buf, cap *= 2);
	}
	if (ferror(f))
		die_system("reading %s", path);
	fclose(f);
	buf[len] = '\0';
	if (length)
		*length = len;
	return buf;
}

FILE *open_output(const char *path)
{
	char *tmp = xasprintf("%s.tmp", path);
	FILE *f = fopen(tmp, "w");

	if (!f)
		die_system("cannot write %s", tmp);
	free(tmp);
	return f;
}

void close_output(FILE *f, const char *path)
{
	char *tmp = xasprintf("%s.tmp", path);

	if (fflush(f) || ferror(f) || fclose(f))
		die_system("writing %s", tmp);
	if (rename(tmp, path))
		die_system("renaming %s to %s", tmp, path);
	free(tmp);
}

void make_dir(const char *path)
{
	if (mkdir(path, 0777) && errno != EEXIST)
		die_system("cannot create %s", path);
}

void format_number(char *buf, size_t size, double v)
{
	if (isnan(v))
		buf[0] = '\0';
	else if (isinf(v))
		snprintf(buf, size, v > 0 ? "inf" : "-inf");
	else if (v == 0)
		snprintf(buf, size, "0"); /* no "-0" */
	else
		snprintf(buf, size, "%.10g", v);
}
