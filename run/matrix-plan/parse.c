/* matrix-plan: the file: its lines and words, the directive table, the
 * error list (FILE:LINE: message) and the value parsers directives share. */
#include "matrix-plan.h"

struct matrix m;
/* The project's feature bits, in the order the features column lists them. */
const char *const project_bits[] = { PJT_CONTRACT_BITS };

struct error errors[MAX_ERRORS];
int nr_errors;

void error_at(int line, const char *fmt, ...)
{
	va_list ap;

	if (nr_errors == MAX_ERRORS)
		return;
	errors[nr_errors].line = line;
	errors[nr_errors].order = nr_errors;
	va_start(ap, fmt);
	vsnprintf(errors[nr_errors].text, sizeof(errors[nr_errors].text), fmt, ap);
	va_end(ap);
	nr_errors++;
}

int error_cmp(const void *a, const void *b)
{
	const struct error *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->order - y->order;
}

/* Strict unsigned decimal: digits only, no sign, no spaces, no overflow. */
int parse_uint(const char *s, unsigned long long max, unsigned long long *out)
{
	unsigned long long v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (!isdigit((unsigned char)*s))
			return -1;
		if (v > max / 10 || (unsigned)(*s - '0') > max - v * 10)
			return -1;
		v = v * 10 + (unsigned)(*s - '0');
	}
	*out = v;
	return 0;
}

struct unit {
	const char *suffix;
	unsigned long long scale;
};

/* Digits followed by exactly one of the units; returns 0 and the scaled value. */
static int parse_with_unit(const char *s, const struct unit *units,
			   unsigned long long max, unsigned long long *out)
{
	char digits[64];
	size_t n = strspn(s, "0123456789");
	unsigned long long v;

	if (n == 0 || n >= sizeof(digits))
		return -1;
	memcpy(digits, s, n);
	digits[n] = 0;
	if (parse_uint(digits, ULLONG_MAX, &v))
		return -1;
	for (; units->suffix; units++) {
		if (strcmp(s + n, units->suffix))
			continue;
		if (v > max / units->scale)
			return -1;
		*out = v * units->scale;
		return 0;
	}
	return -1;
}

static const struct unit matrix_time_units[] = {
	{ "ms", 1 }, { "s", 1000 }, { "m", 60000 }, { NULL, 0 },
};

#define DAY_MS (24LL * 3600 * 1000)

/* A matrix time (duration, settle): N followed by ms, s or m; 0 may stand alone. */
int parse_matrix_time(int line, const char *what, const char *s, int allow_zero,
			     long long *out)
{
	unsigned long long v;

	if (allow_zero && !strcmp(s, "0")) {
		*out = 0;
		return 0;
	}
	if (parse_with_unit(s, matrix_time_units, DAY_MS, &v)) {
		error_at(line, "%s '%s' is not a time: want digits and a unit (ms, s or m), e.g. 10s",
			 what, s);
		return -1;
	}
	if (v == 0 && !allow_zero) {
		error_at(line, "%s must be more than 0", what);
		return -1;
	}
	*out = (long long)v;
	return 0;
}

int bit_index(const char *name)
{
	for (unsigned i = 0; i < NR_BITS; i++)
		if (!strcmp(name, project_bits[i]))
			return (int)i;
	return -1;
}

void unknown_bit(int line, const char *name)
{
	error_at(line, "unknown feature '%s' (known: %s)", name, PJT_CONTRACT_BITS_TEXT);
}

void features_text(unsigned bits, char *out, size_t size)
{
	out[0] = 0;
	for (unsigned i = 0; i < NR_BITS; i++) {
		if (!(bits & (1u << i)))
			continue;
		if (out[0])
			strncat(out, "+", size - strlen(out) - 1);
		strncat(out, project_bits[i], size - strlen(out) - 1);
	}
	if (!out[0])
		snprintf(out, size, "none");
}

/* Names that end up in folder names and CSV cells: no commas, quotes or spaces. */
int is_name(const char *s, const char *extra)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr(extra, *s))
			return 0;
	return 1;
}

int once(int line, const char *directive, int *seen_line)
{
	if (*seen_line) {
		error_at(line, "'%s' given twice (first at line %d)", directive, *seen_line);
		return -1;
	}
	*seen_line = line;
	return 0;
}

int want_args(int line, int argc, int min, int max, const char *usage)
{
	if (argc - 1 < min || argc - 1 > max) {
		error_at(line, "usage: %s", usage);
		return -1;
	}
	return 0;
}

/* The directives, each parsed by its do_NAME (directives.c, fraction.c,
 * workload.c). */
struct directive {
	const char *name;
	void (*parse)(int line, int argc, char **argv);
};

static const struct directive directives[] = {
	{ "name", do_name }, { "smp", do_smp }, { "duration", do_duration },
	{ "reps", do_reps }, { "boots", do_boots }, { "counting", do_counting }, { "trace", do_trace }, { "settle", do_settle }, { "seed", do_seed },
	{ "combo", do_combo }, { "factorial", do_factorial }, { "fraction", do_fraction }, { "tunable", do_tunable },
	{ "workload", do_workload }, { "compare", do_compare }, { "accel", do_accel },
	{ "pin-vcpus", do_pin }, { "replicate", do_replicate }, { "order", do_order },
	{ NULL, NULL },
};

