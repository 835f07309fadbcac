/* A small streaming JSON writer (RFC 8259) for summary.json and
 * run/compare --json: objects and arrays nest, commas and indentation are
 * placed by the writer, strings are escaped, a number that is not finite
 * (not measured, unbounded) is written as null. */
#include "pjt-stats.h"

#include <math.h>
#include <string.h>

void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c == '\r')
			fputs("\\r", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* Before a value: the comma, the indentation and the key (when inside an
 * object). */
static void json_next(struct json *j, const char *key)
{
	if (j->depth > 0) {
		if (!j->first[j->depth])
			fputc(',', j->f);
		j->first[j->depth] = 0;
		fprintf(j->f, "\n%*s", 2 * j->depth, "");
	}
	if (key) {
		json_string(j->f, key);
		fputs(": ", j->f);
	}
}

static void json_open(struct json *j, const char *key, char bracket)
{
	json_next(j, key);
	fputc(bracket, j->f);
	if (j->depth + 1 >= JSON_MAX_DEPTH)
		die_input("pjt-stats: JSON nested deeper than %d", JSON_MAX_DEPTH);
	j->first[++j->depth] = 1;
}

static void json_close(struct json *j, char bracket)
{
	int empty = j->first[j->depth];

	j->depth--;
	if (!empty)
		fprintf(j->f, "\n%*s", 2 * j->depth, "");
	fputc(bracket, j->f);
	if (!j->depth)
		fputc('\n', j->f);
}

void json_object(struct json *j, const char *key)
{
	json_open(j, key, '{');
}

void json_end_object(struct json *j)
{
	json_close(j, '}');
}

void json_array(struct json *j, const char *key)
{
	json_open(j, key, '[');
}

void json_end_array(struct json *j)
{
	json_close(j, ']');
}

void json_str(struct json *j, const char *key, const char *value)
{
	json_next(j, key);
	if (value)
		json_string(j->f, value);
	else
		fputs("null", j->f);
}

void json_num(struct json *j, const char *key, double value)
{
	char buf[64];

	json_next(j, key);
	format_number(buf, sizeof(buf), value); /* "" when not finite */
	fputs(*buf ? buf : "null", j->f);
}

void json_int(struct json *j, const char *key, long value)
{
	json_next(j, key);
	fprintf(j->f, "%ld", value);
}

void json_bool(struct json *j, const char *key, int value)
{
	json_next(j, key);
	fputs(value ? "true" : "false", j->f);
}
