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

int system_error_exit = 1;

void die_system(const char *fmt, ...)
{
	va_list ap;

	fputs("pjt-stats: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, ": %s\n", strerror(errno));
	exit(system_error_exit);
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
	if (!isfinite(v))
		buf[0] = '\0'; /* not measured, or unbounded: the note says which */
	else if (v == 0)
		snprintf(buf, size, "0"); /* no "-0" */
	else
		snprintf(buf, size, "%.10g", v);
}

uint64_t hash_bytes(const char *s, size_t len)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325);

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * UINT64_C(0x100000001b3);
	return h;
}

/* Open-addressing string map (FNV-1a); keys are not copied. */
static uint64_t fnv1a(const char *s)
{
	return hash_bytes(s, strlen(s));
}

static void map_grow(struct strmap *m)
{
	struct strmap old = *m;

	m->cap = old.cap ? old.cap * 2 : 64;
	m->keys = xcalloc(m->cap, sizeof(char *));
	m->values = xmalloc(m->cap * sizeof(int));
	m->count = 0;
	for (size_t i = 0; i < old.cap; i++)
		if (old.keys[i])
			map_put(m, old.keys[i], old.values[i]);
	free(old.keys);
	free(old.values);
}

int map_get(const struct strmap *m, const char *key)
{
	if (!m->cap)
		return -1;
	for (size_t i = fnv1a(key) & (m->cap - 1); m->keys[i]; i = (i + 1) & (m->cap - 1))
		if (!strcmp(m->keys[i], key))
			return m->values[i];
	return -1;
}

void map_put(struct strmap *m, const char *key, int value)
{
	size_t i;

	if (2 * (m->count + 1) > m->cap)
		map_grow(m);
	for (i = fnv1a(key) & (m->cap - 1); m->keys[i]; i = (i + 1) & (m->cap - 1))
		if (!strcmp(m->keys[i], key)) {
			m->values[i] = value;
			return;
		}
	m->keys[i] = key;
	m->values[i] = value;
	m->count++;
}

void map_free(struct strmap *m)
{
	free(m->keys);
	free(m->values);
	memset(m, 0, sizeof(*m));
}

/* An interval's level as a percentage: 87.5%, 93.75%, 97.85%. */
char *format_level(double level)
{
	char buf[32];

	if (isnan(level))
		return xstrdup("");
	snprintf(buf, sizeof(buf), "%.4g%%", level * 100);
	return xstrdup(buf);
}