static void parse_line(int line, char *text)
{
	char *argv[64];
	int argc = 0;
	char *hash = strchr(text, '#');
	const struct directive *d;

	if (hash)
		*hash = 0;
	for (char *save = NULL, *tok = strtok_r(text, " \t\r\n", &save); tok;
	     tok = strtok_r(NULL, " \t\r\n", &save)) {
		if (argc == 64) {
			error_at(line, "too many words");
			return;
		}
		argv[argc++] = tok;
	}
	if (argc == 0)
		return;
	m.nr_directive_lines++;
	/* Only smp's topology spells a comma; everywhere else it would split a CSV cell. */
	for (int i = 0; i < argc; i++) {
		for (const char *c = argv[i]; *c; c++) {
			if (*c == ',' && !strcmp(argv[0], "smp"))
				continue;
			if (*c == '=' && !strcmp(argv[0], "accel"))
				continue;
			if (!isprint((unsigned char)*c) || strchr(",'\"\\`$;|&<>(){}[]*?~!", *c)) {
				/* By value: a BOM or a UTF-8 byte printed as a character
				 * shows as '?' or garbles the terminal. */
				char what[32];

				if (isprint((unsigned char)*c))
					snprintf(what, sizeof(what), "character '%c'", *c);
				else
					snprintf(what, sizeof(what), "byte 0x%02x", (unsigned char)*c);
				error_at(line, "%s at column %d is not allowed in a matrix file word "
					 "(values end up in CSV cells and guest shell lines%s)", what,
					 (int)(c - text) + 1,
					 isprint((unsigned char)*c) ? "" : "; matrix files are ASCII");
				return;
			}
		}
	}
	for (d = directives; d->name && strcmp(d->name, argv[0]); d++)
		;
	if (!d->name) {
		error_at(line, "unknown directive '%s' (known: name smp duration reps boots counting trace settle seed "
			 "order combo factorial fraction replicate tunable workload compare accel pin-vcpus)", argv[0]);
		return;
	}
	d->parse(line, argc, argv);
}

int parse_file(const char *path)
{
	FILE *f = NULL;
	char *buf = NULL;
	size_t cap = 0;
	int line = 0;
	const char *slash, *base;
	size_t len;

	struct stat st = { 0 };
	ssize_t got;

	/* stat() before fopen(): opening a FIFO with no writer blocks for ever;
	 * fstat() after it, for a file replaced in between. */
	if (stat(path, &st) || (S_ISREG(st.st_mode) && !(f = fopen(path, "r")))) {
		fprintf(stderr, "%s: cannot read the matrix file: %s\n", path, strerror(errno));
		return -1;
	}
	if (!f || fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
		fprintf(stderr, "%s: not a matrix file (%s)\n", path,
			S_ISDIR(st.st_mode) ? "a directory" : "not a regular file");
		if (f)
			fclose(f);
		return -1;
	}
	m.path = path;
	slash = strrchr(path, '/');
	/* rt-app files are named relative to the matrix file; the plan holds absolute paths. */
	if (realpath(path, m.dir) && strrchr(m.dir, '/'))
		*strrchr(m.dir, '/') = 0;
	while ((got = getline(&buf, &cap, f)) != -1) {
		/* A NUL would end the line for every C string function: the rest
		 * of it would be silently dropped. */
		if (memchr(buf, 0, (size_t)got)) {
			error_at(++line, "NUL byte in the line (a binary or corrupt file?)");
			continue;
		}
		parse_line(++line, buf);
	}
	if (ferror(f)) {
		fprintf(stderr, "%s:%d: read error: %s\n", path, line + 1, strerror(errno));
		free(buf);
		fclose(f);
		return -1;
	}
	free(buf);
	fclose(f);
	m.last_line = line;
	if (m.nr_directive_lines == 0) { /* one error, not each directive's "missing" at line 0 */
		fprintf(stderr, "%s: no directive in the file (%s): a matrix wants at least a "
			"combo and a workload line (docs/matrix.md)\n", path,
			line ? "only comments and blank lines" : "empty");
		return -1;
	}

	if (!m.name_line) {
		base = slash ? slash + 1 : path;
		len = strlen(base);
		if (len > 7 && !strcmp(base + len - 7, ".matrix"))
			len -= 7;
		snprintf(m.name, sizeof(m.name), "%.*s", (int)len, base);
		if (!is_name(m.name, "_.-"))
			error_at(line, "no 'name' line and the file name is not usable as one");
	}
	expand_factorials();
	expand_fractions();
	resolve_replicates();
	check_compares();
	if (m.nr_combos == 0)
		error_at(line, "no 'combo', 'factorial' or 'fraction' line: nothing to compare");
	if (m.nr_workloads == 0)
		error_at(line, "no 'workload' line: nothing to run");
	return 0;
}
