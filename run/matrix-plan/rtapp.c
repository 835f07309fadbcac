/* matrix-plan: rt-app's JSON files, read with json-c. */
#include "matrix-plan.h"

#include <json-c/json.h> /* rt-app's own JSON parser, for its files */

/*
 * rt-app's JSON, as far as the plan needs it: rt-app runs until
 * global.duration (whole seconds; absent or not above 0: until its tasks
 * end, maybe never), after measuring its ns per loop unless
 * global.calibration is a number.  Parsed with json-c as rt-app parses it
 * (its json_object_from_file() runs one json_tokener over the whole file:
 * comments and a trailing comma pass, a duplicate key's last value wins,
 * what follows the first value is ignored), so a file is refused here
 * when rt-app would refuse its syntax; rt-app says what else is wrong.
 */
#define RTAPP_JSON_MAX (1 << 20)

/* "line L, column C" of byte offset off in buf */
static void text_position(const char *buf, size_t off, char *out, size_t size)
{
	int line = 1, col = 1;

	for (size_t i = 0; i < off; i++, col++)
		if (buf[i] == '\n')
			line++, col = 0;
	snprintf(out, size, "line %d, column %d", line, col);
}

/* The file's JSON, or NULL having said why at the matrix line. */
static json_object *rtapp_parse(int line, const char *file)
{
	FILE *f = fopen(file, "r");
	char *buf = malloc(RTAPP_JSON_MAX + 1), where[64];
	size_t len = f && buf ? fread(buf, 1, RTAPP_JSON_MAX + 1, f) : 0;
	json_tokener *tok = NULL;
	json_object *root = NULL;
	enum json_tokener_error err;

	if (!f || !buf || ferror(f) || len > RTAPP_JSON_MAX) {
		error_at(line, "rt-app file %s: %s", file,
			 !f || !buf || ferror(f) ? strerror(errno) : "larger than 1 MiB");
		goto out;
	}
	if (!(tok = json_tokener_new())) {
		error_at(line, "rt-app file %s: %s", file, strerror(ENOMEM));
		goto out;
	}
	root = json_tokener_parse_ex(tok, buf, (int)len);
	err = json_tokener_get_error(tok);
	if (err != json_tokener_success) {
		/* continue: the file ended inside a value */
		text_position(buf, json_tokener_get_parse_end(tok), where, sizeof(where));
		error_at(line, "rt-app file %s: %s: not JSON rt-app can read (json-c: %s)", file, where,
			 err == json_tokener_continue ? "unexpected end of data" : json_tokener_error_desc(err));
		json_object_put(root);
		root = NULL;
	}
out:
	if (tok)
		json_tokener_free(tok);
	free(buf);
	if (f)
		fclose(f);
	return root;
}

/* w->file's global.duration, whether rt-app calibrates first, and that
 * its log's place (global.logdir, log_basename) is a string when given. */
static int rtapp_global(int line, struct workload *w)
{
	json_object *root = rtapp_parse(line, w->file), *global = NULL, *v;
	int bad = 0;

	if (!root)
		return -1;
	w->rtapp_duration_s = -1;
	w->rtapp_calibrates = 1;
	if (!json_object_object_get_ex(root, "global", &global) || !json_object_is_type(global, json_type_object))
		global = NULL;
	if (global && json_object_object_get_ex(global, "duration", &v)) {
		/* rt-app reads an int (json_object_get_int): json-c clamps
		 * what does not fit, so that is refused here */
		w->rtapp_duration_s = json_object_get_int64(v);
		if (!json_object_is_type(v, json_type_int) || w->rtapp_duration_s > INT_MAX ||
		    w->rtapp_duration_s < INT_MIN) {
			error_at(line, "rt-app file %s: global.duration is not whole seconds "
				 "(an int, as rt-app reads it)", w->file);
			bad = -1;
		}
	}
	if (global && json_object_object_get_ex(global, "calibration", &v))
		w->rtapp_calibrates = json_object_is_type(v, json_type_string);
	/* The guest reads its rate from rt-app's logs, found by these. */
	for (const char *const *key = (const char *const[]){ "logdir", "log_basename", NULL }; *key; key++)
		if (global && json_object_object_get_ex(global, *key, &v) &&
		    !json_object_is_type(v, json_type_string)) {
			error_at(line, "rt-app file %s: global.%s is not a string (the runner reads "
				 "rt-app's logs there for the run's rate)", w->file, *key);
			bad = -1;
		}
	json_object_put(root);
	return bad;
}

int check_rtapp(int line, int argc, char **argv, struct workload *w)
{
	char path[PATH_MAX];

	if (argc != 3) {
		error_at(line, "usage: workload rt-app FILE.json");
		return -1;
	}
	if (strlen(argv[2]) < 6 || strcmp(argv[2] + strlen(argv[2]) - 5, ".json") ||
	    !is_name(argv[2], "_.-/")) {
		error_at(line, "rt-app '%s': want a FILE.json path (letters, digits, _ . - /)",
			 argv[2]);
		return -1;
	}
	if ((size_t)snprintf(path, sizeof(path), "%s%s%s", argv[2][0] == '/' ? "" : m.dir,
			     argv[2][0] == '/' ? "" : "/", argv[2]) >= sizeof(path)) {
		error_at(line, "rt-app file path too long");
		return -1;
	}
	/* The real path: two spellings of one file are one workload. */
	if (!realpath(path, w->file)) {
		error_at(line, "rt-app file %s: %s", path, strerror(errno));
		return -1;
	}
	if (access(w->file, R_OK)) {
		error_at(line, "rt-app file %s: %s", w->file, strerror(errno));
		return -1;
	}
	return rtapp_global(line, w);
}
